/**
 * Demo images drawn at seed time: SVG signs and product cards, and a few raster "photos"
 * (JPEG/PNG through sharp) so the resizing image service has something to resize. Every file is
 * a pure function of its description, so re-seeding writes byte-identical files.
 */
import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { threadId } from 'node:worker_threads'
import sharp from 'sharp'
import { hashString } from './prng.ts'
import type { ImageStyle } from './vocabulary.ts'
import { escapeHtml as escapeXml } from '../../../../shared/safe-html.ts'

/** A file to write under the media root ('var/media'). */
export interface MediaFile {
  /** Relative to the media root: 'catalog/harbour/fire-exit-sign-1.svg' */
  path: string
  /** Identifies the content: equal keys mean equal bytes */
  key: string
  render(): Buffer | Promise<Buffer>
}

const PALETTE = ['#12355b', '#1f6f43', '#8c2f39', '#5b3a8c', '#0f6e7a', '#b4531a', '#374151', '#7a5c12']
const FONT = 'Arial, Helvetica, sans-serif'

export { escapeHtml as escapeXml } from '../../../../shared/safe-html.ts'

/** Breaks text into at most `maxLines` lines of about `width` characters. */
export function wrapText(text: string, width: number, maxLines: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && (line + ' ' + word).length > width) {
      lines.push(line)
      line = word
    } else {
      line = line ? `${line} ${word}` : word
    }
  }
  if (line) lines.push(line)
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines)
    kept[maxLines - 1] = `${kept[maxLines - 1]}…`
    return kept
  }
  return lines
}

function textBlock(lines: string[], y: number, size: number, fill: string, weight = 700): string {
  return lines
    .map(
      (line, i) =>
        `<text x="300" y="${y + i * size * 1.2}" font-family="${FONT}" font-size="${size}" font-weight="${weight}" fill="${fill}" text-anchor="middle">${escapeXml(line)}</text>`,
    )
    .join('')
}

