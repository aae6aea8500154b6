/**
 * The checkout's rules, texts and the order form (spec checkout-and-account.md §3, §5, §8, §9),
 * shared by the Checkout page and the server. Money is integer minor units.
 */
import { z } from 'zod'
import { text } from './text.ts'
import type { BotCheckProps } from './auth.ts'
import type { Cart } from './cart.ts'
import type { CustomerData } from './customer.ts'

export { CHECKOUT, CHECKOUT_TEXT, orderTotal } from './checkout-text.ts'
import { CHECKOUT, CHECKOUT_TEXT } from './checkout-text.ts'
import {
  CHECKOUT_BILLING_MAX,
  COUNTRY_CODE_LENGTH,
  CHECKOUT_FIELD_MAX,
  PO_NUMBER_MAX,
  VAT_NUMBER_MAX,
} from './checkout-rules.ts'

const requiredText = (max: number = CHECKOUT_FIELD_MAX) =>
  text({ error: CHECKOUT_TEXT.required })
    .trim()
    .min(1, CHECKOUT_TEXT.required)
    .max(max, CHECKOUT_TEXT.tooLong(max))
const optionalText = (max: number = CHECKOUT_FIELD_MAX) =>
  text()
    .trim()
    .max(max, CHECKOUT_TEXT.tooLong(max))
    .nullish()
    .transform((v) => v ?? '')

/** Checkout contact (§5): first name, last name, email, phone (10 to 16) required. */
export const checkoutContactSchema = z.object({
  firstName: requiredText(),
  lastName: requiredText(),
  email: requiredText().pipe(
    text()
      .regex(/^[^\s@]+@[^\s@]+$/, CHECKOUT_TEXT.emailInvalid)
      .transform((v) => v.toLowerCase()),
  ),
  phone: z
    .string({ error: CHECKOUT_TEXT.required })
    .trim()
    .min(1, CHECKOUT_TEXT.required)
    .min(CHECKOUT.phoneMin, CHECKOUT_TEXT.phoneShort)
    .max(CHECKOUT.phoneMax, CHECKOUT_TEXT.phoneLong),
  company: optionalText(),
})

/** Shipping: address1, town, country, postcode required. Billing: country optional. */
export function checkoutAddressSchema(type: 'shipping' | 'billing') {
  return z.object({
    company: optionalText(),
    address1: requiredText(),
    address2: optionalText(),
    town: requiredText(type === 'billing' ? CHECKOUT_BILLING_MAX.town : CHECKOUT_FIELD_MAX),
    county: optionalText(type === 'billing' ? CHECKOUT_BILLING_MAX.county : CHECKOUT_FIELD_MAX),
    postcode: requiredText(type === 'billing' ? CHECKOUT_BILLING_MAX.postcode : CHECKOUT_FIELD_MAX),
    country:
      type === 'billing'
        ? optionalText(COUNTRY_CODE_LENGTH).transform((v) => v.toUpperCase())
        : requiredText(COUNTRY_CODE_LENGTH).transform((v) => v.toUpperCase()),
  })
}

const optionalId = z.number().int().positive().nullish()
const flag = z
  .union([z.boolean(), z.enum(['1', '0', 'true', 'false', 'on', ''])])
  .optional()
  .transform((v) => v === true || v === '1' || v === 'true' || v === 'on')

/**
 * `POST /checkout/complete` (§3 "Order form sent from checkout", §7). Saved entries by id (a
 * logged-in customer's), or the entered details. The transaction's amount is only what the
 * shopper expects to pay: the server re-prices and refuses a difference.
 */
