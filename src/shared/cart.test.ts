import { describe, expect, it } from 'vitest'
import {
  CART_TEXT,
  distinctPromotionCodes,
  MAX_PROMOTION_CODES,
  promotionCodesInForce,
  splitEmails,
  tooManyPromotionCodes,
  validateSave,
  validateShare,
} from './cart.ts'
import { addSchema, fieldErrors, promoCodeSchema, saveSchema, shareSchema } from './cart.schemas.ts'

describe('share form rules', () => {
  it('accepts letters, spaces, apostrophes and hyphens in the name and several e-mails', () => {
    expect(validateShare({ name: "Mary O'Neil-Smith", emails: 'a@example.com, b@example.org' })).toEqual({})
    expect(
      shareSchema.safeParse({ name: "Mary O'Neil-Smith", emails: 'a@example.com, b@example.org' }).success,
    ).toBe(true)
  })

  it.each([
    [{ name: 'Bob1', emails: 'a@example.com' }, 'name'],
    [{ name: '', emails: 'a@example.com' }, 'name'],
    [{ name: 'Bob', emails: 'a@example.com, nope' }, 'emails'],
    [{ name: 'Bob', emails: ' , ' }, 'emails'],
    [{ name: 'Bob', emails: Array.from({ length: 11 }, (_, i) => `p${i}@example.com`).join(',') }, 'emails'],
  ])('refuses %o in the browser and on the server alike', (form, field) => {
    expect(Object.keys(validateShare(form))).toEqual([field])
    const result = shareSchema.safeParse(form)
    expect(result.success).toBe(false)
    if (!result.success) expect(Object.keys(fieldErrors(result.error))).toEqual([field])
  })

  it('splits e-mails on commas and drops blanks', () => {
    expect(splitEmails(' a@x.com,,b@y.com , ')).toEqual(['a@x.com', 'b@y.com'])
  })
})

describe('save form rules', () => {
  it('allows digits in a basket name but no other symbols', () => {
    expect(validateSave({ basketName: "Site 2 - Bob's" })).toEqual({})
    expect(validateSave({ basketName: 'Site #2' })).toEqual({
      basketName: ['The basket name may contain only letters, digits, spaces, apostrophes and hyphens.'],
    })
    expect(saveSchema.safeParse({ basketName: 'Site #2' }).success).toBe(false)
    expect(validateSave({ basketName: '  ' })).toEqual({ basketName: ['Enter a name for the basket.'] })
  })
})

describe('request schemas', () => {
  it('refuses a promotional code over 50 characters with the spec’s message', () => {
    expect(promoCodeSchema.safeParse('X'.repeat(50)).success).toBe(true)
    const long = promoCodeSchema.safeParse('X'.repeat(51))
    expect(long.success).toBe(false)
    if (!long.success)
      expect(long.error.issues[0]!.message).toBe('Promotional Code must be less than 50 characters')
  })

  it('drops fields it does not know, such as prices', () => {
    const parsed = addSchema.parse({ items: [{ listing_id: 1, quantity: 2, price: 1 }], total: 1 })
    expect(parsed).toEqual({ items: [{ listing_id: 1, quantity: 2 }] })
  })
})

describe('one promotional code per basket', () => {
  it('counts distinct codes case-insensitively, ignoring blanks', () => {
    expect(distinctPromotionCodes([' save10', 'SAVE10 ', '', '  ', 'tenoff'])).toEqual(['SAVE10', 'TENOFF'])
    expect(tooManyPromotionCodes(['save10', 'SAVE10', ' '])).toBe(false)
    expect(tooManyPromotionCodes(['SAVE10', 'TENOFF'])).toBe(true)
    expect(MAX_PROMOTION_CODES).toBe(1)
  })

  it('keeps only the earliest code of a stored list in force', () => {
    expect(promotionCodesInForce(['SAVE10', 'TENOFF', 'FREEDEL'])).toEqual(['SAVE10'])
    expect(promotionCodesInForce([])).toEqual([])
    expect(promotionCodesInForce(null)).toEqual([])
  })

  it('refuses more than one code in the request schema with the basket’s message', () => {
    const refused = addSchema.safeParse({ promotionCodes: ['SAVE10', 'TENOFF'] })
    expect(refused.success).toBe(false)
    if (!refused.success) {
      expect(fieldErrors(refused.error)).toEqual({ promotionCodes: [CART_TEXT.promoOnlyOne] })
    }
    expect(addSchema.safeParse({ promotionCodes: ['SAVE10', 'save10'] }).success).toBe(true)
    expect(addSchema.safeParse({ promotionCodes: Array.from({ length: 11 }, () => '') }).success).toBe(false)
  })
})