/** The sign itself, drawn in a 600x600 box. */
function signBody(style: ImageStyle, text: string): string {
  const short = text.replace(/ Sign\b.*$/, '').replace(/\s*–.*$/, '')
  // The variant decides what the sign shows: 'Text Only', 'Symbol Only', an arrow's direction.
  const variant = /–\s*(.*)$/.exec(text)?.[1] ?? ''
  const symbolOnly = /Symbol Only/.test(variant)
  const lines = symbolOnly ? [] : wrapText(short.toUpperCase(), 16, 3)
  const textOnly = /Text Only/.test(variant) && !/Running Man/.test(variant)
  const plain: Partial<Record<ImageStyle, [string, string]>> = {
    exit: ['#00843d', '#fff'],
    fire: ['#d52b1e', '#fff'],
    safe: ['#00843d', '#fff'],
    prohibition: ['#d52b1e', '#fff'],
    warning: ['#ffd100', '#111'],
    mandatory: ['#005eb8', '#fff'],
  }
  const colours = plain[style]
  if (textOnly && colours) {
    const big = wrapText(short.toUpperCase(), 14, 4)
    return (
      `<rect x="20" y="100" width="560" height="400" rx="24" fill="${colours[0]}"/>` +
      textBlock(big, 300 - (big.length - 1) * 30 + 18, 50, colours[1], 800)
    )
  }
  switch (style) {
    case 'exit': {
      const direction = /Arrow (Left|Right|Up|Down)/.exec(variant)?.[1]
      const man = !direction || /Running Man/.test(variant)
      const left = direction === 'Left'
      const turn = { Left: 180, Right: 0, Up: -90, Down: 90 }[direction ?? 'Right'] ?? 0
      const arrowX = man ? 0 : -120
      return (
        `<rect x="20" y="100" width="560" height="400" rx="24" fill="#00843d"/>` +
        (man
          ? `<g transform="${left ? 'translate(600 0) scale(-1 1)' : ''}">` +
            `<circle cx="160" cy="180" r="26" fill="#fff"/>` +
            `<path d="M150 215 L120 300 L80 330 M150 215 L200 280 L240 300 M140 260 L110 380 M140 260 L190 330 L180 390" stroke="#fff" stroke-width="20" stroke-linecap="round" fill="none"/></g>`
          : '') +
        (direction
          ? `<g transform="translate(${left && man ? -240 : arrowX} ${turn % 180 ? -24 : 0}) rotate(${turn} 420 270)"><path d="M340 240 h120 v-40 l80 70 l-80 70 v-40 h-120 z" fill="#fff"/></g>`
          : '') +
        textBlock(lines, 430, 38, '#fff')
      )
    }
    case 'fire':
      return (
        `<rect x="20" y="100" width="560" height="400" rx="24" fill="#d52b1e"/>` +
        `<path d="M300 150 C340 200 370 230 360 280 C355 320 330 340 300 340 C270 340 245 320 240 285 C235 250 260 230 270 200 C280 230 290 240 300 240 C295 210 290 180 300 150 Z" fill="#fff"/>` +
        textBlock(lines, 400, 38, '#fff')
      )
    case 'safe':
      return (
        `<rect x="20" y="100" width="560" height="400" rx="24" fill="#00843d"/>` +
        `<rect x="270" y="140" width="60" height="180" fill="#fff"/><rect x="210" y="200" width="180" height="60" fill="#fff"/>` +
        textBlock(lines, 400, 38, '#fff')
      )
    case 'prohibition':
      return (
        `<rect x="20" y="40" width="560" height="520" rx="16" fill="#fff" stroke="#222" stroke-width="6"/>` +
        `<circle cx="300" cy="220" r="140" fill="none" stroke="#d52b1e" stroke-width="34"/>` +
        `<line x1="201" y1="121" x2="399" y2="319" stroke="#d52b1e" stroke-width="34"/>` +
        textBlock(lines, 430, 40, '#111')
      )
    case 'warning':
      return (
        `<rect x="20" y="40" width="560" height="520" rx="16" fill="#fff" stroke="#222" stroke-width="6"/>` +
        `<path d="M300 80 L450 340 L150 340 Z" fill="#ffd100" stroke="#111" stroke-width="16" stroke-linejoin="round"/>` +
        `<rect x="288" y="170" width="24" height="100" rx="8" fill="#111"/><circle cx="300" cy="300" r="14" fill="#111"/>` +
        textBlock(lines, 420, 40, '#111')
      )
    case 'mandatory':
      return (
        `<rect x="20" y="40" width="560" height="520" rx="16" fill="#fff" stroke="#222" stroke-width="6"/>` +
        `<circle cx="300" cy="210" r="130" fill="#005eb8"/>` +
        `<rect x="284" y="130" width="32" height="110" rx="10" fill="#fff"/><circle cx="300" cy="280" r="18" fill="#fff"/>` +
        textBlock(lines, 420, 40, '#111')
      )
    case 'construction':
      return (
        `<rect x="20" y="60" width="560" height="480" fill="#ffd100" stroke="#111" stroke-width="14"/>` +
        textBlock(lines, 230, 56, '#111', 800)
      )
    case 'custom': {
      const colour = PALETTE[hashString(text) % PALETTE.length] as string
      return (
        `<rect x="20" y="100" width="560" height="400" rx="20" fill="${colour}"/>` +
        `<rect x="44" y="124" width="512" height="352" rx="12" fill="none" stroke="#fff" stroke-width="4" stroke-dasharray="14 10"/>` +
        textBlock(wrapText(text, 20, 3), 260, 40, '#fff')
      )
    }
    case 'photo': {
      const colour = PALETTE[hashString(text) % PALETTE.length] as string
      return (
        `<rect x="0" y="0" width="600" height="600" fill="#f3f4f6"/>` +
        `<g transform="translate(90 20) scale(4.2)">${silhouette(photoShape(text), colour)}</g>` +
        textBlock(wrapText(text, 24, 2), 510, 30, '#1f2933')
      )
    }
  }
}

/**
 * Image `view` of a product: 0 the product itself, 1 in place on a wall, 2 a size guide,
 * 3+ a close-up with a label.
 */
