/**
 * Stories to page props: rich text becomes sanitised HTML, unsafe URLs are blanked, and the blocks
 * that need data (blog post grid, form) get it attached. Nothing from content reaches the browser
 * without passing through here.
 */
import { EMPTY_HTML, type SafeHtml } from '../../../shared/safe-html.ts'
import type { PresentedBlok } from '../../../shared/content.ts'
import { safeUrl, sanitizeRichText } from '../../lib/sanitize.ts'
import { plainText, renderNode } from './richtext.ts'
import { isBlok, isRichText, type Blok, type RichTextNode } from './storyblok.types.ts'

/** Read-more limit (characters) when a text block sets none. */
export const DEFAULT_READ_MORE_LIMIT = 500

function holdsTabs(node: RichTextNode | undefined): boolean {
  if (!node || typeof node !== 'object') return false
  if (node.type === 'blok') {
    const body = (node.attrs?.body ?? []) as unknown[]
    if (body.some((b) => isBlok(b) && b.component === 'tabs')) return true
  }
  return (node.content ?? []).some(holdsTabs)
}

/** The first `limit` characters of a document, cut at a word, as a document. */
export function truncateDoc(node: RichTextNode, limit: number): RichTextNode {
  let left = limit
  const cut = (n: RichTextNode): RichTextNode | null => {
    if (left <= 0) return null
    if (n.type === 'text') {
      const text = typeof n.text === 'string' ? n.text : ''
      if (text.length <= left) {
        left -= text.length
        return n
      }
      const head = text.slice(0, left)
      const atWord = head.lastIndexOf(' ') > left * 0.6 ? head.slice(0, head.lastIndexOf(' ')) : head
      left = 0
      return { ...n, text: `${atWord.trimEnd()}…` }
    }
    if (!n.content) return n
    const kids: RichTextNode[] = []
    for (const child of n.content) {
      const c = cut(child)
      if (c) kids.push(c)
      if (left <= 0) break
    }
    return { ...n, content: kids }
  }
  return cut(node) ?? { type: 'doc', content: [] }
}

/**
 * The text block's read-more (spec §4, §5): with show_more on, a preview of the first `limit`
 * characters, unless the text is at most 10 percent over the limit or holds tabs content.
 */
export function readMorePreview(blok: Blok): string | null {
  if (blok.show_more !== true || !isRichText(blok.text)) return null
  const limit = Number(blok.limit) > 0 ? Math.floor(Number(blok.limit)) : DEFAULT_READ_MORE_LIMIT
  const length = plainText(blok.text).replace(/\s+/g, ' ').trim().length
  if (length <= limit * 1.1 || holdsTabs(blok.text) || (Array.isArray(blok.tabs) && blok.tabs.length > 0))
    return null
  return sanitizeRichText(renderNode(truncateDoc(blok.text, limit)))
}

/** Rich text document or HTML string -> sanitised HTML. */
export function richTextHtml(value: unknown): SafeHtml {
  if (isRichText(value)) return sanitizeRichText(renderNode(value))
  if (typeof value === 'string') return sanitizeRichText(value)
  return EMPTY_HTML
}

const URL_FIELDS = new Set(['url', 'href', 'cached_url', 'filename', 'src', 'link', 'image_url'])

/**
 * Fields that hold rich text (a Storyblok document, or HTML): the browser renders them as HTML,
 * so they are always rendered and sanitised here, whatever their type. Every other string is
 * rendered by React as text.
 */
export const RICH_TEXT_FIELDS = new Set([
  'text',
  'content',
  'show_more_text',
  'consent_text',
  'description',
  'body_html',
])

/** Deep copy of a value with rich text rendered and URL-like strings checked. */
export function presentValue(value: unknown, key = ''): unknown {
  if (isRichText(value) || (typeof value === 'string' && RICH_TEXT_FIELDS.has(key)))
    return richTextHtml(value)
  if (Array.isArray(value)) return value.map((v) => presentValue(v))
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    if (isBlok(value) && value.component === 'text') out.preview = readMorePreview(value)
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
