import { describe, expect, it } from 'vitest'
import { swatchGridHtml } from './product.placeholders.ts'

describe('swatchGridHtml', () => {
  const swatches = { Navy: { Hex: '#1F2A44' }, Red: { Hex: '#CC0605' } } as never

  it("labels the swatch list 'Colors' on a US site and 'Colours' on a UK one", () => {
    expect(String(swatchGridHtml(swatches, 'en-US'))).toContain('aria-label="Colors"')
    expect(String(swatchGridHtml(swatches, 'en-GB'))).toContain('aria-label="Colours"')
  })
})