export function productSvg(style: ImageStyle, text: string, view = 0, label = ''): string {
  const body = signBody(style, text)
  let inner: string
  if (view === 0) inner = `<rect width="600" height="600" fill="#ffffff"/>${body}`
  else if (view === 1)
    inner =
      `<rect width="600" height="600" fill="#d9d4cc"/><rect y="470" width="600" height="130" fill="#b9b2a7"/>` +
      `<g transform="translate(140 90) scale(0.55)"><rect x="26" y="26" width="560" height="560" fill="#000" opacity="0.12"/>${body}</g>`
  else if (view === 2)
    inner =
      `<rect width="600" height="600" fill="#ffffff"/>` +
      `<g transform="translate(60 40) scale(0.8)">${body}</g>` +
      `<path d="M70 560 H530 M70 545 V575 M530 545 V575" stroke="#374151" stroke-width="4"/>` +
      `<text x="300" y="550" font-family="${FONT}" font-size="22" fill="#374151" text-anchor="middle">${escapeXml(label || 'Size guide')}</text>`
  else
    inner =
      `<rect width="600" height="600" fill="#eef2f7"/>` +
      `<g transform="translate(-150 -150) scale(1.5)">${body}</g>` +
      `<rect x="0" y="530" width="600" height="70" fill="#111827" opacity="0.8"/>` +
      `<text x="300" y="575" font-family="${FONT}" font-size="26" fill="#fff" text-anchor="middle">${escapeXml(label || `View ${view + 1}`)}</text>`
  return `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600" role="img" aria-label="${escapeXml(text)}">${inner}</svg>\n`
}

/** A video thumbnail: the product view with a play button. */
export function videoThumbnailSvg(style: ImageStyle, text: string): string {
  const body = signBody(style, text)
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600" role="img" aria-label="Video: ${escapeXml(text)}">` +
    `<rect width="600" height="600" fill="#111827"/><g opacity="0.55">${body}</g>` +
    `<circle cx="300" cy="300" r="70" fill="#ffffff" opacity="0.9"/><path d="M275 255 L350 300 L275 345 Z" fill="#111827"/>` +
    `</svg>\n`
  )
}

/** A category banner: the family's sign or product style with the category name. */
export function categorySvg(style: ImageStyle, name: string): string {
  return productSvg(style === 'photo' ? 'custom' : style, name, 0)
}

/**
 * The product a photo shows, from words in its name (the order matters: a 'Chair Pad' is a pad,
 * a 'Transport Chair' a wheelchair, a 'Bench Desk' a desk).
 */
const PHOTO_SHAPES: [RegExp, string][] = [
  [/Underpad|Bed Pad|Chair Pad/, 'underpad'],
  [/Pad\b|Liner|Guard/, 'pad'],
  [/Brief|Underwear/, 'brief'],
  [/Wipes/, 'wipes'],
  [/Cream/, 'cream'],
  [/Cleanser|Wash/, 'bottle'],
  [/Wheelchair|Transport Chair/, 'wheelchair'],
  [/Rollator/, 'rollator'],
  [/Walker/, 'walker'],
  [/Quad Cane/, 'quadcane'],
  [/Cane/, 'cane'],
  [/Grab Bar/, 'grabbar'],
  [/Toilet/, 'toilet'],
  [/Ramp/, 'ramp'],
  [/Shower Chair/, 'showerchair'],
  [/Stool/, 'stool'],
  [/Desk/, 'desk'],
  [/Bench/, 'bench'],
  [/Table/, 'table'],
  [/Locker/, 'locker'],
  [/Cabinet|Filer/, 'cabinet'],
  [/Cycle/, 'cycleshelter'],
  [/Canopy|Walkway/, 'canopy'],
  [/Shelter/, 'shelter'],
  [/Chair/, 'chair'],
]

export function photoShape(productName: string): string {
  return PHOTO_SHAPES.find(([pattern]) => pattern.test(productName))?.[1] ?? 'pack'
}

