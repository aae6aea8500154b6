/**
 * HTML that may be rendered as HTML. `SafeHtml` is a branded string: only the sanitiser
 * (src/server/lib/sanitize.ts) and the escaping functions below produce it, and every component
 * that sets inner HTML (src/client/components/SafeHtml.tsx, the only file allowed to) accepts
 * only this type. A plain string handed where HTML is expected is a type error, so text typed by
 * a visitor can never be rendered as markup by mistake. ESLint forbids `as SafeHtml` elsewhere.
 */
declare const safeHtmlBrand: unique symbol

export type SafeHtml = string & { readonly [safeHtmlBrand]: 'SafeHtml' }

export const EMPTY_HTML = '' as SafeHtml

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Plain text as HTML: every character that means something in markup (or an attribute) is escaped. */
export function escapeHtml(text: string): SafeHtml {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c) as SafeHtml
}

/**
 * Escapes text for an element's content only (`&`, `<`, `>`): the form an HTML/XML serialiser
 * writes text nodes in, so markup built with it survives a sanitiser's parse-and-serialise round
 * trip byte for byte (the sign renderer's SVG, ADR 0035). Never use it inside an attribute value:
 * use `escapeHtml` there.
 */
export function escapeText(text: string): SafeHtml {
  return text.replace(/[&<>]/g, (c) => ESCAPES[c] ?? c) as SafeHtml
}

/**
 * Replaces a plain-text placeholder (letters, digits, braces and underscores only) in safe HTML
 * with escaped text wrapped in a quote-free `<span class=...>`. The wrapper has no quotes, so
 * even when the placeholder sits inside an attribute value the result cannot leave it.
 */
export function fillPlaceholder(
  html: SafeHtml,
  placeholder: RegExp,
  text: string | null,
  className: string,
): SafeHtml {
  if (!/^[a-z0-9-]+$/i.test(className)) throw new Error('class name must be letters, digits and -')
  return html.replace(placeholder, () =>
    text === null ? '' : `<span class=${className}>${escapeHtml(text)}</span>`,
  ) as SafeHtml
}

/**
 * Content blocks are loosely typed (Storyblok's shape); the content presenter
 * (content.presenter.ts) sanitises every rich-text field before the block leaves the server, so a
 * string field read from a presented block is safe HTML. Anything else is no HTML at all.
 */
export function presentedBlockHtml(value: unknown): SafeHtml | null {
  return typeof value === 'string' && value !== '' ? (value as SafeHtml) : null
}

/**
 * Builds HTML from a literal template: every interpolated value is text and is escaped. Only the
 * template's own literal parts are markup, so they are written by the programmer, never by a visitor.
 */
export function html(strings: TemplateStringsArray, ...values: (string | number)[]): SafeHtml {
  let out = strings[0] ?? ''
  values.forEach((v, i) => {
    out += escapeHtml(String(v)) + (strings[i + 1] ?? '')
  })
  return out as SafeHtml
}

/** Concatenates safe HTML fragments. */
export function joinHtml(parts: readonly SafeHtml[], separator: SafeHtml = EMPTY_HTML): SafeHtml {
  return parts.join(separator) as SafeHtml
}

/**
 * Replaces every match of `pattern` in safe HTML with safe HTML. The pattern must match text only
 * (a placeholder such as `{logo}`), never a part of a tag.
 */
export function replaceHtml(
  source: SafeHtml,
  pattern: RegExp,
  replacement: (match: string, ...groups: (string | undefined)[]) => SafeHtml,
): SafeHtml {
  return source.replace(pattern, (match: string, ...rest: unknown[]) =>
    replacement(
      match,
      ...(rest.filter((r) => typeof r === 'string' || r === undefined) as (string | undefined)[]),
    ),
  ) as SafeHtml
}
