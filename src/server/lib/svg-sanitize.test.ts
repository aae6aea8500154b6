import { describe, expect, it } from 'vitest'
import { XSS_VECTORS } from '../../../tests/fixtures/xss-vectors.ts'
import { SIGN_LAYOUTS, SIGN_TYPES, type SignDesign } from '../../shared/sign/design.ts'
import { renderSign } from '../../shared/sign/render.ts'
import { SIGN_SYMBOLS } from '../../shared/sign/symbols.ts'
import { sanitizeLogoSvg, sanitizeSignSvg } from './svg-sanitize.ts'

const DANGER = /<script|<foreignObject|<iframe|<image|<use|<a[\s>]|<style|\son\w+=|javascript:|href=/i

describe('the sign sanitiser', () => {
  it('leaves every sign the renderer draws exactly as drawn', () => {
    for (const type of SIGN_TYPES)
      for (const layout of SIGN_LAYOUTS)
        for (const [i, symbol] of SIGN_SYMBOLS.entries()) {
          const design: SignDesign = {
            type,
            layout,
            orientation: i % 2 ? 'portrait' : 'landscape',
            symbol: layout === 'text-only' ? null : symbol.id,
            lines: [`Line <${i}> & "quotes" 'too'`, '£5 – 20°'],
          }
          const size = i % 2 ? { width: 200, height: 300 } : { width: 300, height: 200 }
          const { svg } = renderSign(design, size, { numberLabel: i % 3 ? `No. ${i}` : undefined })
          expect(sanitizeSignSvg(svg)).toBe(svg)
        }
  })

  it('strips scripts, handlers, links and foreign content from an SVG', () => {
    const hostile =
      '<svg xmlns="http://www.w3.org/2000/svg" onload="xss()"><script>xss()</script><a href="javascript:xss()"><rect width="1" height="1" /></a><foreignObject><iframe src="x"></iframe></foreignObject><image href="http://x/y.png" /></svg>'
    const clean = sanitizeSignSvg(hostile)
    expect(clean).not.toMatch(DANGER)
    expect(clean).toContain('<rect width="1" height="1" />')
  })
})

describe('the logo sanitiser', () => {
  it('keeps drawing elements and gradients referenced inside the file', () => {
    const svg =
      '<svg viewBox="0 0 10 10"><defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs><rect width="10" height="10" fill="url(#g)"/><text x="1" y="5">ACME</text></svg>'
    const clean = sanitizeLogoSvg(svg)!
    expect(clean).toContain('fill="url(#g)"')
    expect(clean).toContain('<text x="1" y="5">ACME</text>')
    expect(clean).toContain('xmlns="http://www.w3.org/2000/svg"')
  })

  it('drops paint that points outside the file and every script vector', () => {
    for (const vector of XSS_VECTORS) {
      const clean = sanitizeLogoSvg(`<svg viewBox="0 0 10 10"><rect width="1" height="1"/>${vector}</svg>`)
      expect(clean, vector).not.toMatch(DANGER)
    }
    expect(sanitizeLogoSvg('<svg><rect fill="url(http://evil/x)" width="1"/></svg>')).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" /></svg>',
    )
  })

  it('refuses a file that is not an SVG drawing', () => {
    expect(sanitizeLogoSvg('<html><body><p>hello</p></body></html>')).toBeNull()
    expect(sanitizeLogoSvg('<svg><script>xss()</script></svg>')).toBeNull()
    expect(sanitizeLogoSvg('not markup at all')).toBeNull()
  })
})
