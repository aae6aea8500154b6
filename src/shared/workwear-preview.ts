/**
 * The workwear preview: the garment's outline in the chosen colour, seen from the front and, when
 * a logo goes on the back, from the back beside it, with the logo at each chosen position on the
 * view it is printed on and the text under the logo it goes with. A vest is drawn without
 * sleeves (and with its reflective bands when it is hi-vis). Drawn by the builder in the browser
 * and by the server for the basket line, from the same data. The logo is embedded as a data: URL
 * so the SVG stays one self-contained image.
 */
import type { WorkwearColour } from './workwear.ts'
import { escapeHtml as escapeText } from './safe-html.ts'

export type GarmentShape = 'sleeved' | 'vest'

/** A sleeveless garment by its name (vest, gilet, tabard, bodywarmer); anything else has sleeves. */
export function garmentShape(name: string | null | undefined): GarmentShape {
  return /\b(vest|gilet|tabard|body ?warmer)s?\b/i.test(name ?? '') ? 'vest' : 'sleeved'
}

/** Outlines on a 240 × 240 view: [front, back]. The front has the collar or V-neck. */
const OUTLINES: Record<GarmentShape, [string, string]> = {
  sleeved: [
    'M70 20 L100 10 Q120 30 140 10 L170 20 L215 60 L195 95 L175 82 L175 230 L65 230 L65 82 L45 95 L25 60 Z',
    'M70 20 L100 10 Q120 18 140 10 L170 20 L215 60 L195 95 L175 82 L175 230 L65 230 L65 82 L45 95 L25 60 Z',
  ],
  vest: [
    'M72 18 L100 12 L120 70 L140 12 L168 18 Q170 72 180 92 L180 230 L60 230 L60 92 Q70 72 72 18 Z',
    'M72 18 L100 12 Q120 20 140 12 L168 18 Q170 72 180 92 L180 230 L60 230 L60 92 Q70 72 72 18 Z',
  ],
}

/** The view each position is printed on. */
const VIEW_OF: Record<string, 'front' | 'back'> = {
  'left-chest': 'front',
  'right-chest': 'front',
  back: 'back',
  sleeve: 'front',
}

/** Logo boxes (x, y, size) on a 240 × 240 view, by garment shape. */
const SPOTS: Record<GarmentShape, Record<string, [number, number, number]>> = {
  sleeved: {
    'left-chest': [135, 55, 28],
    'right-chest': [77, 55, 28],
    back: [95, 95, 50],
    sleeve: [183, 48, 18],
  },
  vest: {
    'left-chest': [135, 55, 28],
    'right-chest': [77, 55, 28],
    back: [95, 95, 50],
    // No sleeve: the logo goes high on the wearer's left shoulder strap.
    sleeve: [146, 22, 18],
  },
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
  /** The garment's name: a vest is drawn without sleeves */
  garment?: string | null
  positions: readonly string[]
  text: string
  /** data: URL of the logo, or null */
  logo: string | null
  /** Height in CSS pixels; the width is this for each view shown */
  displaySize?: number
}): string {
  const fill = input.colour?.hex ?? '#D1D5DB'
  const size = input.displaySize ?? 240
  const shape = garmentShape(input.garment)
  const hasBack = input.positions.includes('back')
  const views: ('front' | 'back')[] = hasBack ? ['front', 'back'] : ['front']
  const ink = inkOn(fill)
  const hiVis = shape === 'vest' && /hi-?vis/i.test(`${input.garment ?? ''} ${input.colour?.name ?? ''}`)
  const name = input.garment ? `${input.garment} preview` : 'Garment preview'
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${240 * views.length} 240" width="${size * views.length}" height="${size}" role="img">`,
    `<title>${escapeText(`${name}${input.colour ? `, ${input.colour.name}` : ''}${hasBack ? ', front and back' : ''}`)}</title>`,
  ]
  views.forEach((view, i) => {
    out.push(`<g transform="translate(${240 * i} 0)" data-view="${view}">`)
    out.push(
      `<path d="${OUTLINES[shape][view === 'front' ? 0 : 1]}" fill="${fill}" stroke="#374151" stroke-width="2" stroke-linejoin="round" />`,
    )
    if (hiVis) {
      for (const y of [150, 185])
        out.push(
          `<rect x="61" y="${y}" width="118" height="10" fill="#C8CCD0" stroke="#6B7280" stroke-width="1" />`,
        )
    }
    if (views.length > 1) {
      out.push(
        `<text x="120" y="236" font-family="'Liberation Sans', Arial, sans-serif" font-size="9" text-anchor="middle" fill="#374151">${view === 'front' ? 'Front' : 'Back'}</text>`,
      )
    }
    for (const id of input.positions) {
      const spot = SPOTS[shape][id]
      if (!spot || (VIEW_OF[id] ?? 'front') !== view) continue
      const [x, y, s] = spot
      if (input.logo) {
        out.push(
          `<image href="${input.logo}" x="${x}" y="${y}" width="${s}" height="${s}" preserveAspectRatio="xMidYMid meet" />`,
        )
      } else {
        out.push(
          `<rect x="${x}" y="${y}" width="${s}" height="${s}" fill="none" stroke="${ink}" stroke-dasharray="3 2" />`,
        )
      }
    }
    // The text goes under the back logo when there is one, else under the chest logo.
    if (input.text.trim() && view === (hasBack ? 'back' : 'front')) {
      out.push(
        `<text x="120" y="${hasBack ? 165 : 110}" font-family="'Liberation Sans', Arial, sans-serif" font-weight="700" font-size="11" text-anchor="middle" fill="${ink}">${escapeText(input.text.trim())}</text>`,
      )
    }
    out.push('</g>')
  })
  out.push('</svg>')
  return out.join('')
}
