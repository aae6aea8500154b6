/** VAT arithmetic on integer minor units. The rate is a whole or decimal percentage (20 = 20%). */
export const DEFAULT_VAT_RATE = 20

/** VAT on an amount, rounded half-up to the minor unit. */
export function vatOn(amountExVat: number, ratePercent = DEFAULT_VAT_RATE): number {
  const exact = (amountExVat * ratePercent) / 100
  // Half-up for positive amounts, symmetric for refunds.
  return Math.sign(exact) * Math.floor(Math.abs(exact) + 0.5 + 1e-9)
}

export function withVat(amountExVat: number, ratePercent = DEFAULT_VAT_RATE): number {
  return amountExVat + vatOn(amountExVat, ratePercent)
}
