"""A cart of line items, priced with the shop's discount rules."""

from __future__ import annotations

from dataclasses import dataclass, field

from .pricing import apply_discount, round_money


@dataclass(frozen=True)
class LineItem:
    sku: str
    unit_price: float
    quantity: int = 1
    discount_percent: float = 0.0

    def total(self) -> float:
        return round_money(apply_discount(self.unit_price, self.discount_percent) * self.quantity)


@dataclass
class Cart:
    items: list[LineItem] = field(default_factory=list)

    def add(self, item: LineItem) -> None:
        self.items.append(item)

    def subtotal(self) -> float:
        return round_money(sum(item.total() for item in self.items))
