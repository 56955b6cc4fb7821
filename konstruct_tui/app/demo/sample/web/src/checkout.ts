import { Cart } from "./cart";
import { roundMoney } from "./pricing";

export const TAX_RATE = 0.08;

export function checkout(cart: Cart): { subtotal: number; tax: number; total: number } {
  const subtotal = cart.subtotal();
  const tax = roundMoney(subtotal * TAX_RATE);
  return { subtotal, tax, total: roundMoney(subtotal + tax) };
}
