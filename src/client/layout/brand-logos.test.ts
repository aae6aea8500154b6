import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

/** Relative luminance of #rrggbb (WCAG 2.2). */
function luminance(hex: string): number {
  const full = hex.length === 4 ? `#${[...hex.slice(1)].map((c) => c + c).join('')}` : hex
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(full.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi! + 0.05) / (lo! + 0.05)
}

/** The colour a logo's text sits on: its own full-size backdrop, or the page when it has none. */
function backdrop(svg: string, page: string): string {
  const width = /viewBox="0 0 (\d+) (\d+)"/.exec(svg)!
  const plate = new RegExp(
    `<rect width="${width[1]}" height="${width[2]}"[^>]*fill="(#[0-9a-f]{3,6})"`,
    'i',
  ).exec(svg)
  return plate ? plate[1]! : page
}

// The pages a logo appears on: its own site's header, the other brand's Order Complete page
// (sister-site logos, on Northgate's #fbfbf8 and Harbour's white) and the e-mails (white).
const BACKGROUNDS = ['#ffffff', '#fbfbf8']

describe('the brand logos', () => {
  it.each(['harbour', 'northgate'])("%s's wording reads on every page it is shown on (4.5:1)", (brand) => {
    const svg = readFileSync(`public/brands/${brand}.svg`, 'utf8')
    const fills = [...svg.matchAll(/<text[^>]*fill="(#[0-9a-f]{3,6})"/gi)].map((m) => m[1]!)
    expect(fills.length).toBeGreaterThan(0)
    for (const page of BACKGROUNDS) {
      for (const fill of fills) expect(contrast(fill, backdrop(svg, page))).toBeGreaterThanOrEqual(4.5)
    }
  })
})
