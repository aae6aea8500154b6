/**
 * The one sign renderer: design data + size → SVG text. The designer's live preview and the
 * server (the printable file stored with the basket line, the basket thumbnail and the PDF proof)
 * both call it, so the file printed is the drawing the customer saw. Pure and deterministic: no
 * DOM, no canvas, no clock; numbers are rounded to 0.01 mm so both sides print them alike.
 */
import { textWidthEm } from './metrics.ts'
import { findSymbol, type SignSymbol } from './symbols.ts'
import { SIGN_TEXT, type SignDesign, type SignErrors, type SignSize, type SignType } from './design.ts'
import { escapeText } from '../safe-html.ts'

/** Colours by ISO 3864-4 (close to the RAL colours sign makers print: 3020, 1003, 5005, 6032). */
export const SAFETY_COLOURS = {
  red: '#CC0605',
  yellow: '#F9A800',
  blue: '#154889',
  green: '#237F52',
  black: '#000000',
  white: '#FFFFFF',
} as const

interface TypeStyle {
  /** The colour of the text panel */
  panel: string
  /** Text on the panel */
  text: string
  /** The pictogram */
  symbol: string
}

export const TYPE_STYLES: Readonly<Record<SignType, TypeStyle>> = {
  prohibition: { panel: SAFETY_COLOURS.red, text: SAFETY_COLOURS.white, symbol: SAFETY_COLOURS.black },
  warning: { panel: SAFETY_COLOURS.yellow, text: SAFETY_COLOURS.black, symbol: SAFETY_COLOURS.black },
  mandatory: { panel: SAFETY_COLOURS.blue, text: SAFETY_COLOURS.white, symbol: SAFETY_COLOURS.white },
  safe: { panel: SAFETY_COLOURS.green, text: SAFETY_COLOURS.white, symbol: SAFETY_COLOURS.white },
  fire: { panel: SAFETY_COLOURS.red, text: SAFETY_COLOURS.white, symbol: SAFETY_COLOURS.white },
}

export const SIGN_FONT = "'Liberation Sans', Arial, Helvetica, sans-serif"
/** Line height as a multiple of the font size */
const LEADING = 1.2
/**
 * Text is never set smaller than this share of the sign's shorter side (legibility: a bigger sign
 * is read from further away). 3 % lets the longest wording the designer promises (four lines of
 * 40 characters, in capitals, plus a set's number) fit every size in the grid: 4.5 mm on a
 * 150 mm side, 12 mm on a 400 mm side.
 */
export const MIN_TEXT_SHARE = 0.03

/** Rounds to 0.01 and prints without trailing zeros: the same text on every platform. */
function n(value: number): string {
  return String(Math.round(value * 100) / 100)
}

interface Box {
  x: number
  y: number
  w: number
  h: number
}

interface Geometry {
  margin: number
  symbol: Box | null
  panel: Box
}

/** Where the symbol and the text panel go on a sign of this size. */
export function geometry(design: SignDesign, size: SignSize): Geometry {
  const { width: W, height: H } = size
  const m = Math.min(W, H) * 0.04
  if (design.layout === 'text-only')
    return { margin: m, symbol: null, panel: { x: m, y: m, w: W - 2 * m, h: H - 2 * m } }
  if (design.orientation === 'landscape') {
    const s = Math.min(H - 2 * m, W * 0.4)
    const symbol = { x: m, y: (H - s) / 2, w: s, h: s }
    const px = m + s + m
    return { margin: m, symbol, panel: { x: px, y: m, w: W - px - m, h: H - 2 * m } }
  }
  const s = Math.min(W - 2 * m, H * 0.55)
  const symbol = { x: (W - s) / 2, y: m, w: s, h: s }
  const py = m + s + m
  return { margin: m, symbol, panel: { x: m, y: py, w: W - 2 * m, h: H - py - m } }
}

/** The text lines as set: blank lines at the ends dropped, the number (if any) last. */
export function setLines(design: SignDesign, numberLabel?: string): string[] {
  const lines = design.lines.map((l) => l.replace(/\s+/g, ' ').trim())
  while (lines.length && !lines[0]) lines.shift()
  while (lines.length && !lines[lines.length - 1]) lines.pop()
  if (numberLabel !== undefined && numberLabel.trim()) lines.push(numberLabel.trim())
  return lines
}

/** The font size (mm) below which text is not set: this share of the sign's shorter side. */
export function minimumFontSize(size: SignSize): number {
  return Math.min(size.width, size.height) * MIN_TEXT_SHARE
}

/** Text set in a panel: the rows drawn (the customer's lines wrapped at spaces) and their size. */
export interface FittedText {
  /** Font size in mm */
  fontSize: number
  /** The rows as drawn, top to bottom; an empty row is a kept blank line */
  rows: string[]
}

/** Share of the panel's width and height the text may use (the rest is its inner margin). */
const WIDTH_SHARE = 0.88
const HEIGHT_SHARE = 0.86
/** One row is never taller than this share of the panel (a one-word sign is not a wall of ink). */
const ONE_ROW_SHARE = 0.4