/** The product's silhouette in a 100x100 box: `c` its colour, `d` a darker shade for parts. */
function silhouette(shape: string, c: string, d = '#374151'): string {
  const wheel = (x: number, y: number, r: number) =>
    `<circle cx="${x}" cy="${y}" r="${r}" fill="none" stroke="${d}" stroke-width="${r > 8 ? 3 : 2.5}"/>`
  const pack = (inner: string) =>
    `<rect x="22" y="14" width="56" height="70" rx="6" fill="${c}"/><rect x="30" y="30" width="40" height="34" rx="4" fill="#fff" opacity="0.9"/>${inner}` +
    `<rect x="30" y="70" width="40" height="5" rx="2" fill="#fff" opacity="0.7"/>`
  switch (shape) {
    case 'chair':
      return (
        `<rect x="32" y="12" width="36" height="34" rx="5" fill="${c}"/><rect x="26" y="48" width="48" height="10" rx="4" fill="${c}"/>` +
        `<rect x="47" y="58" width="6" height="16" fill="${d}"/><rect x="28" y="74" width="44" height="4" rx="2" fill="${d}"/>` +
        `<circle cx="30" cy="81" r="3" fill="${d}"/><circle cx="50" cy="81" r="3" fill="${d}"/><circle cx="70" cy="81" r="3" fill="${d}"/>`
      )
    case 'showerchair':
      return (
        `<rect x="30" y="18" width="40" height="22" rx="4" fill="${c}"/><rect x="26" y="42" width="48" height="8" rx="3" fill="${c}"/>` +
        `<path d="M30 50 L26 84 M70 50 L74 84 M34 50 L36 84 M66 50 L64 84" stroke="${d}" stroke-width="3"/>` +
        `<rect x="30" y="66" width="40" height="3" fill="${d}"/>`
      )
    case 'stool':
      return (
        `<rect x="28" y="38" width="44" height="9" rx="4" fill="${c}"/>` +
        `<path d="M32 47 L28 84 M68 47 L72 84 M40 47 L40 84 M60 47 L60 84" stroke="${d}" stroke-width="3"/><rect x="30" y="68" width="40" height="3" fill="${d}"/>`
      )
    case 'table':
      return `<rect x="10" y="40" width="80" height="7" rx="2" fill="${c}"/><rect x="14" y="47" width="5" height="36" fill="${d}"/><rect x="81" y="47" width="5" height="36" fill="${d}"/>`
    case 'desk':
      return (
        `<rect x="8" y="34" width="84" height="6" rx="2" fill="${c}"/><rect x="14" y="40" width="6" height="42" fill="${d}"/><rect x="80" y="40" width="6" height="42" fill="${d}"/>` +
        `<rect x="20" y="42" width="60" height="14" fill="${c}" opacity="0.55"/><rect x="10" y="82" width="14" height="3" fill="${d}"/><rect x="76" y="82" width="14" height="3" fill="${d}"/>`
      )
    case 'bench':
      return (
        `<rect x="12" y="32" width="76" height="6" rx="2" fill="${c}"/><rect x="4" y="56" width="92" height="5" rx="2" fill="${c}"/>` +
        `<path d="M24 38 L14 84 M76 38 L86 84 M24 38 L34 84 M76 38 L66 84" stroke="${d}" stroke-width="3"/>`
      )
    case 'locker':
      return (
        `<rect x="24" y="8" width="52" height="78" rx="2" fill="${c}"/><line x1="50" y1="8" x2="50" y2="86" stroke="${d}" stroke-width="1.5"/>` +
        `<line x1="24" y1="47" x2="76" y2="47" stroke="${d}" stroke-width="1.5"/>` +
        [14, 53]
          .map(
            (y) =>
              `<rect x="30" y="${y}" width="14" height="2" fill="${d}"/><rect x="56" y="${y}" width="14" height="2" fill="${d}"/>`,
          )
          .join('') +
        `<circle cx="45" cy="30" r="1.6" fill="#fff"/><circle cx="55" cy="30" r="1.6" fill="#fff"/><circle cx="45" cy="68" r="1.6" fill="#fff"/><circle cx="55" cy="68" r="1.6" fill="#fff"/>`
      )
    case 'cabinet':
      return (
        `<rect x="28" y="12" width="44" height="72" rx="2" fill="${c}"/>` +
        [16, 39, 62]
          .map(
            (y) =>
              `<rect x="32" y="${y}" width="36" height="19" rx="1" fill="#fff" opacity="0.25"/><rect x="44" y="${y + 4}" width="12" height="3" rx="1" fill="${d}"/>`,
          )
          .join('')
      )
    case 'shelter':
    case 'cycleshelter':
      return (
        `<rect x="6" y="16" width="88" height="8" rx="2" fill="${c}"/><rect x="10" y="24" width="4" height="60" fill="${d}"/><rect x="86" y="24" width="4" height="60" fill="${d}"/>` +
        `<rect x="14" y="28" width="72" height="40" fill="${c}" opacity="0.25"/>` +
        (shape === 'cycleshelter'
          ? wheel(28, 74, 8) +
            wheel(46, 74, 8) +
            `<path d="M28 74 L36 64 L46 74 M36 64 L42 64" stroke="${d}" stroke-width="2" fill="none"/>` +
            wheel(58, 74, 8) +
            wheel(76, 74, 8) +
            `<path d="M58 74 L66 64 L76 74 M66 64 L72 64" stroke="${d}" stroke-width="2" fill="none"/>`
          : `<rect x="22" y="62" width="56" height="5" fill="${d}"/>`)
      )
    case 'canopy':
      return (
        `<path d="M4 34 Q50 4 96 34 L96 39 Q50 10 4 39 Z" fill="${c}"/>` +
        `<rect x="12" y="32" width="4" height="52" fill="${d}"/><rect x="84" y="32" width="4" height="52" fill="${d}"/><rect x="48" y="20" width="4" height="64" fill="${d}" opacity="0.5"/>`
      )
    case 'cane':
    case 'quadcane':
      return (
        `<path d="M38 22 Q38 10 49 10 Q58 10 58 20 L58 78" stroke="${c}" stroke-width="6" fill="none" stroke-linecap="round"/>` +
        (shape === 'quadcane'
          ? `<rect x="44" y="76" width="28" height="5" rx="2" fill="${d}"/><path d="M46 81 L44 86 M70 81 L72 86 M54 81 L53 86 M62 81 L63 86" stroke="${d}" stroke-width="3"/>`
          : `<rect x="55" y="78" width="6" height="6" rx="1" fill="${d}"/>`)
      )
    case 'walker':
      return (
        `<path d="M30 22 L26 84 M70 22 L74 84 M30 22 L70 22 M28 52 L72 52" stroke="${c}" stroke-width="5" fill="none" stroke-linecap="round"/>` +
        `<rect x="22" y="20" width="12" height="6" rx="2" fill="${d}"/><rect x="66" y="20" width="12" height="6" rx="2" fill="${d}"/>`
      )
    case 'rollator':
      return (
        `<path d="M32 18 L26 76 M70 18 L76 76 M28 48 L74 48" stroke="${c}" stroke-width="5" fill="none" stroke-linecap="round"/>` +
        `<rect x="30" y="44" width="42" height="7" rx="2" fill="${d}"/><rect x="26" y="16" width="12" height="5" rx="2" fill="${d}"/><rect x="64" y="16" width="12" height="5" rx="2" fill="${d}"/>` +
        wheel(26, 80, 6) +
        wheel(76, 80, 6)
      )
    case 'wheelchair':
      return (
        wheel(46, 62, 22) +
        `<rect x="32" y="16" width="6" height="36" rx="2" fill="${c}"/><rect x="34" y="46" width="38" height="7" rx="2" fill="${c}"/>` +
        `<path d="M70 53 L78 74 M32 16 L24 16" stroke="${d}" stroke-width="3"/>` +
        wheel(79, 79, 5)
      )
    case 'grabbar':
      return (
        `<rect x="10" y="20" width="80" height="60" fill="#e5e7eb"/><rect x="16" y="46" width="68" height="8" rx="4" fill="${c}"/>` +
        `<circle cx="18" cy="50" r="7" fill="${d}"/><circle cx="82" cy="50" r="7" fill="${d}"/>`
      )
    case 'toilet':
      return (
        `<rect x="34" y="14" width="32" height="22" rx="3" fill="#f9fafb" stroke="#9ca3af"/><path d="M30 40 H70 Q70 66 56 70 L58 84 H42 L44 70 Q30 66 30 40 Z" fill="#f9fafb" stroke="#9ca3af"/>` +
        `<rect x="26" y="36" width="48" height="8" rx="4" fill="${c}"/><path d="M20 44 V84 M80 44 V84 M20 44 H30 M70 44 H80" stroke="${d}" stroke-width="3" fill="none"/>`
      )
    case 'ramp':
      return (
        `<path d="M6 82 L94 82 L94 58 Z" fill="${c}"/>` +
        [30, 48, 66, 84]
          .map(
            (x) =>
              `<line x1="${x}" y1="82" x2="${x}" y2="${82 - (x - 6) * 0.27}" stroke="#fff" stroke-width="1.5" opacity="0.6"/>`,
          )
          .join('')
      )
    case 'brief':
      return pack(`<path d="M36 36 H64 L60 54 Q50 60 40 54 Z" fill="${c}" opacity="0.8"/>`)
    case 'pad':
      return pack(`<ellipse cx="50" cy="47" rx="9" ry="14" fill="${c}" opacity="0.8"/>`)
    case 'underpad':
      return (
        `<rect x="16" y="22" width="68" height="58" rx="4" fill="${c}"/>` +
        [34, 50, 66]
          .map(
            (x) => `<line x1="${x}" y1="22" x2="${x}" y2="80" stroke="#fff" stroke-width="1" opacity="0.5"/>`,
          )
          .join('') +
        [38, 51, 64]
          .map(
            (y) => `<line x1="16" y1="${y}" x2="84" y2="${y}" stroke="#fff" stroke-width="1" opacity="0.5"/>`,
          )
          .join('')
      )
    case 'wipes':
      return `<rect x="12" y="36" width="76" height="36" rx="12" fill="${c}"/><ellipse cx="50" cy="50" rx="18" ry="7" fill="#fff" opacity="0.85"/>`
    case 'cream':
      return `<path d="M36 20 H64 L60 74 H40 Z" fill="${c}"/><rect x="43" y="74" width="14" height="10" rx="2" fill="${d}"/><rect x="40" y="36" width="20" height="14" rx="2" fill="#fff" opacity="0.85"/>`
    case 'bottle':
      return `<rect x="34" y="30" width="32" height="54" rx="6" fill="${c}"/><rect x="44" y="18" width="12" height="12" fill="${c}"/><rect x="42" y="12" width="16" height="7" rx="2" fill="${d}"/><rect x="38" y="46" width="24" height="18" rx="2" fill="#fff" opacity="0.85"/>`
    default:
      return pack('')
  }
}

