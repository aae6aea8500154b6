/**
 * The checkout's and the basket's rules, each once (issue 30): the zod schemas (checkout.ts,
 * cart.schemas.ts), the server and the pages all use these definitions; none of them writes its
 * own copy (checkout-rules.imports.test.ts holds them to it). Rules only: no zod, no texts, no
 * imports, so the page pays nothing for them. Each rule cites the spec's words
 * (`checkout-and-account.md` is "checkout", `storefront-and-basket.md` is "basket").
 * Money is integer minor units.
 */

// --- Contact, address and order-form fields ---------------------------------------------

/** A text field of the checkout without a limit of its own. Checkout §9: "Field max lengths 255, 100, 20." */
export const CHECKOUT_FIELD_MAX = 255
/**
 * The billing address's shorter fields. Checkout §5: "Billing: address1 and address2 max 255;
 * town, county, country max 100; postcode max 20".
 */
export const CHECKOUT_BILLING_MAX = { town: 100, county: 100, postcode: 20 } as const
/** A country is its two-letter ISO code, chosen "from an allowed list" (checkout §5). */
export const COUNTRY_CODE_LENGTH = 2
/** Checkout §9: "Checkout phone 10 to 16; account phone 10 to 18" (the account's is its own). */
export const PHONE_MIN = 10
export const PHONE_MAX = 16
/** Checkout §5: "Delivery notes: max 35 characters, with a remaining-characters count." */
export const NOTES_MAX = 35
/** Checkout §5: "Feedback: not empty; max 2000 characters with counter". */
export const FEEDBACK_MAX = 2000

// --- Purchase order number --------------------------------------------------------------

/**
 * The longest PO number. The spec gives no number (checkout §5: "Purchase order number may be
 * blank (then filled automatically)"); 50 is the limit the page's box and the purchase-order
 * method have held since ADR 0065, and the order form's schema now holds it too (ADR 0161).
 */
export const PO_NUMBER_MAX = 50

/**
 * The PO number a blank box stands for. Checkout §4: "the PO number defaults to first plus last
 * name joined" (with one space, checkout.md), cut to PO_NUMBER_MAX.
 */
export function defaultPoNumber(contact: { firstName?: string | null; lastName?: string | null }): string {
  const joined = `${(contact.firstName ?? '').trim()} ${(contact.lastName ?? '').trim()}`.trim()
  return joined.slice(0, PO_NUMBER_MAX)
}

// --- VAT number -------------------------------------------------------------------------

/** The longest VAT number the checkout's box takes. */
export const VAT_NUMBER_MAX = 30
/** The shipping country for which the checkout asks for a VAT number (the form's `VATNumber`). */
export const VAT_NUMBER_COUNTRY = 'IE'
/**
 * The payment methods whose buyer's details come from the provider (checkout §4: "For PayPal
 * and Amazon, address details are imported").
 */
const WALLET_METHODS: readonly string[] = ['paypal', 'amazon']

/**
 * Whether the VAT number applies: only when delivering to IE and not paying by wallet (PayPal,
 * Amazon Pay: their details are imported and the page shows no box). The page shows the box
 * only then, and the server keeps the number only then.
 */
export function vatNumberApplies(shippingCountry: string | null | undefined, paymentMethod: string): boolean {
  return (
    (shippingCountry ?? '').trim().toUpperCase() === VAT_NUMBER_COUNTRY &&
    !WALLET_METHODS.includes(paymentMethod)
  )
}

// --- Address search ------------------------------------------------------------------------

/** Checkout §5: "Address search: begins after more than 1 character, throttled to once per second." */
export const ADDRESS_SEARCH_MIN_CHARS = 2

/** Whether a typed query is long enough to search addresses (spaces do not count twice). */
export function addressSearchStarts(query: string): boolean {
  return query.replace(/\s+/g, ' ').trim().length >= ADDRESS_SEARCH_MIN_CHARS
}

// --- Delivery countries and zones of a site ------------------------------------------------

/**
 * Whether an address's country is one the site offers. Checkout §5: "Country from an allowed
 * list"; the page and the server say 'Please choose a country from the list.' otherwise.
 */
export function countryInList(
  countries: readonly { code: string }[],
  country: string | null | undefined,
): boolean {
  const code = (country ?? '').trim().toUpperCase()
  return code !== '' && countries.some((c) => c.code === code)
}

