/**
 * Stories to page props: rich text becomes sanitised HTML, unsafe URLs are blanked, and the blocks
 * that need data (blog post grid, form) get it attached. Nothing from content reaches the browser
 * without passing through here.
 */
import type { PresentedBlok } from '../../../shared/content.ts'
import { safeUrl, sanitizeRichText } from '../../lib/sanitize.ts'
import { renderNode } from './richtext.ts'
import { isBlok, isRichText } from './storyblok.types.ts'

/** Rich text document or HTML string -> sanitised HTML. */
export function richTextHtml(value: unknown): string {
  if (isRichText(value)) return sanitizeRichText(renderNode(value))
  if (typeof value === 'string') return sanitizeRichText(value)
  return ''
}

const URL_FIELDS = new Set(['url', 'href', 'cached_url', 'filename', 'src', 'link', 'image_url'])

/**
 * Fields that hold rich text (a Storyblok document, or HTML): the browser renders them as HTML,
 * so they are always rendered and sanitised here, whatever their type. Every other string is
 * rendered by React as text.
 */
export const RICH_TEXT_FIELDS = new Set(['text', 'content', 'show_more_text', 'consent_text', 'description', 'body_html'])

/** Deep copy of a value with rich text rendered and URL-like strings checked. */
export function presentValue(value: unknown, key = ''): unknown {
  if (isRichText(value) || (typeof value === 'string' && RICH_TEXT_FIELDS.has(key))) return richTextHtml(value)
  if (Array.isArray(value)) return value.map((v) => presentValue(v))
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) {
      if (k === '_editable') continue
      out[k] = presentValue(v, k)
    }
    return out
  }
  if (typeof value === 'string' && URL_FIELDS.has(key)) return safeUrl(value)
  return value
}

export function presentBlocks(value: unknown): PresentedBlok[] {
  if (!Array.isArray(value)) return []
  return value.filter(isBlok).map((b) => presentValue(b) as PresentedBlok)
}

/** Calls `fn` on every block in a presented tree (depth first). */
export function walkBlocks(blocks: unknown, fn: (blok: PresentedBlok) => void): void {
  if (Array.isArray(blocks)) blocks.forEach((b) => walkBlocks(b, fn))
  else if (isBlok(blocks)) {
    fn(blocks as PresentedBlok)
    for (const v of Object.values(blocks)) if (v && typeof v === 'object') walkBlocks(v, fn)
  }
}

/** Text for previews: tags stripped, whitespace collapsed, cut to `length` characters. */
export function previewText(text: string, length: number): string {
  const clean = text.replace(/\s+/g, ' ').trim()
  return clean.length > length ? clean.slice(0, length).trimEnd() : clean
}
