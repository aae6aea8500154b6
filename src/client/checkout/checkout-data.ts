/**
 * The checkout page's plain helpers: form values from saved entries, country names, where a
 * server field error belongs, the analytics pushes (§4 CheckoutStep). The JSON calls and the §8
 * error joining are lib/json-client.ts.
 */
import type { Address, Contact } from '../../shared/customer.ts'
import { EMPTY_ADDRESS, EMPTY_CONTACT, type Values } from './fields.tsx'

/** §5: 'Fields marked * are required.' */
export const REQUIRED_NOTE = 'Fields marked * are required.'

export const contactValues = (c: Contact | null): Values =>
  c
    ? { firstName: c.firstName, lastName: c.lastName, email: c.email, phone: c.phone, company: c.company }
    : EMPTY_CONTACT

export const addressValues = (a: Address | null): Values =>
  a
    ? {
        company: a.company,
        address1: a.address1,
        address2: a.address2,
        town: a.town,
        county: a.county,
        postcode: a.postcode,
        country: a.country,
      }
    : EMPTY_ADDRESS

/** A country's name from its 2-letter code (the code itself when the site does not list it). */
export function countryName(code: string | undefined, countries: { code: string; name: string }[]): string {
  if (!code) return ''
  return countries.find((c) => c.code === code.toUpperCase())?.name ?? code
}

/** The address as one line for the summary: the filled parts joined, the country by name. */
export function addressLine(a: Values, countries: { code: string; name: string }[]): string {
  return [a.company, a.address1, a.address2, a.town, a.county, a.postcode, countryName(a.country, countries)]
    .map((v) => (v ?? '').trim())
    .filter(Boolean)
    .join(', ')
}

/** The contact as one line for the summary: the name as one part, then e-mail and phone. */
export function contactLine(c: Values): string {
  const name = [c.firstName, c.lastName]
    .map((v) => (v ?? '').trim())
    .filter(Boolean)
    .join(' ')
  return [name, c.email, c.phone]
    .map((v) => (v ?? '').trim())
    .filter(Boolean)
    .join(', ')
}

export function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null
  const m = document.cookie.match(new RegExp(`(?:^|;\\s*)${name}=([^;]*)`))
  return m ? decodeURIComponent(m[1] ?? '') : null
}

/** §4: completing a step sends a CheckoutStep event and an analytics step event. */
export function pushStep(step: number, option: string) {
  const w = window as unknown as { dataLayer?: unknown[] }
  const layer = (w.dataLayer ??= [])
  layer.push({ event: 'CheckoutStep', step, option })
  layer.push({ event: 'checkout_progress', checkout_step: step, checkout_option: option })
}

/**
 * Where a server field error belongs (§8 'Field errors from saves are mapped to the form'): the
 * step holding the field, the id of its input and the key the form shows it under. Null: not a
 * field of the form (shown in the red box).
 */
export function fieldOfError(key: string): { step: number; id: string; key: string } | null {
  const [head, field] = key.split('.', 2) as [string, string | undefined]
  const section =
    head === 'contact'
      ? 'contact'
      : head === 'shipping_address'
        ? 'shipping'
        : head === 'billing_address'
          ? 'billing'
          : null
  if (section && field) return { step: 2, id: `${section}-${field}`, key: `${section}.${field}` }
  if (head === 'VATNumber') return { step: 2, id: 'vat-number', key }
  if (head === 'Notes') return { step: 3, id: 'notes', key }
  if (head === 'PONumber') return { step: 3, id: 'po-number', key }
  if (head === 'payment_method') return { step: 1, id: 'payment-method-error', key }
  return null
}

/** The server's field errors by the form's keys, and the earliest step's first field among them. */
export function mapServerErrors(errors: Record<string, string[] | string>): {
  mapped: Record<string, string>
  first: { step: number; id: string } | null
} {
  const mapped: Record<string, string> = {}
  let first: { step: number; id: string } | null = null
  for (const [key, value] of Object.entries(errors)) {
    const target = fieldOfError(key)
    const message = Array.isArray(value) ? value[0] : value
    if (!target || !message) continue
    mapped[target.key] = message
    if (!first || target.step < first.step) first = target
  }
  return { mapped, first }
}
