/**
 * Description placeholders (in the long descriptions, the structured description's above, below
 * and tab contents), matched case-insensitively:
 *
 *   {swatches}                 the colour swatch grid (colour_swatches)
 *   {as_low_as}                the 'As Low As' price; filled in by the browser so it follows the
 *                              VAT choice ('' when there is no price above 0)
 *   {logo}                     the site's logo
 *   {spec1} .. {spec10}        value of specification field 1..10 (attributes.specifications)
 *   {spec1_label} .. {spec10_label}   its label
 *
 * Specification data that is not an object of { label, value } strings keyed 1..10 is bad data:
 * every {specN} / {specN_label} placeholder is then blanked. A field that is not set blanks its
 * own placeholders.
 */
import {
  EMPTY_HTML,
  escapeHtml,
  html,
  joinHtml,
  replaceHtml,
  type SafeHtml,
} from '../../../shared/safe-html.ts'
import type { ColourSwatch } from '../../../shared/catalog.ts'
import { colourWord, type SpellingLocale } from '../../../shared/spelling.ts'
import { isObject, safeUrl } from './product.values.ts'

export const MAX_SPECIFICATIONS = 10

export interface PlaceholderValues {
  swatches: SafeHtml
  logo: SafeHtml
  /** null = bad data: every specification placeholder is blanked */
  specifications: Map<number, { label: string; value: string }> | null
}

/** Reads specification fields 1..10; null when the data is malformed. */
export function specificationValues(raw: unknown): Map<number, { label: string; value: string }> | null {
  const out = new Map<number, { label: string; value: string }>()
  if (raw === undefined || raw === null) return out
  if (!isObject(raw) || Array.isArray(raw)) return null
  for (const [key, field] of Object.entries(raw)) {
    const n = Number(key)
    if (!Number.isInteger(n) || n < 1 || n > MAX_SPECIFICATIONS) return null
    if (!isObject(field)) return null
    const { label, value } = field as { label?: unknown; value?: unknown }
    if (typeof label !== 'string' || (typeof value !== 'string' && typeof value !== 'number')) return null
    out.set(n, { label, value: String(value) })
  }
  return out
}

const PLACEHOLDER = /\{(swatches|logo|spec(\d{1,2})(_label)?)\}/gi

/** Replaces the server-side placeholders in sanitised HTML; {as_low_as} is left for the browser. */
export function placeholderFiller(values: PlaceholderValues) {
  return (source: SafeHtml): SafeHtml =>
    replaceHtml(source, PLACEHOLDER, (_whole, name = '', specN, isLabel) => {
      const key = name.toLowerCase()
      if (key === 'swatches') return values.swatches
      if (key === 'logo') return values.logo
      const n = Number(specN)
      if (!values.specifications || n < 1 || n > MAX_SPECIFICATIONS) return EMPTY_HTML
      const field = values.specifications.get(n)
      if (!field) return EMPTY_HTML
      return escapeHtml(isLabel ? field.label : field.value)
    })
}

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i

function hex(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const m = HEX.exec(value.trim())
  return m ? `#${m[1]}` : null
}

/** The swatch grid: a list of colour chips with their names ('' without swatches). */
export function swatchGridHtml(
  swatches: Record<string, ColourSwatch> | null | undefined,
  locale: SpellingLocale = 'en-GB',
): SafeHtml {
  if (!isObject(swatches)) return EMPTY_HTML
  const items = Object.entries(swatches).flatMap(([name, s]) => {
    const main = hex(s?.Hex)
    if (!main || !name.trim()) return []
    const second = hex(s?.Hex2)
    const background = second ? `linear-gradient(135deg, ${main} 50%, ${second} 50%)` : main
    return [
      html`<li class="inline-flex items-center gap-2"><span class="inline-block h-6 w-6 rounded-full border border-gray-300" style="background: ${background}" aria-hidden="true"></span><span>${name.trim()}</span></li>`,
    ]
  })
  if (items.length === 0) return EMPTY_HTML
  return joinHtml([
    html`<ul class="swatch-grid not-prose my-2 flex flex-wrap gap-3" aria-label="${colourWord(locale, true)}">`,
    ...items,
    html`</ul>`,
  ])
}

export function logoHtml(logo: string, siteName: string): SafeHtml {
  const src = safeUrl(logo)
  return src ? html`<img class="inline-block h-10 w-auto" src="${src}" alt="${siteName}">` : EMPTY_HTML
}
