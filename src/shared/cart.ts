/**
 * The basket as the server answers it (spec §3 "Cart", "Cart item"; checkout-and-account §3), the
 * request schemas shared by the browser and the server (spec §5), and the basket texts.
 * Money is integer minor units (pence or cents); `_inc_tax` names include VAT, the rest do not.
 */
import { z } from 'zod'

export const MAX_QUANTITY = 9999
export const PROMO_CODE_MAX = 50
export const MAX_LINES_PER_REQUEST = 100

export const CART_TEXT = {
  empty: 'No items in your shopping cart',
  suggested: 'Suggested products',
  addError: 'Something went wrong when trying to add item(s) to basket.',
  clearError: 'Something went wrong when trying to clear the basket.',
  deleteError: 'Something went wrong when trying to delete cart item.',
  updateError: 'Something went wrong when update to basket.',
  signSequenceError: 'There was an error removing the sign sequence',
  sending: 'Sending...',
  sent: 'Cart sent',
  shareError: 'There was an error sharing this cart.',
  saved: 'Cart Saved',
  saveError: 'There was an error saving this cart.',
  promoTooLong: 'Promotional Code must be less than 50 characters',
  promoNotApplied: 'Promo code could not be applied',
  promoInvalid: 'Promo code is not valid or applicable to your cart',
  promoFailed: 'Failed to apply promo code. Please try again.',
  promoRemoveFailed: 'Failed to remove promo code',
  promoUsedUp: 'This promotional code has reached its usage limit',
  whoops: 'Whoops! Something went wrong.',
} as const

export interface PrintableSignData {
  url: string
  printableSVG?: string
  webVersionOfSVG?: string
  signReads?: string
}

export interface CartOptionItem {
  id: number
  /** The builder group ('Size', 'Material') */
  title: string
  name: string
  /** Per unit, ex VAT */
  cost: number
}

export interface CartItem {
  id: number
  quantity: number
  minimumOrder: number
  /** Id of the parent line, or null */
  parent: number | null
  is_isolated_from_parent: boolean
  IsFreeGift: boolean
  sequence_id: string | null
  printable_sign: PrintableSignData | null
  /** Unit price ex VAT including options ('Price Each') */
  unit_price: number
  unit_price_inc_tax: number
  /** After the line's share of the discount, ex VAT */
  line_total: number
  line_total_inc_tax: number
  line_tax: number
  line_total_ex_discount_ex_tax: number
  vat_rate: number
  options: { price_ex_tax: number; items: CartOptionItem[] }
  product: {
    id: number
    sku: string
    name: string
    url: string
    /** Unit price ex VAT without options */
    price: number
    details: string
    /** Thumbnail URL, or null */
    media: string | null
    category: { id: number; name: string; url: string } | null
  }
  FullURL: string
  category: { url: string } | null
  work_wear_session: { id: string; builder_json: { cat_id: number } } | null
  /** Printable signs: the sign's page with ?item_id= */
  edit_url: string | null
  /** Workwear lines: the builder with ?session_id= */
  work_wear_url: string | null
}

export interface ShippingRate {
  id: number
  name: string
  price: number
  selected: boolean
  despatch_type: string
}

export interface PromoError {
  message: string
  code: string
}

export interface Cart {
  /** Null until something is added */
  id: string | null
  items: CartItem[]
  promotionCodes: string[]
  errors: { promotionCodes: PromoError[] }
  despatch_types: string[]
  despatch_type: string
  cart_total_price: number
  cart_total_price_inc_tax: number
  cart_total_tax: number
  cart_total_shipping: number
  cart_total_shipping_inc_tax: number
  cart_total_discount: number
  cart_total_discount_inc_tax: number
  /** Number of items (sum of quantities) */
  cart_total_items: number
  customer_id: number | null
  shippingZone: string
  shippingRates: ShippingRate[]
  /** Left to spend for free delivery; null when not set */
  shortForFreeShipping: number | null
  short_for_minimum_order_value: number
  minimum_order_value: number
  /** Goods before discount, ex VAT */
  items_total: number
  /** Number of lines */
  items_count: number
  /** VAT by rate */
  vat_items: { rate: number; net: number; tax: number }[]
  customisation_total: number
  ApplyVATRelief: boolean
  /** Loaded from a share link */
  shared: boolean
}

