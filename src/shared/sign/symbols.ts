/**
 * The shop's symbol library: simplified pictograms in the style of ISO 7010, drawn for this
 * project (not the registered ISO artwork; see docs/decisions/0035). Each is drawn in a 100 × 100
 * box in one colour: filled shapes (`fill`, even-odd) and round-capped strokes (`stroke`). The
 * renderer scales and colours them by the sign type (black on prohibition and warning signs, white
 * on mandatory, safe condition and fire equipment signs).
 */

export interface SymbolPart {
  /** SVG path data in the 100 × 100 box */
  d: string
  /** Drawn as a line of this width instead of filled */
  stroke?: number
}

export interface SignSymbol {
  id: string
  name: string
  parts: SymbolPart[]
}

/** A rounded rectangle as path data. */
function rect(x: number, y: number, w: number, h: number, r = 0): string {
  if (r <= 0) return `M${x} ${y}h${w}v${h}h${-w}z`
  return (
    `M${x + r} ${y}h${w - 2 * r}a${r} ${r} 0 0 1 ${r} ${r}v${h - 2 * r}a${r} ${r} 0 0 1 ${-r} ${r}` +
    `h${-(w - 2 * r)}a${r} ${r} 0 0 1 ${-r} ${-r}v${-(h - 2 * r)}a${r} ${r} 0 0 1 ${r} ${-r}z`
  )
}

/** A circle as path data. */
function circle(cx: number, cy: number, r: number): string {
  return `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0z`
}

export const SIGN_SYMBOLS: readonly SignSymbol[] = [
  {
    id: 'exclamation',
    name: 'Exclamation mark (general)',
    parts: [{ d: `M43 10h14l-2 56h-10z${circle(50, 80, 8)}` }],
  },
  {
    id: 'flame',
    name: 'Flame (flammable, no naked flames)',
    parts: [
      {
        d: 'M50 6c6 18 26 28 26 52a26 26 0 0 1-52 0c0-14 8-22 12-32c4 10 4 16 10 20c4-14-2-26 4-40z',
      },
    ],
  },
  {
    id: 'electricity',
    name: 'Lightning flash (electricity)',
    parts: [{ d: 'M60 4 24 56h22l-10 40 40-56H54z' }],
  },
  {
    id: 'person',
    name: 'Person (pedestrians, no access)',
    parts: [{ d: circle(50, 14, 10) }, { d: 'M36 28h28l8 34h-9l-5-20v54H52V66h-4v30H42V42l-5 20h-9z' }],
  },
  {
    id: 'cigarette',
    name: 'Cigarette (smoking)',
    parts: [
      { d: `${rect(8, 58, 62, 14)}${rect(72, 58, 14, 14)}` },
      { d: 'M80 50c-7-8 7-12 0-20s7-12 0-20', stroke: 5 },
    ],
  },
  {
    id: 'eye-protection',
    name: 'Goggles (wear eye protection)',
    parts: [{ d: `${rect(4, 44, 92, 8, 4)}${rect(14, 32, 32, 30, 10)}${rect(54, 32, 32, 30, 10)}` }],
  },
  {
    id: 'hard-hat',
    name: 'Hard hat (wear head protection)',
    parts: [{ d: `M20 64a30 30 0 0 1 60 0z${rect(10, 64, 80, 10, 5)}` }],
  },
  {
    id: 'first-aid',
    name: 'Cross (first aid)',
    parts: [{ d: 'M38 10h24v28h28v24H62v28H38V62H10V38h28z' }],
  },
  {
    id: 'fire-extinguisher',
    name: 'Fire extinguisher',
    parts: [
      { d: `${rect(34, 34, 32, 60, 10)}${rect(42, 20, 16, 16, 3)}${rect(26, 16, 26, 6, 3)}` },
      { d: 'M58 26h14l10 18', stroke: 6 },
    ],
  },
  {
    id: 'fire-alarm',
    name: 'Fire alarm call point',
    parts: [{ d: `${rect(12, 12, 76, 76, 8)}${rect(24, 24, 52, 52, 4)}${circle(50, 50, 14)}` }],
  },
  {
    id: 'arrow-right',
    name: 'Arrow (direction)',
    parts: [{ d: 'M10 40h46V18l36 32-36 32V60H10z' }],
  },
  {
    id: 'running-person',
    name: 'Running person (escape route)',
    parts: [
      { d: circle(64, 14, 9) },
      { d: 'M58 30 46 60M28 40l16-10 14 10 14-2M46 60l16 14-4 20M46 60 34 78H18', stroke: 10 },
    ],
  },
]

const BY_ID = new Map(SIGN_SYMBOLS.map((s) => [s.id, s]))

export function findSymbol(id: string | null | undefined): SignSymbol | null {
  return id ? (BY_ID.get(id) ?? null) : null
}
