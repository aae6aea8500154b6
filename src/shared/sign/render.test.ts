import { describe, expect, it } from 'vitest'
import { SIGN_SIZES } from '../../server/db/seed/builders.ts'
import {
  checkDesign,
  checkSequence,
  MAX_LINE_CHARS,
  sequenceLabels,
  SIGN_TEXT,
  type SignDesign,
} from './design.ts'
import { textWidthEm } from './metrics.ts'
import {
  fitErrors,
  fitText,
  geometry,
  minimumFontSize,
  renderSign,
  SAFETY_COLOURS,
  setLines,
} from './render.ts'

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
    const one = fitText(['Exit'], panel, size)!.fontSize
    const two = fitText(['Exit', 'Exit'], panel, size)!.fontSize
    const long = fitText(['Keep this door closed'], panel, size)!
    expect(two).toBeLessThan(one)
    expect(long.fontSize).toBeLessThan(one)
    for (const row of long.rows) expect(textWidthEm(row) * long.fontSize).toBeLessThanOrEqual(panel.w)
  })

  it('wraps a long line at spaces onto rows rather than refusing it, keeping blank lines as gaps', () => {
    const { panel } = geometry(base, { width: 600, height: 400 })
    const fitted = fitText(['Forklift trucks operating'], panel, { width: 600, height: 400 })!
    expect(fitted.rows.length).toBeGreaterThan(1)
    expect(fitted.rows.join(' ')).toBe('Forklift trucks operating')
    expect(fitted.fontSize).toBeGreaterThan((panel.w * 0.88) / textWidthEm('Forklift trucks operating'))
    expect(fitText(['Exit', '', 'Here'], panel, { width: 600, height: 400 })!.rows).toEqual([
      'Exit',
      '',
      'Here',
    ])
  })

  it('draws the wrapped rows it fitted, so the preview shows what the server accepts', () => {
    const sign = renderSign({ ...base, lines: ['Forklift trucks operating'] }, { width: 600, height: 400 })
    expect(sign.fontSize).not.toBeNull()
    expect(sign.svg).toContain('>Forklift</text>')
    expect(sign.svg).toContain('>operating</text>')
    expect(sign.svg).not.toContain('Forklift trucks operating</text>')
  })

  it('refuses text too long to fit at a legible size', () => {
    expect(fitErrors({ ...base, lines: ['A'.repeat(40)] }, { width: 200, height: 150 })).toEqual({
      lines: [SIGN_TEXT.tooLongToFit],
    })
    expect(fitErrors(base, size)).toEqual({})
    expect(renderSign({ ...base, lines: ['A'.repeat(40)] }, { width: 200, height: 150 }).fontSize).toBeNull()
  })
})

/** Ordinary wording as long as the designer promises: four lines of 40 characters, capitals and not. */
const LONGEST_PROMISED = [
  [
    'FORKLIFT TRUCKS OPERATING IN THIS AREA!!',
    'PEDESTRIANS MUST USE THE MARKED WALKWAYS',
    'KEEP THE LOADING BAY CLEAR AT ALL TIMES!',
    'REPORT ALL ACCIDENTS TO YOUR SUPERVISOR.',
  ],
  [
    'Forklift trucks operating in this area!!',
    'Pedestrians must use the marked walkways',
    'Keep the loading bay clear at all times!',
    'Report all accidents to your supervisor.',
  ],
]

describe('fitting at every size of the grid', () => {
  const cases = SIGN_SIZES.flatMap(([width, height]) =>
    (['symbol-text', 'text-only'] as const).map((layout) => ({ width, height, layout })),
  )
  const orientationOf = (w: number, h: number) => (h > w ? 'portrait' : 'landscape')

  it.each(cases)(
    "fits 'Forklift trucks operating' on $width × $height mm ($layout), every row inside the panel",
    ({ width, height, layout }) => {
      const design: SignDesign = {
        ...base,
        layout,
        symbol: layout === 'text-only' ? null : base.symbol,
        orientation: orientationOf(width, height),
        lines: ['Forklift trucks operating'],
      }
      expect(fitErrors(design, { width, height })).toEqual({})
      const { panel } = geometry(design, { width, height })
      const fitted = fitText(setLines(design), panel, { width, height })!
      expect(fitted.rows.join(' ')).toBe('Forklift trucks operating')
      for (const row of fitted.rows) expect(textWidthEm(row) * fitted.fontSize).toBeLessThanOrEqual(panel.w)
    },
  )

  it.each(cases)(
    'fits the longest promised text (4 × 40 characters, and a set number) on $width × $height mm ($layout), inside the panel and no smaller than the legible minimum',
    ({ width, height, layout }) => {
      const size = { width, height }
      for (const lines of LONGEST_PROMISED) {
        const design: SignDesign = {
          ...base,
          layout,
          symbol: layout === 'text-only' ? null : base.symbol,
          orientation: orientationOf(width, height),
          lines,
        }
        for (const line of lines) expect(line).toHaveLength(MAX_LINE_CHARS)
        expect(checkDesign(design)).toEqual({})
        expect(fitErrors(design, size, ['Bay 00001'])).toEqual({})
        const { panel } = geometry(design, size)
        const fitted = fitText(setLines(design, 'Bay 00001'), panel, size)!
        expect(fitted.fontSize).toBeGreaterThanOrEqual(minimumFontSize(size))
        for (const row of fitted.rows) expect(textWidthEm(row) * fitted.fontSize).toBeLessThanOrEqual(panel.w)
        expect(fitted.rows.length * 1.2 * fitted.fontSize).toBeLessThanOrEqual(panel.h)
        // The preview draws exactly these rows at this size.
        const sign = renderSign(design, size, { numberLabel: 'Bay 00001' })
        expect(sign.fontSize).toBe(fitted.fontSize)
        expect(sign.svg.match(/<text /g)).toHaveLength(fitted.rows.filter(Boolean).length)
      }
    },
  )
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
