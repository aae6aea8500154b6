/**
 * Money is carried as integer minor units (pence, cents) everywhere; this is the one place that
 * turns it into text. GBP is shown the en-GB way (£1,234.50), USD the en-US way ($1,234.50).
 */
import type { Currency } from './page-props.ts'

const formatters = new Map<Currency, Intl.NumberFormat>()

function formatterFor(currency: Currency): Intl.NumberFormat {
  let formatter = formatters.get(currency)
  if (!formatter) {
    formatter = new Intl.NumberFormat(currency === 'USD' ? 'en-US' : 'en-GB', {
      style: 'currency',
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    })
    formatters.set(currency, formatter)
  }
  return formatter
}

/** Formats an amount in minor units, e.g. formatMoney(1250) === '£12.50'. */
export function formatMoney(minorUnits: number, currency: Currency = 'GBP'): string {
  const whole = Number.isFinite(minorUnits) ? Math.round(minorUnits) : 0
  // Normalise -0 so a zero total never reads "-£0.00".
  return formatterFor(currency).format(whole / 100 + 0)
}
