import { describe, expect, it } from 'vitest'
import { VAT_RELIEF_TEXT, vatReliefProblem } from './vat-relief.ts'

const line = (over: Partial<Parameters<typeof vatReliefProblem>[1][number]> = {}) => ({
  eligible: true,
  kind: null,
  quantity: 1,
  isFreeGift: false,
  ...over,
})

describe('whether VAT relief can apply to a basket', () => {
  it('never applies on a site that charges no VAT', () => {
    expect(vatReliefProblem(0, [line()])).toEqual({ field: 'vatRelief', message: VAT_RELIEF_TEXT.noVat })
  })

  it('needs an eligible line that is not a free gift', () => {
    expect(vatReliefProblem(20, [line({ eligible: false }), line({ isFreeGift: true })])?.message).toBe(
      VAT_RELIEF_TEXT.nothingEligible,
    )
    expect(vatReliefProblem(20, [line({ eligible: false }), line()])).toBeNull()
  })

  it('counts each limited kind over all its lines: 200 pads, 50 washable pads, 10 pairs of underwear', () => {
    expect(
      vatReliefProblem(20, [line({ kind: 'pads', quantity: 150 }), line({ kind: 'pads', quantity: 50 })]),
    ).toBeNull()
    expect(
      vatReliefProblem(20, [line({ kind: 'pads', quantity: 150 }), line({ kind: 'pads', quantity: 51 })])
        ?.message,
    ).toBe('VAT relief covers at most 200 pads in one order.')
    expect(vatReliefProblem(20, [line({ kind: 'washable_pads', quantity: 51 })])?.message).toBe(
      'VAT relief covers at most 50 washable pads in one order.',
    )
    expect(vatReliefProblem(20, [line({ kind: 'underwear', quantity: 10 })])).toBeNull()
    expect(vatReliefProblem(20, [line({ quantity: 5000 })])).toBeNull()
  })
})