/**
 * Wraps one line at spaces into rows no wider than `maxEm`, filling each row before starting the
 * next. Null when a single word is wider than that (words are never split).
 */
function wrapLine(line: string, maxEm: number): string[] | null {
  const words = line.split(' ').filter(Boolean)
  if (words.length === 0) return ['']
  const rows: string[] = []
  let row = ''
  for (const word of words) {
    if (textWidthEm(word) > maxEm) return null
    const longer = row ? `${row} ${word}` : word
    if (!row || textWidthEm(longer) <= maxEm) row = longer
    else {
      rows.push(row)
      row = word
    }
  }
  rows.push(row)
  return rows
}

/** The rows of `lines` at font size `fontSize` if they fit the panel, else null. */
function rowsAt(lines: string[], panel: Box, fontSize: number): string[] | null {
  const maxEm = (panel.w * WIDTH_SHARE) / fontSize
  const rows: string[] = []
  for (const line of lines) {
    const wrapped = wrapLine(line, maxEm)
    if (!wrapped) return null
    rows.push(...wrapped)
  }
  return rows.length * LEADING * fontSize <= panel.h * HEIGHT_SHARE ? rows : null
}

/** The largest font size the given rows allow in the panel. */
function sizeForRows(rows: string[], panel: Box): number {
  const widest = Math.max(...rows.map(textWidthEm))
  const byHeight = Math.min((panel.h * HEIGHT_SHARE) / (rows.length * LEADING), panel.h * ONE_ROW_SHARE)
  return widest > 0 ? Math.min(byHeight, (panel.w * WIDTH_SHARE) / widest) : byHeight
}

/**
 * Sets `lines` in the panel as large as they go: each line is wrapped at spaces onto as many rows
 * as the largest fitting size needs (the widest row leaves a 6 % side margin, the block 7 % above
 * and below), never larger than 40 % of the panel's height for one row. Null when even the
 * legible minimum (minimumFontSize) does not fit: a word wider than the panel, or too many rows.
 * Fitting only gets easier as the size shrinks, so a bisection finds the largest size; the rows
 * found there are then set as large as they allow.
 */
export function fitText(lines: string[], panel: Box, size: SignSize): FittedText | null {
  if (lines.length === 0) return null
  const minimum = minimumFontSize(size)
  if (!rowsAt(lines, panel, minimum)) return null
  let low = minimum
  let high = Math.max(minimum, panel.h * ONE_ROW_SHARE)
  for (let i = 0; i < 40 && high - low > 0.001; i++) {
    const middle = (low + high) / 2
    if (rowsAt(lines, panel, middle)) low = middle
    else high = middle
  }
  const rows = rowsAt(lines, panel, low)!
  return { fontSize: Math.max(low, sizeForRows(rows, panel)), rows }
}

/** The rows drawn when the text does not fit: wrapped for the legible minimum, overflowing. */
function overflowRows(lines: string[], panel: Box, size: SignSize): string[] {
  const maxEm = (panel.w * WIDTH_SHARE) / minimumFontSize(size)
  return lines.flatMap((line) => wrapLine(line, maxEm) ?? [line])
}

/** Errors of a design on a size that its own rules allow: the text must fit. */
export function fitErrors(design: SignDesign, size: SignSize, numberLabels: string[] = []): SignErrors {
  const { panel } = geometry(design, size)
  const labels = numberLabels.length ? numberLabels : [undefined]
  for (const label of labels) {
    if (fitText(setLines(design, label), panel, size) === null) return { lines: [SIGN_TEXT.tooLongToFit] }
  }
  return {}
}

function drawPictogram(symbol: SignSymbol, box: Box, scale: number, colour: string, dy = 0): string {
  const size = box.w * scale
  const x = box.x + (box.w - size) / 2
  const y = box.y + (box.h - size) / 2 + dy
  const k = size / 100
  const parts = symbol.parts
    .map((p) =>
      p.stroke
        ? `<path d="${p.d}" fill="none" stroke="${colour}" stroke-width="${p.stroke}" stroke-linecap="round" stroke-linejoin="round" />`
        : `<path d="${p.d}" fill="${colour}" fill-rule="evenodd" />`,
    )
    .join('')
  return `<g transform="translate(${n(x)} ${n(y)}) scale(${String(Math.round(k * 10000) / 10000)})">${parts}</g>`
}

