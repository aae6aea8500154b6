/**
 * 'Design A Sign': what a customer designs (the design data the browser sends and the server
 * stores with the basket line), its rules and their messages. The server never takes a drawing
 * from the browser: it checks the design here and draws it with render.ts, the same code that
 * draws the live preview.
 */
import { hasGlyph } from './metrics.ts'
import { findSymbol } from './symbols.ts'

/** Sign types and their colours and shapes by the ISO 7010 / ISO 3864 / BS 5499 conventions. */
export const SIGN_TYPES = ['prohibition', 'warning', 'mandatory', 'safe', 'fire'] as const
export type SignType = (typeof SIGN_TYPES)[number]

export const SIGN_TYPE_LABELS: Readonly<Record<SignType, string>> = {
  prohibition: 'Prohibition (red circle and bar)',
  warning: 'Warning (yellow triangle)',
  mandatory: 'Mandatory (blue circle)',
  safe: 'Safe condition (green)',
  fire: 'Fire equipment (red)',
}

export const SIGN_LAYOUTS = ['symbol-text', 'text-only'] as const
export type SignLayout = (typeof SIGN_LAYOUTS)[number]

export const SIGN_ORIENTATIONS = ['landscape', 'portrait'] as const
export type SignOrientation = (typeof SIGN_ORIENTATIONS)[number]

export const MAX_SIGN_LINES = 4
export const MAX_LINE_CHARS = 40
export const MAX_AFFIX_CHARS = 12
export const MAX_SEQUENCE_COUNT = 250
export const MAX_SEQUENCE_NUMBER = 99_999
export const MAX_SEQUENCE_PAD = 6

export interface SignDesign {
  type: SignType
  layout: SignLayout
  orientation: SignOrientation
  /** A symbol id from the library; null for text-only signs */
  symbol: string | null
  /** One to four lines of text (a blank line between others is kept as a gap) */
  lines: string[]
}

/** A numbered set: one sign per number from start to end, the number set on its own last line. */
export interface SignSequence {
  start: number
  end: number
  prefix: string
  suffix: string
  /** Zero padding: the number has at least this many digits (0 = none) */
  pad: number
}

/** A size from the category's price grid, in millimetres. */
export interface SignSize {
  width: number
  height: number
}

export const SIGN_TEXT = {
  emptyText: 'Enter the text for your sign.',
  tooManyLines: `A sign may have at most ${MAX_SIGN_LINES} lines of text.`,
  lineTooLong: `Each line may have at most ${MAX_LINE_CHARS} characters.`,
  badCharacters: 'The text may use letters, digits, spaces and common punctuation only.',
  tooLongToFit: 'This text is too long to fit on the sign: shorten it or choose a larger size.',
  unknownSymbol: 'Choose a symbol from the library.',
  unknownType: 'Choose a type of sign.',
  unknownLayout: 'Choose a layout.',
  sizeNotInGrid: 'Choose a size and material from the price grid.',
  wrongOrientation: 'This size does not suit the chosen orientation.',
  sequenceRange: 'The last number must be after the first.',
  sequenceTooLong: `A numbered set may have at most ${MAX_SEQUENCE_COUNT} signs.`,
  sequenceNumber: `Numbers must be whole numbers from 0 to ${MAX_SEQUENCE_NUMBER}.`,
  sequenceAffix: `The prefix and suffix may have at most ${MAX_AFFIX_CHARS} characters.`,
  sequencePad: `Zero padding may be from 0 to ${MAX_SEQUENCE_PAD} digits.`,
  signNotFound: 'This sign is no longer in your basket.',
} as const

export type SignErrors = Record<string, string[]>

/** The orientation of a size: square sizes suit both. */
export function suitsOrientation(size: SignSize, orientation: SignOrientation): boolean {
  if (size.width === size.height) return true
  return orientation === 'landscape' ? size.width > size.height : size.height > size.width
}

/** Checks a design's own rules (not yet whether its text fits a size: see fitDesign). */
export function checkDesign(design: SignDesign): SignErrors {
  const errors: SignErrors = {}
  const add = (field: string, message: string) => (errors[field] ??= []).push(message)
  if (!SIGN_TYPES.includes(design.type)) add('type', SIGN_TEXT.unknownType)
  if (!SIGN_LAYOUTS.includes(design.layout) || !SIGN_ORIENTATIONS.includes(design.orientation)) {
    add('layout', SIGN_TEXT.unknownLayout)
  }
  if (design.layout === 'symbol-text' && !findSymbol(design.symbol)) add('symbol', SIGN_TEXT.unknownSymbol)
  if (design.layout === 'text-only' && design.symbol !== null) add('symbol', SIGN_TEXT.unknownSymbol)
  const lines = design.lines
  if (lines.length > MAX_SIGN_LINES) add('lines', SIGN_TEXT.tooManyLines)
  else if (lines.every((l) => !l.trim())) add('lines', SIGN_TEXT.emptyText)
  for (const [i, line] of lines.entries()) {
    if (line.length > MAX_LINE_CHARS) add(`lines.${i}`, SIGN_TEXT.lineTooLong)
    else if (![...line].every(hasGlyph)) add(`lines.${i}`, SIGN_TEXT.badCharacters)
  }
  return errors
}

export function checkSequence(seq: SignSequence): SignErrors {
  const errors: SignErrors = {}
  const add = (field: string, message: string) => (errors[field] ??= []).push(message)
  const whole = (n: number) => Number.isInteger(n) && n >= 0 && n <= MAX_SEQUENCE_NUMBER
  if (!whole(seq.start) || !whole(seq.end)) add('sequence.start', SIGN_TEXT.sequenceNumber)
  else if (seq.end <= seq.start) add('sequence.end', SIGN_TEXT.sequenceRange)
  else if (seq.end - seq.start + 1 > MAX_SEQUENCE_COUNT) add('sequence.end', SIGN_TEXT.sequenceTooLong)
  for (const key of ['prefix', 'suffix'] as const) {
    const value = seq[key]
    if (value.length > MAX_AFFIX_CHARS) add(`sequence.${key}`, SIGN_TEXT.sequenceAffix)
    else if (![...value].every(hasGlyph)) add(`sequence.${key}`, SIGN_TEXT.badCharacters)
  }
  if (!Number.isInteger(seq.pad) || seq.pad < 0 || seq.pad > MAX_SEQUENCE_PAD) {
    add('sequence.pad', SIGN_TEXT.sequencePad)
  }
  return errors
}

/** The numbers' texts of a sequence: prefix + zero-padded number + suffix. */
export function sequenceLabels(seq: SignSequence): string[] {
  const out: string[] = []
  for (let n = seq.start; n <= seq.end; n++) {
    out.push(`${seq.prefix}${String(n).padStart(seq.pad, '0')}${seq.suffix}`)
  }
  return out
}

/** What a person reads on the sign: its lines (and number), blanks dropped, joined by ' / '. */
export function signReads(design: SignDesign, numberLabel?: string): string {
  return [...design.lines, ...(numberLabel !== undefined ? [numberLabel] : [])]
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' / ')
}
