from shop.cart import Cart, LineItem
from shop.pricing import apply_discount


def test_discount_is_rounded_once_at_the_end() -> None:
    assert apply_discount(19.99, 15) == 16.99


def test_cart_subtotal() -> None:
    cart = Cart()
    cart.add(LineItem("mug", 19.99, 2, discount_percent=15))
    assert cart.subtotal() == 33.98
