/**
 * The workwear preview: a garment outline in the chosen colour with the logo at each chosen
 * position and the text under the chest logo. Drawn by the builder in the browser and by the server
 * for the basket line, from the same data. The logo is embedded as a data: URL so the SVG stays
 * one self-contained image.
 */
import type { WorkwearColour } from './workwear.ts'
import { escapeHtml as escapeText } from './safe-html.ts'

const BODY =
  'M70 20 L100 10 Q120 30 140 10 L170 20 L215 60 L195 95 L175 82 L175 230 L65 230 L65 82 L45 95 L25 60 Z'

/** Logo boxes (x, y, size) on the 240 × 240 front/back view. */
const SPOTS: Record<string, [number, number, number]> = {
  'left-chest': [135, 55, 28],
  'right-chest': [77, 55, 28],
  back: [95, 95, 50],
  sleeve: [183, 48, 18],
}

/** Text colour that reads on the garment colour. */
function inkOn(hex: string): string {
  const v = /^#([0-9a-f]{6})$/i.exec(hex)?.[1]
  if (!v) return '#000000'
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(v.slice(i, i + 2), 16))
  return 0.299 * r! + 0.587 * g! + 0.114 * b! > 150 ? '#111111' : '#FFFFFF'
}

export function renderWorkwearPreview(input: {
  colour: WorkwearColour | null
  positions: readonly string[]
  text: string
  /** data: URL of the logo, or null */
  logo: string | null
  displaySize?: number
}): string {
  const fill = input.colour?.hex ?? '#D1D5DB'
  const size = input.displaySize ?? 240
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 240" width="${size}" height="${size}" role="img">`,
    `<title>${escapeText(`Garment preview${input.colour ? `, ${input.colour.name}` : ''}`)}</title>`,
    `<path d="${BODY}" fill="${fill}" stroke="#374151" stroke-width="2" stroke-linejoin="round" />`,
  ]
  for (const id of input.positions) {
    const spot = SPOTS[id]
    if (!spot) continue
    const [x, y, s] = spot
    if (input.logo) {
      out.push(
        `<image href="${input.logo}" x="${x}" y="${y}" width="${s}" height="${s}" preserveAspectRatio="xMidYMid meet" />`,
      )
    } else {
      out.push(
        `<rect x="${x}" y="${y}" width="${s}" height="${s}" fill="none" stroke="${inkOn(fill)}" stroke-dasharray="3 2" />`,
      )
    }
  }
  if (input.text.trim()) {
    out.push(
      `<text x="120" y="${input.positions.includes('back') ? 165 : 110}" font-family="'Liberation Sans', Arial, sans-serif" font-weight="700" font-size="11" text-anchor="middle" fill="${inkOn(fill)}">${escapeText(input.text.trim())}</text>`,
    )
  }
  out.push('</svg>')
  return out.join('')
}
