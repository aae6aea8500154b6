import { describe, expect, it } from 'vitest'
import { checkDesign, checkSequence, sequenceLabels, SIGN_TEXT, type SignDesign } from './design.ts'
import { textWidthEm } from './metrics.ts'
import { fitErrors, fitText, geometry, renderSign, SAFETY_COLOURS } from './render.ts'

const base: SignDesign = {
  type: 'warning',
  layout: 'symbol-text',
  orientation: 'landscape',
  symbol: 'flame',
  lines: ['Highly flammable'],
}
const size = { width: 300, height: 200 }

describe('the sign renderer', () => {
  it('draws each type in its ISO 3864 colours and shape', () => {
    expect(renderSign({ ...base, type: 'warning' }, size).svg).toMatch(
      /<polygon[^>]*fill="#F9A800"[^>]*stroke="#000000"/,
    )
    const prohibition = renderSign({ ...base, type: 'prohibition' }, size).svg
    expect(prohibition).toContain(`stroke="${SAFETY_COLOURS.red}"`)
    expect(prohibition).toMatch(/<line /)
    expect(renderSign({ ...base, type: 'mandatory' }, size).svg).toMatch(/<circle[^>]*fill="#154889"/)
    expect(renderSign({ ...base, type: 'safe' }, size).svg).toMatch(/<rect[^>]*fill="#237F52"/)
    expect(renderSign({ ...base, type: 'fire' }, size).svg).toMatch(/<rect[^>]*fill="#CC0605"/)
  })

  it('is deterministic: the same design gives the same text', () => {
    expect(renderSign(base, size).svg).toBe(renderSign(structuredClone(base), { ...size }).svg)
  })

  it('puts the symbol beside the text in landscape and above it in portrait', () => {
    const landscape = geometry(base, size)
    expect(landscape.symbol!.x + landscape.symbol!.w).toBeLessThan(landscape.panel.x)
    const portrait = geometry({ ...base, orientation: 'portrait' }, { width: 200, height: 300 })
    expect(portrait.symbol!.y + portrait.symbol!.h).toBeLessThan(portrait.panel.y)
    expect(geometry({ ...base, layout: 'text-only', symbol: null }, size).symbol).toBeNull()
  })

  it('fits text: smaller for more or longer lines, and never wider than the panel', () => {
    const { panel } = geometry(base, size)
    const one = fitText(['Exit'], panel, size)!
    const two = fitText(['Exit', 'Exit'], panel, size)!
    const long = fitText(['Keep this door closed'], panel, size)!
    expect(two).toBeLessThan(one)
    expect(long).toBeLessThan(one)
    expect(textWidthEm('Keep this door closed') * long).toBeLessThanOrEqual(panel.w)
  })

  it('refuses text too long to fit at a legible size', () => {
    expect(fitErrors({ ...base, lines: ['A'.repeat(40)] }, { width: 200, height: 150 })).toEqual({
      lines: [SIGN_TEXT.tooLongToFit],
    })
    expect(fitErrors(base, size)).toEqual({})
    expect(renderSign({ ...base, lines: ['A'.repeat(40)] }, { width: 200, height: 150 }).fontSize).toBeNull()
  })
})

describe('design rules', () => {
  it('need text, a known symbol and at most four lines of known characters', () => {
    expect(checkDesign({ ...base, lines: [' '] }).lines).toEqual([SIGN_TEXT.emptyText])
    expect(checkDesign({ ...base, symbol: 'nope' }).symbol).toEqual([SIGN_TEXT.unknownSymbol])
    expect(checkDesign({ ...base, lines: ['a', 'b', 'c', 'd', 'e'] }).lines).toEqual([SIGN_TEXT.tooManyLines])
    expect(checkDesign({ ...base, lines: ['emoji 🔥'] })['lines.0']).toEqual([SIGN_TEXT.badCharacters])
    expect(checkDesign(base)).toEqual({})
  })

  it('number a set with prefix, suffix and zero padding', () => {
    expect(sequenceLabels({ start: 8, end: 11, prefix: 'Bay ', suffix: 'A', pad: 3 })).toEqual([
      'Bay 008A',
      'Bay 009A',
      'Bay 010A',
      'Bay 011A',
    ])
    expect(checkSequence({ start: 3, end: 3, prefix: '', suffix: '', pad: 0 })['sequence.end']).toEqual([
      SIGN_TEXT.sequenceRange,
    ])
    expect(checkSequence({ start: 1, end: 300, prefix: '', suffix: '', pad: 0 })['sequence.end']).toEqual([
      SIGN_TEXT.sequenceTooLong,
    ])
  })
})