// --- Request schemas ---------------------------------------------------------------------

const wholeQuantity = (min: number) =>
  z
    .number({ error: 'The quantity must be a number.' })
    .int('The quantity must be a whole number.')
    .min(min, min === 0 ? 'The quantity may not be negative.' : `The quantity must be at least ${min}.`)
    .max(MAX_QUANTITY, `The quantity may not be greater than ${MAX_QUANTITY}.`)

const id = (what: string) =>
  z
    .number({ error: `The ${what} is not valid.` })
    .int(`The ${what} is not valid.`)
    .positive(`The ${what} is not valid.`)

export const promoCodeSchema = z
  .string({ error: 'The promotional code must be text.' })
  .max(PROMO_CODE_MAX, CART_TEXT.promoTooLong)

export const promotionCodesSchema = z.array(promoCodeSchema).max(5, 'Only one promotional code can be used.')

export const addItemSchema = z.object({
  listing_id: id('product'),
  quantity: wholeQuantity(1),
  category_id: id('category').nullable().optional(),
  customisation: z.object({ options: z.array(id('option')).max(20, 'Too many options.') }).optional(),
  sequence_id: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[\w-]+$/, 'The sequence id is not valid.')
    .optional(),
  printable_sign: z
    .object({
      url: z
        .string()
        .max(500)
        .regex(/^\/[^\s]*$/, 'The sign address is not valid.'),
      printableSVG: z.string().max(200_000).optional(),
      webVersionOfSVG: z.string().max(200_000).optional(),
      signReads: z.string().max(500).optional(),
    })
    .optional(),
})

export const addSchema = z.object({
  items: z.array(addItemSchema).max(MAX_LINES_PER_REQUEST, 'Too many lines in one request.').default([]),
  promotionCodes: promotionCodesSchema.optional(),
})

export const updateItemsSchema = z.object({
  items: z
    .array(z.object({ id: id('line'), quantity: wholeQuantity(0) }))
    .min(1, 'Choose at least one line to update.')
    .max(MAX_LINES_PER_REQUEST, 'Too many lines in one request.'),
})

export const updateCartSchema = z.object({
  items: z
    .array(z.object({ id: id('line'), quantity: wholeQuantity(0) }))
    .max(MAX_LINES_PER_REQUEST, 'Too many lines in one request.')
    .optional(),
  promotionCodes: promotionCodesSchema.optional(),
  despatch_type: z.string().max(40).optional(),
  shippingZone: z.string().max(60).optional(),
  ApplyVATRelief: z.boolean({ error: 'ApplyVATRelief must be true or false.' }).optional(),
})

const EMAIL = z.email()

export const shareSchema = z.object({
  emails: z
    .string({ error: 'Enter at least one e-mail address.' })
    .trim()
    .min(1, 'Enter at least one e-mail address.')
    .max(1000, 'Too many e-mail addresses.')
    .refine(
      (value) => {
        const list = splitEmails(value)
        return list.length > 0 && list.length <= 10 && list.every((e) => EMAIL.safeParse(e).success)
      },
      { message: 'Enter up to 10 valid e-mail addresses, separated by commas.' },
    ),
  name: z
    .string({ error: 'Enter your name.' })
    .trim()
    .min(1, 'Enter your name.')
    .max(100, 'The name may not be longer than 100 characters.')
    .regex(/^[A-Za-z '-]+$/, 'The name may contain only letters, spaces, apostrophes and hyphens.'),
  cart_id: z.string().optional(),
})

export const saveSchema = z.object({
  basketName: z
    .string({ error: 'Enter a name for the basket.' })
    .trim()
    .min(1, 'Enter a name for the basket.')
    .max(100, 'The basket name may not be longer than 100 characters.')
    .regex(
      /^[A-Za-z0-9 '-]+$/,
      'The basket name may contain only letters, digits, spaces, apostrophes and hyphens.',
    ),
})

/** The share form's e-mails: comma separated, blanks dropped. */
export function splitEmails(value: string): string[] {
  return value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
}

/** zod issues as field → messages (paths joined with dots: items.0.quantity). */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : 'form'
    ;(out[key] ??= []).push(issue.message)
  }
  return out
}