export const orderFormSchema = z.object({
  cart_id: text().max(64).nullish(),
  payment_method: text().max(40).optional(),
  customer_contact_id: optionalId,
  customer_shipping_address_id: optionalId,
  customer_billing_address_id: optionalId,
  contact: z.record(z.string(), z.unknown()).nullish(),
  shipping_address: z.record(z.string(), z.unknown()).nullish(),
  billing_address: z.record(z.string(), z.unknown()).nullish(),
  showingBillingAddress: flag,
  transactions: z
    .array(
      z.object({
        amount: z.number({ error: 'The amount is not valid.' }).int('The amount is not valid.').min(0),
        paymentDetails: z.record(z.string(), z.unknown()).optional().default({}),
        paymentProvider: text().max(40).optional(),
        message: text().max(500).optional(),
        authCode: z.literal('empty').optional(),
      }),
    )
    .min(1, 'The payment is missing.')
    .max(1, 'Only one payment is accepted.'),
  delivery_option: z.union(
    [
      z.number().int().positive(),
      text()
        .regex(/^\d{1,9}$/)
        .transform(Number),
    ],
    {
      error: CHECKOUT_TEXT.required,
    },
  ),
  Notes: text()
    .max(CHECKOUT.notesMax, CHECKOUT_TEXT.tooLong(CHECKOUT.notesMax))
    .nullish()
    .transform((v) => (v ?? '').trim()),
  // Blank stands for the names joined (defaultPoNumber); the purchase-order method fills it in.
  PONumber: text().trim().max(PO_NUMBER_MAX, CHECKOUT_TEXT.tooLong(PO_NUMBER_MAX)).nullish(),
  VATNumber: text()
    .trim()
    .max(VAT_NUMBER_MAX, CHECKOUT_TEXT.tooLong(VAT_NUMBER_MAX))
    .nullish()
    .transform((v) => v || null),
  'g-recaptcha-response': text().max(20_000).optional(),
  force_logout: z.unknown().optional(),
  // The payment providers' fields (§7); each method's parseDetails checks its own.
  card_identifier: text().max(100).optional(),
  sagePayMerchantSessionKey: text().max(100).optional(),
  save_card: flag,
  saved_card: z
    .union([
      z.number().int().positive(),
      text()
        .regex(/^\d{1,12}$/)
        .transform(Number),
    ])
    .nullish(),
  challengeWindowSize: z.enum(['Small', 'Medium']).optional(),
  threeDSSessionData: text().max(1024).optional(),
  aCSResponse: text().max(20_000).optional(),
  threeDSVersion: text().max(10).optional(),
  orderID: text().max(100).optional(),
  paypalReApproval: flag,
  amazonCheckoutSessionId: text().max(200).optional(),
})
/** The §7 fields of `/checkout/complete` a payment method's parseDetails receives. */
export const PROVIDER_FORM_FIELDS = [
  'card_identifier',
  'sagePayMerchantSessionKey',
  'save_card',
  'saved_card',
  'challengeWindowSize',
  'threeDSSessionData',
  'aCSResponse',
  'threeDSVersion',
  'orderID',
  'paypalReApproval',
  'amazonCheckoutSessionId',
] as const
export type OrderForm = z.output<typeof orderFormSchema>

/** The shop's order as the browser receives it (§3 Order). */
export interface OrderData {
  id: number
  OrderNumber: number
  orderDate: string
  OrderSource: string
  Notes: string
  status:
    'pending_payment' | 'payment_failed' | 'placed' | 'held' | 'partially_shipped' | 'shipped' | 'cancelled'
  maginus_status: number | null
  currency: 'GBP' | 'USD'
  contactDetails: { first_name: string; last_name: string; email: string; phone: string; company: string }
  shippingAddress: OrderAddressData
  billingAddress: OrderAddressData
  VATNumber: string | null
  transactions: {
    paymentProvider: string
    paymentDetails: Record<string, unknown>
    amount: number
    message: string
    authCode: string
  }[]
  items: OrderItemData[]
  /** Goods after discount, ex VAT */
  totalCost: number
  /** Goods after discount, inc VAT */
  totalCostIncTax: number
  /** Delivery inc VAT */
  totalShippingCost: number
  totalDiscountCost: number
  totalTax: number
  CustomisationCharge: number
  promotionCodes: string[]
  deliveryName: string
}

export interface OrderAddressData {
  company: string
  address1: string
  address2: string
  town: string
  county: string
  postcode: string
  country: string
}

