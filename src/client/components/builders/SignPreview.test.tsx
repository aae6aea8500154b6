import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { sanitizeSignSvg } from '../../../server/lib/svg-sanitize.ts'
import type { SignDesign, SignSize } from '../../../shared/sign/design.ts'
import { renderSign } from '../../../shared/sign/render.ts'
import { SignPreview } from './SignPreview.tsx'

const designs: [SignDesign, SignSize, string?][] = [
  [
    {
      type: 'safe',
      layout: 'symbol-text',
      orientation: 'landscape',
      symbol: 'first-aid',
      lines: ['First aid'],
    },
    { width: 300, height: 200 },
  ],
  [
    {
      type: 'prohibition',
      layout: 'symbol-text',
      orientation: 'portrait',
      symbol: 'cigarette',
      lines: ['No smoking', 'on site'],
    },
    { width: 200, height: 300 },
  ],
  [
    {
      type: 'warning',
      layout: 'symbol-text',
      orientation: 'landscape',
      symbol: 'electricity',
      lines: ['Danger', '', '415 volts'],
    },
    { width: 600, height: 400 },
  ],
  [
    {
      type: 'mandatory',
      layout: 'symbol-text',
      orientation: 'portrait',
      symbol: 'hard-hat',
      lines: ['Hard hats <must> be worn'],
    },
    { width: 300, height: 400 },
  ],
  [
    {
      type: 'fire',
      layout: 'symbol-text',
      orientation: 'landscape',
      symbol: 'fire-alarm',
      lines: ['Fire alarm', 'call point'],
    },
    { width: 200, height: 150 },
    'FP07',
  ],
  [
    {
      type: 'safe',
      layout: 'text-only',
      orientation: 'landscape',
      symbol: null,
      lines: ['Assembly point', "Staff & visitors' cars"],
    },
    { width: 400, height: 300 },
    'Bay 012',
  ],
]

/** The SVG inside the preview's data: URL. */
function shownSvg(html: string): string {
  const src = /src="([^"]+)"/
    .exec(html)![1]!
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
  return decodeURIComponent(src.replace(/^data:image\/svg\+xml;charset=utf-8,/, ''))
}

describe('the designer preview', () => {
  it('shows exactly the SVG the server stores for printing, for every design', () => {
    for (const [design, size, number] of designs) {
      const html = renderToStaticMarkup(<SignPreview design={design} size={size} numberLabel={number} />)
      const server = sanitizeSignSvg(renderSign(design, size, { numberLabel: number }).svg)
      expect(shownSvg(html)).toBe(server)
    }
  })

  it('describes the sign for screen readers by what it reads', () => {
    const [design, size] = designs[1]!
    const html = renderToStaticMarkup(<SignPreview design={design} size={size} />)
    expect(html).toContain('alt="Preview of your sign, which reads: No smoking / on site"')
  })
})
