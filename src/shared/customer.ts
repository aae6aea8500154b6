/**
 * A customer's contacts and addresses (spec checkout-and-account.md §3, §5, §7, §8): the shapes
 * the browser receives, the rules and messages of the account forms, and the payloads of
 * `POST`/`PATCH /customer/update-contact`. Shared by the server (every request) and the browser.
 */
import { z } from 'zod'
import { text as safeText } from './text.ts'

export const CUSTOMER_TEXT = {
  contactExists: 'Contact already exists',
  addressExists: 'Address already exists',
  invalidEmail: 'Not a valid email',
  invalidPhone: 'Not a valid phone number',
  edited: 'Details edited!',
  failed: 'Errors occurred when submitting your details',
  required: (field: string) => `${field} is required`,
  maxLength: (field: string, n: number) => `The max length for ${field} is ${n}`,
  countryNotAllowed: 'We do not deliver to this country.',
  primaryContact: 'The primary contact cannot be deleted.',
  primaryAddress: (type: AddressType) => `The primary ${type} address cannot be deleted.`,
  loginRequired: 'Please log in to manage your details.',
} as const

export const ADDRESS_TYPES = ['shipping', 'billing'] as const
export type AddressType = (typeof ADDRESS_TYPES)[number]
export const SECTIONS = ['contact', 'shipping', 'billing'] as const
export type Section = (typeof SECTIONS)[number]

/** Account phone: 10 to 18 characters, digits only once spaces, hyphens, brackets and + are gone. */
export const ACCOUNT_PHONE = { min: 10, max: 18 } as const

export interface Contact {
  id: number
  firstName: string
  lastName: string
  email: string
  phone: string
  company: string
  primary: boolean
}

export interface Address {
  id: number
  type: AddressType
  company: string
  address1: string
  address2: string
  town: string
  county: string
  postcode: string
  /** 2-letter code; '' for a billing address without one */
  country: string
  primary: boolean
}

/** The customer as the checkout and the account pages receive it (§3 Customer). */
export interface CustomerData {
  id: number
  username: string
  ExternalKey: string | null
  created: string
  RegisterDate: string | null
  company: string
  contacts: Contact[]
  primaryContact: Contact | null
  addresses: Address[]
  shippingAddress: Address | null
  billingAddress: Address | null
}

export interface Country {
  code: string
  name: string
}

const text = (label: string, max: number, required: boolean) => {
  const base = safeText({ error: CUSTOMER_TEXT.required(label) })
    .trim()
    .max(max, CUSTOMER_TEXT.maxLength(label, max))
  return required ? base.min(1, CUSTOMER_TEXT.required(label)) : base.optional().default('')
}

/** Compares values as the duplicate rules do: trimmed and lower-cased. */
export function sameValue(a: string | null | undefined, b: string | null | undefined): boolean {
  return (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase()
}

export function isValidPhone(
  value: string,
  min: number = ACCOUNT_PHONE.min,
  max: number = ACCOUNT_PHONE.max,
) {
  const digits = value.replace(/[\s\-()+]/g, '')
  return value.length >= min && value.length <= max && /^\d+$/.test(digits)
}

export const contactDataSchema = z.object({
  firstName: text('First name', 255, true),
  lastName: text('Last name', 255, true),
  email: text('Email', 255, true).pipe(
    z
      .string()
      .regex(/^[^\s@]+@[^\s@]+$/, CUSTOMER_TEXT.invalidEmail)
      .transform((v) => v.toLowerCase()),
  ),
  phone: text('Phone', 255, true).refine((v) => isValidPhone(v), CUSTOMER_TEXT.invalidPhone),
  company: text('Company', 255, false),
})
export type ContactData = z.output<typeof contactDataSchema>

/** Shipping: every field up to 255. Billing: address lines 255; town, county, country 100; postcode 20. */
export function addressDataSchema(type: AddressType, opts: { club?: boolean } = {}) {
  const billing = type === 'billing'
  return z.object({
    company: opts.club ? text('Club', 255, true) : text('Company', 255, false),
    address1: text('Address 1', 255, true),
    address2: text('Address 2', 255, false),
    town: text('Town', billing ? 100 : 255, true),
    county: text('County', billing ? 100 : 255, false),
    postcode: text('Postcode', billing ? 20 : 255, true),
    country: text('Country', billing ? 100 : 255, !billing).transform((v) => v.toUpperCase()),
  })
}
export type AddressData = z.output<ReturnType<typeof addressDataSchema>>

const id = z
  .number({ error: 'The id is not valid.' })
  .int('The id is not valid.')
  .positive('The id is not valid.')
const flag = z
  .union([z.boolean(), z.enum(['1', '0', 'true', 'false', 'on', ''])])
  .optional()
  .transform((v) => v === true || v === '1' || v === 'true' || v === 'on')

/**
 * `POST /customer/update-contact`: create (no id; `selectNew…` makes it the primary), select (an
 * id alone: made the primary), or delete (`type: 'delete'`, data a list of `{ id, delete: true }`).
 */
export const updateContactPostSchema = z.union([
  z.object({
    type: z.literal('delete'),
    section: z.enum(SECTIONS),
    data: z
      .array(z.object({ id, delete: z.literal(true) }))
      .min(1, 'Choose what to delete.')
      .max(50),
  }),
  z.object({
    type: z.undefined().optional(),
    section: z.enum(SECTIONS),
    id: id.nullable().optional(),
    data: z.record(z.string(), z.unknown()).nullable().optional(),
    selectNewContact: flag,
    selectNewShipping: flag,
    selectNewBilling: flag,
  }),
])

/** `PATCH /customer/update-contact`: edit one entry. */
export const updateContactPatchSchema = z.object({
  section: z.enum(SECTIONS),
  id,
  data: z.record(z.string(), z.unknown()),
})

/** The countries a site delivers to when its settings name none. */
export const DEFAULT_COUNTRIES: Country[] = [
  { code: 'GB', name: 'United Kingdom' },
  { code: 'IE', name: 'Ireland' },
  { code: 'US', name: 'United States' },
  { code: 'FR', name: 'France' },
  { code: 'DE', name: 'Germany' },
  { code: 'NL', name: 'Netherlands' },
  { code: 'BE', name: 'Belgium' },
  { code: 'ES', name: 'Spain' },
]