export interface PhotoSpec {
  /** One of the silhouettes (`photoShape`) */
  shape: string
  colour: string
  format: 'jpeg' | 'png'
  size: number
}

/** A studio "photo": light backdrop, floor shadow and the product's silhouette, rasterised. */
export async function renderPhoto(spec: PhotoSpec): Promise<Buffer> {
  const { size } = spec
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100">` +
    `<defs><linearGradient id="b" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f6f6fa"/><stop offset="1" stop-color="#d8d8dc"/></linearGradient></defs>` +
    `<rect width="100" height="100" fill="url(#b)"/><ellipse cx="50" cy="87" rx="38" ry="3" fill="#c8c8cc"/>` +
    silhouette(spec.shape, spec.colour) +
    `</svg>`
  const image = sharp(Buffer.from(svg), { density: 72 }).flatten({ background: '#ffffff' })
  return spec.format === 'png'
    ? image.png({ compressionLevel: 6 }).toBuffer()
    : image.jpeg({ quality: 80, mozjpeg: false }).toBuffer()
}

let tmpCounter = 0

async function writeAtomic(target: string, data: Buffer | string): Promise<void> {
  const tmp = `${target}.${process.pid}-${threadId}-${++tmpCounter}.tmp`
  await writeFile(tmp, data)
  await rename(tmp, target)
}

