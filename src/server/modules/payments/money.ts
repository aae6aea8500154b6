/**
 * Minor units ↔ a provider's decimal string, only at the adapter's edge. The exponent comes from
 * the currency (ISO 4217), never from a guess about the amount.
 */
import type { ConfirmedAmount, Currency } from './payments.types.ts'

const EXPONENT: Record<Currency, number> = { GBP: 2, USD: 2 }

export function currencyExponent(currency: Currency): number {
  return EXPONENT[currency]
}

/** 2349 GBP → "23.49"; 5 → "0.05"; -120 → "-1.20". Throws on a non-integer. */
export function toDecimalString(minor: number, currency: Currency): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`amount must be an integer of minor units: ${minor}`)
  const exp = currencyExponent(currency)
  if (exp === 0) return String(minor)
  const sign = minor < 0 ? '-' : ''
  const digits = String(Math.abs(minor)).padStart(exp + 1, '0')
  return `${sign}${digits.slice(0, -exp)}.${digits.slice(-exp)}`
}

/** "23.49" → 2349. Refuses anything that is not a plain decimal with at most the exponent's places. */
export function fromDecimalString(value: string, currency: Currency): number {
  const exp = currencyExponent(currency)
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim())
  if (!m || (m[3]?.length ?? 0) > exp) throw new RangeError(`not a ${currency} amount: '${value}'`)
  const minor = Number(m[2]) * 10 ** exp + Number((m[3] ?? '').padEnd(exp, '0') || '0')
  if (!Number.isSafeInteger(minor)) throw new RangeError(`amount out of range: '${value}'`)
  return m[1] === '-' ? -minor : minor
}

/**
 * A provider's stated amount as minor units with its currency, or null when the answer does not
 * state one we can read. An unfamiliar currency keeps its code (it will never equal the basket's)
 * and is read with two decimals.
 */
export function confirmedAmount(value: unknown, currency: unknown): ConfirmedAmount | null {
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) return null
  if (typeof value !== 'string') return null
  try {
    const known = currency === 'GBP' || currency === 'USD'
    return { amountMinor: fromDecimalString(value, known ? currency : 'GBP'), currency }
  } catch {
    return null
  }
}

/** The same for a provider that states minor units as an integer (Opayo's amount.totalAmount). */
export function confirmedMinor(value: unknown, currency: unknown): ConfirmedAmount | null {
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) return null
  return typeof value === 'number' && Number.isSafeInteger(value) ? { amountMinor: value, currency } : null
}
