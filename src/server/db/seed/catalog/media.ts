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
  const lines = wrapText(short.toUpperCase(), 16, 3)
  switch (style) {
    case 'exit':
      return (
        `<rect x="20" y="100" width="560" height="400" rx="24" fill="#00843d"/>` +
        `<circle cx="160" cy="180" r="26" fill="#fff"/>` +
        `<path d="M150 215 L120 300 L80 330 M150 215 L200 280 L240 300 M140 260 L110 380 M140 260 L190 330 L180 390" stroke="#fff" stroke-width="20" stroke-linecap="round" fill="none"/>` +
        `<path d="M300 240 h160 v-40 l80 70 l-80 70 v-40 h-160 z" fill="#fff"/>` +
        textBlock(lines, 430, 38, '#fff')
      )
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
        `<ellipse cx="300" cy="430" rx="190" ry="26" fill="#d1d5db"/>` +
        `<rect x="170" y="150" width="260" height="260" rx="28" fill="${colour}"/>` +
        `<rect x="200" y="180" width="200" height="60" rx="12" fill="#ffffff" opacity="0.35"/>` +
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

function hexToRgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16)
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255]
}

/** Silhouettes for raster photos, as rectangles [x, y, w, h] in a 100x100 box. */
const SHAPES: Record<string, [number, number, number, number][]> = {
  chair: [
    [32, 12, 36, 34],
    [26, 48, 48, 10],
    [47, 58, 6, 18],
    [28, 76, 44, 5],
  ],
  desk: [
    [10, 38, 80, 8],
    [14, 46, 5, 36],
    [81, 46, 5, 36],
  ],
  cabinet: [
    [28, 14, 44, 70],
    [32, 20, 36, 18],
    [32, 42, 36, 18],
    [32, 64, 36, 16],
  ],
  shelter: [
    [8, 18, 84, 8],
    [12, 26, 4, 58],
    [84, 26, 4, 58],
    [16, 30, 68, 40],
  ],
  walker: [
    [30, 20, 6, 60],
    [64, 20, 6, 60],
    [30, 20, 40, 6],
    [30, 50, 40, 4],
  ],
  pack: [
    [24, 20, 52, 62],
    [30, 30, 40, 16],
  ],
}

export interface PhotoSpec {
  shape: keyof typeof SHAPES | string
  colour: string
  format: 'jpeg' | 'png'
  size: number
}

/** A flat-shaded "photo" drawn pixel by pixel: light backdrop, floor shadow, product silhouette. */
export async function renderPhoto(spec: PhotoSpec): Promise<Buffer> {
  const { size } = spec
  const pixels = Buffer.alloc(size * size * 3)
  const [r, g, b] = hexToRgb(spec.colour)
  for (let y = 0; y < size; y++) {
    const shade = Math.round(246 - (y / size) * 30)
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 3
      pixels[i] = shade
      pixels[i + 1] = shade
      pixels[i + 2] = shade + 4 > 255 ? 255 : shade + 4
    }
  }
  const fill = (x0: number, y0: number, w: number, h: number, c: [number, number, number]) => {
    const x1 = Math.min(size, Math.round(((x0 + w) * size) / 100))
    const y1 = Math.min(size, Math.round(((y0 + h) * size) / 100))
    for (let y = Math.round((y0 * size) / 100); y < y1; y++) {
      for (let x = Math.round((x0 * size) / 100); x < x1; x++) {
        const i = (y * size + x) * 3
        pixels[i] = c[0]
        pixels[i + 1] = c[1]
        pixels[i + 2] = c[2]
      }
    }
  }
  fill(16, 84, 68, 4, [200, 200, 204])
  const rects = SHAPES[spec.shape] ?? SHAPES.pack ?? []
  rects.forEach(([x, y, w, h], n) => {
    const k = n % 2 === 0 ? 1 : 0.8
    fill(x, y, w, h, [Math.round(r * k), Math.round(g * k), Math.round(b * k)])
  })
  const image = sharp(pixels, { raw: { width: size, height: size, channels: 3 } })
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
