import { describe, expect, it } from 'vitest'
import { taxWording, UK_VAT } from './tax.ts'

describe('taxWording', () => {
  it("uses the spec's words on a 20% VAT site", () => {
    const w = taxWording(UK_VAT)
    expect(w.note).toBe('Prices exclude VAT at 20%')
    expect(w.toggle).toBe('Show prices including VAT at 20%')
    expect(w.subtotal).toBe('Subtotal (ex VAT)')
    expect(w.exSuffix).toBe(' (ex VAT)')
    expect(w.line).toBe('VAT')
  })

  it('says nothing about tax on a site that charges none', () => {
    const w = taxWording({ name: 'Sales tax', rate: 0, pricesIncludeTax: false })
    expect(w).toMatchObject({ charged: false, note: '', toggle: '', exSuffix: '', subtotal: 'Subtotal' })
  })

  it("follows the site's tax name, rate and display", () => {
    const w = taxWording({ name: 'GST', rate: 12.5, pricesIncludeTax: true })
    expect(w.note).toBe('Prices include GST at 12.5%')
    expect(w.subtotal).toBe('Subtotal (ex GST)')
  })
})
