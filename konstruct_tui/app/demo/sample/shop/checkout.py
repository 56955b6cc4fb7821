"""Checkout: subtotal, tax and the amount to charge."""

from __future__ import annotations

from .cart import Cart
from .pricing import round_money, tax

TAX_RATE = 0.08


def checkout(cart: Cart) -> dict[str, float]:
    subtotal = cart.subtotal()
    owed_tax = tax(subtotal, TAX_RATE)
    return {"subtotal": subtotal, "tax": owed_tax, "total": round_money(subtotal + owed_tax)}
