"""Money arithmetic for the shop. Prices are floats in the demo; a real shop would use Decimal."""

from __future__ import annotations


def round_money(amount: float) -> float:
    """Round to whole cents, halves away from zero."""
    cents = int(abs(amount) * 100 + 0.5)
    return cents / 100 if amount >= 0 else -cents / 100


def apply_discount(price: float, percent: float) -> float:
    """The price after a percentage discount, in whole cents."""
    return round_money(price) * (1 - percent / 100)


def tax(amount: float, rate: float) -> float:
    return round_money(amount * rate)