/** The safety sign shape of a type with its pictogram, in a square box. */
function drawSymbol(type: SignType, symbol: SignSymbol, box: Box): string {
  const cx = box.x + box.w / 2
  const cy = box.y + box.h / 2
  const s = box.w
  const style = TYPE_STYLES[type]
  switch (type) {
    case 'prohibition': {
      // A red ring and a 45° bar, 10 % of the diameter wide, over a black pictogram on white.
      const r = s * 0.48
      const t = s * 0.096
      const ri = r - t / 2
      const dx = ri * Math.SQRT1_2
      return (
        `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="${SAFETY_COLOURS.white}" />` +
        drawPictogram(symbol, box, 0.56, style.symbol) +
        `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(ri)}" fill="none" stroke="${SAFETY_COLOURS.red}" stroke-width="${n(t)}" />` +
        `<line x1="${n(cx - dx)}" y1="${n(cy - dx)}" x2="${n(cx + dx)}" y2="${n(cy + dx)}" stroke="${SAFETY_COLOURS.red}" stroke-width="${n(t)}" />`
      )
    }
    case 'warning': {
      // A yellow equilateral triangle, point up, with a black border and a black pictogram.
      const side = s * 0.98
      const h = (side * Math.sqrt(3)) / 2
      const top = cy - h / 2
      const b = s * 0.06
      const pts = `${n(cx)},${n(top + b)} ${n(cx + side / 2 - b)},${n(top + h - b / 2)} ${n(cx - side / 2 + b)},${n(top + h - b / 2)}`
      return (
        `<polygon points="${pts}" fill="${SAFETY_COLOURS.yellow}" stroke="${SAFETY_COLOURS.black}" stroke-width="${n(b)}" stroke-linejoin="round" />` +
        drawPictogram(symbol, box, 0.44, style.symbol, h * 0.1)
      )
    }
    case 'mandatory':
      return (
        `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(s * 0.48)}" fill="${SAFETY_COLOURS.blue}" />` +
        drawPictogram(symbol, box, 0.6, style.symbol)
      )
    case 'safe':
    case 'fire':
      return (
        `<rect x="${n(box.x)}" y="${n(box.y)}" width="${n(s)}" height="${n(s)}" rx="${n(s * 0.06)}" fill="${style.panel}" />` +
        drawPictogram(symbol, box, 0.74, style.symbol)
      )
  }
}

export interface RenderOptions {
  /** The number of a numbered set, set as the last line */
  numberLabel?: string
  /** Display width in CSS pixels (a small preview); default: the physical size in mm */
  displayWidth?: number
}

export interface RenderedSign {
  svg: string
  /** The font size used (mm), or null when the text does not fit */
  fontSize: number | null
}

/**
 * Draws a sign. Text that does not fit is still drawn at the legible minimum (the preview shows
 * the overflow) and `fontSize` is null; the server refuses such a design (see fitErrors).
 */
export function renderSign(design: SignDesign, size: SignSize, options: RenderOptions = {}): RenderedSign {
  const { width: W, height: H } = size
  const g = geometry(design, size)
  const style = TYPE_STYLES[design.type] ?? TYPE_STYLES.safe
  const lines = setLines(design, options.numberLabel)
  const fitted = fitText(lines, g.panel, size)
  const fontSize = fitted?.fontSize ?? minimumFontSize(size)
  const rows = fitted?.rows ?? overflowRows(lines, g.panel, size)
  const reads = lines.join(' ')
  const dims =
    options.displayWidth !== undefined
      ? `width="${n(options.displayWidth)}" height="${n((options.displayWidth * H) / W)}"`
      : `width="${n(W)}mm" height="${n(H)}mm"`
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${n(W)} ${n(H)}" ${dims} role="img">`,
    `<title>${escapeText(reads || 'Sign')}</title>`,
    `<rect x="0" y="0" width="${n(W)}" height="${n(H)}" rx="${n(g.margin)}" fill="${SAFETY_COLOURS.white}" stroke="#9CA3AF" stroke-width="${n(Math.min(W, H) * 0.004)}" />`,
  ]
  const symbol = findSymbol(design.symbol)
  if (g.symbol && symbol) out.push(drawSymbol(design.type, symbol, g.symbol))
  const p = g.panel
  out.push(
    `<rect x="${n(p.x)}" y="${n(p.y)}" width="${n(p.w)}" height="${n(p.h)}" rx="${n(g.margin * 0.6)}" fill="${style.panel}" />`,
  )
  if (rows.length) {
    const lineHeight = fontSize * LEADING
    const block = lineHeight * (rows.length - 1)
    // Baselines: the block centred on the panel, each line's cap height (≈0.72 em) centred on its row.
    const first = p.y + p.h / 2 - block / 2 + fontSize * 0.36
    out.push(
      `<g font-family="${SIGN_FONT}" font-weight="700" font-size="${n(fontSize)}" fill="${style.text}" text-anchor="middle">`,
    )
    rows.forEach((row, i) => {
      if (row)
        out.push(`<text x="${n(p.x + p.w / 2)}" y="${n(first + i * lineHeight)}">${escapeText(row)}</text>`)
    })
    out.push('</g>')
  }
  out.push('</svg>')
  return { svg: out.join(''), fontSize: fitted?.fontSize ?? null }
}

/** The SVG as a data: URL for an <img> (no markup is ever put into the page itself). */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`
}

/** One symbol in a type's shape and colours, alone (the designer's symbol picker). */
export function renderSymbol(type: SignType, symbolId: string, displaySize = 48): string {
  const symbol = findSymbol(symbolId)
  const body = symbol ? drawSymbol(type, symbol, { x: 2, y: 2, w: 96, h: 96 }) : ''
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="${displaySize}" height="${displaySize}" role="img">${body}</svg>`
}
