import { applyDiscount, roundMoney } from "./pricing";

export interface LineItem {
  sku: string;
  unitPrice: number;
  quantity: number;
  discountPercent?: number;
}

export class Cart {
  readonly items: LineItem[] = [];

  add(item: LineItem): void {
    this.items.push(item);
  }

  subtotal(): number {
    const sum = this.items.reduce(
      (total, item) => total + applyDiscount(item.unitPrice, item.discountPercent ?? 0) * item.quantity,
      0,
    );
    return roundMoney(sum);
  }
}
