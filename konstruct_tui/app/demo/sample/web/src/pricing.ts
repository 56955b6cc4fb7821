// Money arithmetic for the web shop; must agree with shop/pricing.py cent for cent.

export function roundMoney(amount: number): number {
  const cents = Math.floor(Math.abs(amount) * 100 + 0.5);
  return amount >= 0 ? cents / 100 : -cents / 100;
}

export function applyDiscount(price: number, percent: number): number {
  return roundMoney(price) * (1 - percent / 100);
}
