"""The demo shop: carts, pricing and checkout."""

from .cart import Cart, LineItem
from .checkout import checkout

__all__ = ["Cart", "LineItem", "checkout"]
