/**
 * zod request schemas of the basket calls (spec §5, §7), built on the rules in cart.ts. Used by
 * the server; the browser checks the share and save forms with the plain validators in cart.ts.
 */
import { vatReliefDeclarationSchema, type VatReliefDeclarationInput } from './vat-relief.ts'
import { text } from './text.ts'
import { z } from 'zod'
import {
  CART_TEXT,
  emailsValid,
  FORM_TEXT,
  MAX_LINES_PER_REQUEST,
  MAX_QUANTITY,
  PROMO_CODE_MAX,
  SAVE_NAME_PATTERN,
  SHARE_NAME_PATTERN,
  tooManyPromotionCodes,
} from './cart.ts'

const wholeQuantity = (min: number) =>
  z
    .number({ error: 'The quantity must be a number.' })
    .int('The quantity must be a whole number.')
    .min(min, min === 0 ? 'The quantity may not be negative.' : `The quantity must be at least ${min}.`)
    .max(MAX_QUANTITY, `The quantity may not be greater than ${MAX_QUANTITY}.`)

/** A path on this shop: one leading slash, then no slash or backslash, no backslash or space at all. */
const SIGN_PATH = /^\/(?![/\\])[^\s\\]*$/

const id = (what: string) =>
  z
    .number({ error: `The ${what} is not valid.` })
    .int(`The ${what} is not valid.`)
    .positive(`The ${what} is not valid.`)

export const promoCodeSchema = text({ error: 'The promotional code must be text.' }).max(
  PROMO_CODE_MAX,
  CART_TEXT.promoTooLong,
)

/**
 * The basket's codes (spec §7: a list of one code to apply, an empty list to remove). Blanks and
 * repeats of one code are ignored (§5); more than MAX_PROMOTION_CODES distinct codes is refused.
 * The array itself is capped so a list of blanks cannot be large either.
 */
export const promotionCodesSchema = z
  .array(promoCodeSchema)
  .max(10, CART_TEXT.promoOnlyOne)
  .refine((codes) => !tooManyPromotionCodes(codes), { message: CART_TEXT.promoOnlyOne })

export const addItemSchema = z.object({
  listing_id: id('product'),
  quantity: wholeQuantity(1),
  category_id: id('category').nullable().optional(),
  customisation: z.object({ options: z.array(id('option')).max(20, 'Too many options.') }).optional(),
  sequence_id: text()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[\w-]+$/, 'The sequence id is not valid.')
    .optional(),
  /**
   * The legacy helper's sign data. Its `url` is never stored or shown: the shop builds a line's
   * Edit link from its own routes (ADR 0121). One that is not a path on this shop ('//host',
   * '/\\host', backslashes, spaces) is refused as the hostile value it is.
   */
  printable_sign: z
    .object({
      url: text().max(500).regex(SIGN_PATH, 'The sign address is not valid.').optional(),
      printableSVG: text().max(200_000).optional(),
      webVersionOfSVG: text().max(200_000).optional(),
      signReads: text().max(500).optional(),
    })
    .optional(),
})

const addObjectSchema = z.object({
  items: z.array(addItemSchema).max(MAX_LINES_PER_REQUEST, 'Too many lines in one request.').default([]),
  promotionCodes: promotionCodesSchema.optional(),
})

/**
 * Entries of a price-grid add (spec §7 'Add from price grid': a list of entries, each with its
 * items) become one add of all their items. An entry without an items list is refused.
 */
export function flattenAddEntries(body: unknown): unknown {
  if (!Array.isArray(body)) return body
  return {
    items: body.flatMap((entry: unknown) =>
      entry && typeof entry === 'object' && Array.isArray((entry as { items?: unknown }).items)
        ? ((entry as { items: unknown[] }).items as unknown[])
        : [null],
    ),
  }
}

/** POST /cart/add: `{ items, promotionCodes }`, or a price grid's list of `{ items }` entries. */
export const addSchema = z.preprocess(flattenAddEntries, addObjectSchema)

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
  despatch_type: text().max(40).optional(),
  /** §7: the delivery rate chosen at step 3 (one of the basket's zone's rates) */
  shippingRateId: z
    .number({ error: 'This delivery option is not available.' })
    .int('This delivery option is not available.')
    .positive('This delivery option is not available.')
    .max(2_147_483_647, 'This delivery option is not available.')
    .optional(),
  shippingZone: text().max(60).optional(),
  ApplyVATRelief: z.boolean({ error: 'ApplyVATRelief must be true or false.' }).optional(),
  /** §7: DeliveryOption (despatch type), country and postcode (the delivery zone), vatRelief */
  DeliveryOption: text().max(40).optional(),
  country: text()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'Please choose a country from the list.')
    .transform((v) => v.toUpperCase())
    .optional(),
  postcode: text().trim().max(20).optional(),
  /** false withdraws the claim; a declaration claims relief (errors under vatRelief.name…) */
  vatRelief: z
    .unknown()
    .optional()
    .transform((v, ctx): VatReliefDeclarationInput | false | undefined => {
      if (v === undefined || v === false) return v
      const r = vatReliefDeclarationSchema.safeParse(v)
      if (r.success) return r.data
      for (const i of r.error.issues) ctx.addIssue({ code: 'custom', message: i.message, path: i.path })
      return z.NEVER
    }),
})

const EMAIL = z.email()

export const shareSchema = z.object({
  emails: text({ error: FORM_TEXT.emailsRequired })
    .trim()
    .min(1, FORM_TEXT.emailsRequired)
    .max(1000, 'Too many e-mail addresses.')
    .refine((value) => emailsValid(value, (e) => EMAIL.safeParse(e).success), {
      message: FORM_TEXT.emailsInvalid,
    }),
  name: text({ error: FORM_TEXT.shareNameRequired })
    .trim()
    .min(1, FORM_TEXT.shareNameRequired)
    .max(100, FORM_TEXT.shareNameTooLong)
    .regex(SHARE_NAME_PATTERN, FORM_TEXT.shareNameChars),
  cart_id: text().optional(),
})

export const saveSchema = z.object({
  basketName: text({ error: FORM_TEXT.saveNameRequired })
    .trim()
    .min(1, FORM_TEXT.saveNameRequired)
    .max(100, FORM_TEXT.saveNameTooLong)
    .regex(SAVE_NAME_PATTERN, FORM_TEXT.saveNameChars),
})

/** zod issues as field → messages (paths joined with dots: items.0.quantity). */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : 'form'
    ;(out[key] ??= []).push(issue.message)
  }
  return out
}
