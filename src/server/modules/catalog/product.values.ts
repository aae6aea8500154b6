/** Readers of catalogue values that may be malformed: text, objects, links, slugs, the colour. */
import { breadcrumbText } from '../../../shared/breadcrumbs.ts'
import { stripTags } from '../../lib/sanitize.ts'
import type { CatalogAttributes } from '../../../shared/catalog.ts'

/** Plain text from HTML or text: tags removed, entities decoded, whitespace collapsed. */
export function plainText(value: unknown): string {
  if (typeof value !== 'string' || !value) return ''
  return breadcrumbText(stripTags(value))
}

export function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null
}

/** A site path or an http(s) URL; anything else (javascript:, data:, protocol-relative) is null. */
export function safeUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const v = value.trim()
  if (/^\/(?!\/)/.test(v) || /^https?:\/\//i.test(v)) return v
  return null
}

export function absoluteUrl(url: string, baseUrl: string): string {
  try {
    return new URL(url, baseUrl).href
  } catch {
    return url
  }
}

export function slugPart(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
}

/** `master_colour_key` as the product's colour (spec §3): plain text, at most 60 characters. */
export function colourOf(attributes: CatalogAttributes): string | null {
  const colour = plainText(attributes.master_colour_key).trim().slice(0, 60)
  return colour || null
}
