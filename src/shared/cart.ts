/**
 * The basket as the server answers it (spec §3 "Cart", "Cart item"; checkout-and-account §3), the
 * basket's forms shared by the browser and the server (spec §5; the limits and promotional-code
 * rules are in checkout-rules.ts, re-exported here), and the basket texts. The zod
 * request schemas built on these rules are in cart.schemas.ts (server), so the browser's basket
 * page does not carry zod.
 * Money is integer minor units (pence or cents); `_inc_tax` names include VAT, the rest do not.
 */
import type { PresentedBlok } from './content.ts'
import type { ProductTileData } from './listing.ts'
import { PROMO_CODE_MAX } from './checkout-rules.ts'

// The basket's limits and the promotional-code rules are defined once, in checkout-rules.ts.
export {
  distinctPromotionCodes,
  MAX_BASKET_TOTAL_MINOR,
  MAX_LINES_PER_REQUEST,
  MAX_PROMOTION_CODES,
  MAX_QUANTITY,
  normalisePromotionCode,
  PROMO_CODE_MAX,
  promotionCodesInForce,
  tooManyPromotionCodes,
} from './checkout-rules.ts'

export const CART_TEXT = {
  basketTooLarge: 'This basket is too large to order online. Please contact us to place this order.',
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
  promoTooLong: `Promotional Code must be less than ${PROMO_CODE_MAX} characters`,
  promoNotApplied: 'Promo code could not be applied',
  promoInvalid: 'Promo code is not valid or applicable to your cart',
  promoFailed: 'Failed to apply promo code. Please try again.',
  promoRemoveFailed: 'Failed to remove promo code',
  promoUsedUp: 'This promotional code has reached its usage limit',
  promoOnlyOne: 'Only one promotional code can be used.',
  whoops: 'Whoops! Something went wrong.',
} as const

/** Spec §5/§9: one tree planted per 100 spent (major units), at most 500 for one order. */
export const TREE_SPEND_MINOR = 10_000
export const TREE_CAP = 500

/** Trees an order of `spentMinor` (goods ex tax, minor units) plants. */
export function treesFor(spentMinor: number): number {
  if (!Number.isFinite(spentMinor) || spentMinor <= 0) return 0
  return Math.min(TREE_CAP, Math.floor(spentMinor / TREE_SPEND_MINOR))
}

/**
 * Spec §4: the free-delivery note shows when 'shortForFreeShipping minus subtotal is 0 or less'.
 * That sentence reads the field as the threshold; this cart's shortForFreeShipping is the amount
 * still to spend (§3), i.e. threshold minus subtotal already, so the note shows when it is 0 or
 * less. No threshold (null): no note.
 */
export function showsFreeDeliveryNote(cart: { shortForFreeShipping: number | null }): boolean {
  return cart.shortForFreeShipping !== null && cart.shortForFreeShipping <= 0
}

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
    /** The code shown to the shopper: the price grid's product_code, the same on the product page */
    product_code: string
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
  /** 'Design A Sign' lines: the sign's preview (SVG) and printable PDF proof */
  sign_preview_url?: string
  sign_proof_url?: string
  /** Size and material of a designed sign */
  sign_details?: string
  /** A line of a numbered sign set: this sign's number as printed */
  sequence_label?: string | null
  /** Workwear lines: the garment, what is printed where (cost per garment) and a preview */
  work_wear?: {
    garment: string
    colour: string
    size: string
    customisation: { name: string; cost: number }[]
    preview_url: string
  }
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
  /** The basket holds goods that qualify for VAT relief on a site that charges VAT (§3 show_vat_relief) */
  show_vat_relief?: boolean
  /** The declaration relief was claimed with (null: none) */
  vat_relief_declaration?: { name: string; condition: string } | null
  /** Loaded from a share link */
  shared: boolean
}

/** Props of the `Cart` page, built by the server's cart presenter. */
export interface CartPageProps {
  basket: Cart
  /** Logged-in customers may save the basket */
  canSave: boolean
  /** Shown under 'Suggested products' when the basket is empty */
  suggestions: ProductTileData[]
  /** Blocks of the content stories basket/after-summary and basket/after-navigation, or null */
  content: { afterSummary: PresentedBlok[] | null; afterNavigation: PresentedBlok[] | null }
  /**
   * A share link was opened (GET /cart/shared/{token}): the visitor chooses 'Replace my basket'
   * (a POST to `action`) or 'Keep my basket'. Opening the link changes nothing.
   */
  sharedOffer?: { action: string; count: number } | null
  /** After a replace: the visitor's own basket can be restored (a POST to this path) */
  restorePrevious?: string | null
}

export const SHARE_OFFER_TEXT = {
  title: 'Someone has shared a basket with you',
  replace: 'Replace my basket',
  keep: 'Keep my basket',
  replaced: 'The shared basket is now your basket.',
  restore: 'Restore my previous basket',
  restored: 'Your previous basket is back.',
} as const

export const SHARE_NAME_PATTERN = /^[A-Za-z '-]+$/
export const SAVE_NAME_PATTERN = /^[A-Za-z0-9 '-]+$/
/** A pragmatic address check (the server also checks each one with zod's e-mail rule) */
const EMAIL_PATTERN = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>"]+$/
export const MAX_SHARE_RECIPIENTS = 10

export const FORM_TEXT = {
  shareNameRequired: 'Enter your name.',
  shareNameTooLong: 'The name may not be longer than 100 characters.',
  shareNameChars: 'The name may contain only letters, spaces, apostrophes and hyphens.',
  emailsRequired: 'Enter at least one e-mail address.',
  emailsInvalid: 'Enter up to 10 valid e-mail addresses, separated by commas.',
  saveNameRequired: 'Enter a name for the basket.',
  saveNameTooLong: 'The basket name may not be longer than 100 characters.',
  saveNameChars: 'The basket name may contain only letters, digits, spaces, apostrophes and hyphens.',
} as const

/** The share form's e-mails: comma separated, blanks dropped. */
export function splitEmails(value: string): string[] {
  return value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
}

export function emailsValid(
  value: string,
  isEmail: (e: string) => boolean = (e) => EMAIL_PATTERN.test(e),
): boolean {
  const list = splitEmails(value)
  return list.length > 0 && list.length <= MAX_SHARE_RECIPIENTS && list.every(isEmail)
}

/** The share form checked in the browser before sending: field → messages ({} when fine). */
export function validateShare(form: { name: string; emails: string }): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const name = form.name.trim()
  if (!name) errors.name = [FORM_TEXT.shareNameRequired]
  else if (name.length > 100) errors.name = [FORM_TEXT.shareNameTooLong]
  else if (!SHARE_NAME_PATTERN.test(name)) errors.name = [FORM_TEXT.shareNameChars]
  if (!form.emails.trim()) errors.emails = [FORM_TEXT.emailsRequired]
  else if (!emailsValid(form.emails)) errors.emails = [FORM_TEXT.emailsInvalid]
  return errors
}

export function validateSave(form: { basketName: string }): Record<string, string[]> {
  const name = form.basketName.trim()
  if (!name) return { basketName: [FORM_TEXT.saveNameRequired] }
  if (name.length > 100) return { basketName: [FORM_TEXT.saveNameTooLong] }
  if (!SAVE_NAME_PATTERN.test(name)) return { basketName: [FORM_TEXT.saveNameChars] }
  return {}
}