export interface OrderItemData {
  sku: string
  name: string
  product: {
    id: number
    sku: string
    name: string
    price: number
    status: 'published' | 'unpublished'
    category_id: number | null
    category: { id: number; name: string; url: string } | null
    details: string
  }
  quantity: number
  line_item_cost: number
  line_total: number
  line_total_ex_discount_ex_tax: number
  line_vat: number
  builder_id: number | null
  sequence_id: string | null
  options: { items: { id: number; title: string; name: string; cost: number }[] }
  parent: number | null
  IsFreeGift: boolean
  /**
   * A sign's or workwear line's small preview (PNG, about 120 px wide; the URL is relative to the
   * site and carries its own permission) and its text alternative; absent on other lines.
   */
  preview?: { url: string; alt: string } | null
}

/** What Order Complete shows as the total: goods inc VAT plus delivery (§9). */

export interface FieldMeta {
  label: string
  name: string
  type: 'text' | 'textarea' | 'select'
  required: boolean
  readonly?: boolean
  validation?: 'phone' | 'email'
  options?: { value: string; label: string }[]
  autoComplete?: string
}

/** Field metadata of the checkout forms (§3 Field metadata). */
export const CONTACT_FIELDS: FieldMeta[] = [
  { label: 'First Name', name: 'firstName', type: 'text', required: true, autoComplete: 'given-name' },
  { label: 'Last Name', name: 'lastName', type: 'text', required: true, autoComplete: 'family-name' },
  { label: 'Email', name: 'email', type: 'text', required: true, validation: 'email', autoComplete: 'email' },
  { label: 'Phone', name: 'phone', type: 'text', required: true, validation: 'phone', autoComplete: 'tel' },
  { label: 'Company', name: 'company', type: 'text', required: false, autoComplete: 'organization' },
]

export function addressFields(
  type: 'shipping' | 'billing',
  countries: { code: string; name: string }[],
): FieldMeta[] {
  const section = type === 'shipping' ? 'shipping' : 'billing'
  return [
    {
      label: 'Company',
      name: 'company',
      type: 'text',
      required: false,
      autoComplete: `${section} organization`,
    },
    {
      label: 'Address 1',
      name: 'address1',
      type: 'text',
      required: true,
      autoComplete: `${section} address-line1`,
    },
    {
      label: 'Address 2',
      name: 'address2',
      type: 'text',
      required: false,
      autoComplete: `${section} address-line2`,
    },
    { label: 'Town', name: 'town', type: 'text', required: true, autoComplete: `${section} address-level2` },
    {
      label: 'County',
      name: 'county',
      type: 'text',
      required: false,
      autoComplete: `${section} address-level1`,
    },
    {
      label: 'Postcode',
      name: 'postcode',
      type: 'text',
      required: true,
      autoComplete: `${section} postal-code`,
    },
    {
      label: 'Country',
      name: 'country',
      type: 'select',
      required: type === 'shipping',
      options: countries.map((c) => ({ value: c.code, label: c.name })),
      autoComplete: `${section} country`,
    },
  ]
}

/** Props of the `Checkout` page. */
export interface CheckoutPageProps {
  basket: Cart
  customer: CustomerData | null
  paymentMethods: { id: string; label: string; img: string; detail: string }[]
  countries: { code: string; name: string }[]
  freephoneNumber: string
  botCheck: BotCheckProps | null
  addressSearchUrl: string
  /** Each offered payment method's page set-up (script URL, saved cards…), by method id. */
  paymentConfig: Record<string, Record<string, unknown>>
  /** The providers are simulators or sandboxes: the page says 'Test mode'. */
  testMode: boolean
}

/** Props of the `CheckoutComplete` page. */
export interface CheckoutCompletePageProps {
  order: OrderData
  invoicingEntity: string
  sisterSites: { name: string; url: string; logo: string }[]
  deliveryWarnings: string[]
  /** ISO date, one day after the order date */
  estimatedDelivery: string
  showOptOut: boolean
  forceLogout: boolean
}