/** UK postcode areas of the Highlands and Islands, and Northern Ireland's. */
const HIGHLANDS =
  /^(HS|ZE|KW|IV|PH(1[5-9]|[2-4]\d|50)|PA(2[0-9]|3[0-9]|4[0-9]|6\d|7\d|80)|KA27|KA28|TR2[1-5]|PO3\d|PO4[01]|IM|GY|JE)/
const NORTHERN_IRELAND = /^BT/
const EUROPE = new Set(['IE', 'FR', 'DE', 'NL', 'BE', 'ES', 'IT', 'PT', 'DK', 'SE', 'AT', 'LU'])

/**
 * Which of a site's delivery zones an address falls in (basket §7 and checkout §7
 * `POST /checkout/update-delivery`: countryCode and regionCode, the postcode). Zones are the names
 * of the site's delivery rates; the rules here map a country and postcode onto them. Null: the
 * site does not deliver there. The page never sees zones: the server prices delivery with them
 * and sends the page the countries they serve (`deliveryCountries`).
 */
export function zoneFor(
  zones: readonly string[],
  countryCode: string,
  regionCode: string | null,
): string | null {
  const country = countryCode.trim().toUpperCase()
  const postcode = (regionCode ?? '').replace(/\s+/g, '').toUpperCase()
  const has = (z: string) => (zones.includes(z) ? z : null)
  if (country === 'GB') {
    if (NORTHERN_IRELAND.test(postcode)) return has('Northern Ireland')
    if (HIGHLANDS.test(postcode)) return has('Highlands and Islands')
    return has('UK Mainland')
  }
  if (EUROPE.has(country)) return has('Ireland and Europe')
  if (country === 'US') {
    // Alaska (995-999) and Hawaii (967-968) are outside the contiguous states.
    if (/^(99[5-9]|96[78])/.test(postcode)) return null
    return has('Contiguous US')
  }
  if (country === 'CA') return has('Canada')
  return null
}

/**
 * The countries of a site's list that it delivers to: those one of its delivery rates' zones
 * serves (checkout §5 "Country from an allowed list"; the page's country select shows these).
 */
export function deliveryCountries<C extends { code: string }>(
  countries: readonly C[],
  zones: readonly string[],
): C[] {
  return countries.filter((c) => zoneFor(zones, c.code, null) !== null)
}

// --- Basket limits ------------------------------------------------------------------------

/** The most of one line. Basket §5: "Quantity: at most 9999". */
export const MAX_QUANTITY = 9999
/** The most lines one add or update request may carry. */
export const MAX_LINES_PER_REQUEST = 100
/** The largest basket total taken online, minor units (£/$10 million: well inside 32-bit totals). */
export const MAX_BASKET_TOTAL_MINOR = 1_000_000_000

// --- Promotional codes ----------------------------------------------------------------------

/** Checkout §5: "Promo code: blank ignored; max 50 characters." */
export const PROMO_CODE_MAX = 50
/**
 * Promotional codes a basket may hold at once: one (basket §7, the apply call sends "a list of
 * one code"; ADR 0120). The list a request sends is the basket's whole set of codes, so applying
 * a code while another is applied replaces it, and a list naming more than one is refused.
 */
export const MAX_PROMOTION_CODES = 1

/** A code as the basket keeps it: trimmed and upper case (codes match case-insensitively). */
export function normalisePromotionCode(code: string): string {
  return code.trim().toUpperCase()
}

/** The distinct codes of a list, normalised, blanks dropped (checkout §5), first mention first. */
export function distinctPromotionCodes(codes: readonly string[]): string[] {
  const out: string[] = []
  for (const entered of codes) {
    const code = normalisePromotionCode(entered)
    if (code && !out.includes(code)) out.push(code)
  }
  return out
}

/** Whether a list names more codes than a basket may hold. */
export function tooManyPromotionCodes(codes: readonly string[]): boolean {
  return distinctPromotionCodes(codes).length > MAX_PROMOTION_CODES
}

/**
 * The codes of a stored basket that count: at most MAX_PROMOTION_CODES, the earliest applied.
 * A basket row written before the limit may hold several; only these are ever priced.
 */
export function promotionCodesInForce(stored: readonly string[] | null | undefined): string[] {
  return distinctPromotionCodes(stored ?? []).slice(0, MAX_PROMOTION_CODES)
}
