import { describe, expect, it } from 'vitest'
import { colourWord, localeOfCurrency } from './spelling.ts'

describe('spelling by site', () => {
  it("says 'Color' on a US site and 'Colour' on a UK site", () => {
    expect(colourWord('en-US')).toBe('Color')
    expect(colourWord('en-US', true)).toBe('Colors')
    expect(colourWord('en-GB')).toBe('Colour')
    expect(colourWord('en-GB', true)).toBe('Colours')
    expect(colourWord(undefined)).toBe('Colour')
  })

  it('takes a USD site for a US one', () => {
    expect(localeOfCurrency('USD')).toBe('en-US')
    expect(localeOfCurrency('GBP')).toBe('en-GB')
  })
})
