/**
 * Advance widths of the bold sans-serif the signs are set in, in thousandths of an em. The
 * figures are Helvetica Bold's published metrics (Adobe's Core 14 AFM file, as shipped with
 * pdfkit); Liberation Sans Bold and Arial Bold share them, so a width measured here is the width
 * the browser, librsvg (the PDF proof) and the printer draw. The browser and the server measure
 * with this one table, so both fit text the same way without a canvas.
 */

/** Widths of the characters 32 (space) to 126 (~). */
const ASCII = [
  278, 333, 474, 556, 556, 889, 722, 278, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556,
  556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611, 975, 722, 722, 722, 722, 667, 611, 778, 722, 278,
  556, 722, 611, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584,
  556, 278, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611, 611, 611, 389, 556,
  333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
] as const

/** The few characters past ASCII a sign may use: £ ° É é – ’ */
const EXTRA: Readonly<Record<number, number>> = {
  0xa3: 556,
  0xb0: 400,
  0xc9: 667,
  0xe9: 556,
  0x2013: 556,
  0x2019: 278,
}

/** Whether the sign font has this character (and so a sign may use it). */
export function hasGlyph(char: string): boolean {
  const code = char.codePointAt(0) ?? 0
  return (code >= 32 && code <= 126) || code in EXTRA
}

/** Width of `text` in ems (1 = the font size). Unknown characters count as a wide letter. */
export function textWidthEm(text: string): number {
  let total = 0
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0
    const w = code >= 32 && code <= 126 ? ASCII[code - 32]! : (EXTRA[code] ?? 778)
    total += w
  }
  return total / 1000
}