interface Manifest {
  hash: string
  sizes: Record<string, number>
}

/**
 * Writes the files under `root`, skipping the work when a manifest from an identical earlier run
 * says they are in place (sizes are checked, so a deleted file is written again). Safe when
 * several processes seed at once: every file is written to a temporary name and renamed.
 */
export async function writeMediaFiles(
  root: string,
  manifestName: string,
  files: MediaFile[],
): Promise<{ written: number; total: number }> {
  const hash = createHash('sha256')
  for (const file of files) hash.update(`${file.path}\0${file.key}\n`)
  const digest = hash.digest('hex')
  const manifestPath = join(root, `.seed-${manifestName}.json`)
  const manifest = await readFile(manifestPath, 'utf8')
    .then((text) => JSON.parse(text) as Manifest)
    .catch(() => null)

  let todo = files
  if (manifest?.hash === digest) {
    const sizes = manifest.sizes
    const checks = await Promise.all(
      files.map((file) =>
        stat(join(root, file.path)).then(
          (s) => s.size === sizes[file.path],
          () => false,
        ),
      ),
    )
    todo = files.filter((_, i) => !checks[i])
    if (todo.length === 0) return { written: 0, total: files.length }
  }

  const dirs = new Set(todo.map((f) => dirname(join(root, f.path))))
  await Promise.all([...dirs].map((d) => mkdir(d, { recursive: true })))
  const sizes: Record<string, number> = { ...(manifest?.hash === digest ? manifest.sizes : {}) }
  const queue = [...todo]
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const data = await file.render()
      await writeAtomic(join(root, file.path), data)
      sizes[file.path] = data.length
    }
  }
  await Promise.all(Array.from({ length: 8 }, worker))
  await mkdir(root, { recursive: true })
  await writeAtomic(manifestPath, JSON.stringify({ hash: digest, sizes } satisfies Manifest))
  return { written: todo.length, total: files.length }
}
