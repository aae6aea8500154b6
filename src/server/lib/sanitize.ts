import sanitizeHtml from 'sanitize-html'
import type { SafeHtml } from '../../shared/safe-html.ts'

/**
 * Sanitisers for HTML that reaches a page. Content from the content system and the database is
 * cleaned on the server before it is sent, so the browser can render it as HTML safely.
 * These functions are the producers of `SafeHtml` (src/shared/safe-html.ts): a component renders
 * HTML only of that type, so nothing reaches a page as markup without passing through here.
 */

const inlineOnly: sanitizeHtml.IOptions = {
  allowedTags: ['strong', 'b', 'em', 'i', 'br'],
  allowedAttributes: {},
  disallowedTagsMode: 'discard',
}

/** Breadcrumb text: only strong, b, em, i and br survive (spec §2). */
export function sanitizeBreadcrumb(html: string): SafeHtml {
  return sanitizeHtml(html, inlineOnly) as SafeHtml
}

const richText: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'pre',
    'code',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'sub',
    'sup',
    'small',
    'span',
    'div',
    'mark',
    'ul',
    'ol',
    'li',
    'dl',
    'dt',
    'dd',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'caption',
    'colgroup',
    'col',
    'a',
    'img',
    'figure',
    'figcaption',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
    th: ['colspan', 'rowspan', 'scope', 'align'],
    td: ['colspan', 'rowspan', 'align'],
    ol: ['start'],
    '*': ['class', 'id'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  // script, style, object, embed, iframe, form and input are dropped with their content.
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'object',
    'embed',
    'iframe',
    'xmp',
    'noembed',
    'noframes',
    'template',
    'svg',
    'math',
  ],
  transformTags: {
    a: (tagName, attribs) => {
      const out = { ...attribs }
      if (out.target === '_blank') out.rel = 'noopener noreferrer'
      return { tagName, attribs: out }
    },
  },
}

/** Rich text from the content system: headings, lists, tables, links, images and similar. */
export function sanitizeRichText(html: string): SafeHtml {
  return sanitizeHtml(html, richText) as SafeHtml
}

const qrSvg: sanitizeHtml.IOptions = {
  allowedTags: ['svg', 'path', 'rect'],
  allowedAttributes: {
    svg: ['xmlns', 'width', 'height', 'viewBox', 'shape-rendering'],
    path: ['d', 'fill', 'stroke', 'stroke-width'],
    rect: ['x', 'y', 'width', 'height', 'fill'],
  },
  parser: { lowerCaseAttributeNames: false },
  disallowedTagsMode: 'discard',
}

/** A QR code drawn as SVG (the two-factor set-up page): only svg, path and rect with drawing attributes. */
export function sanitizeQrSvg(svg: string): SafeHtml {
  return sanitizeHtml(svg, qrSvg) as SafeHtml
}

/** Plain text with every tag removed, for previews and meta descriptions. */
export function stripTags(html: string): string {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })
}

/**
 * A URL from content used as a link or image address: http(s), mailto, tel and site-relative
 * paths pass; anything else (javascript:, data:, vbscript:, protocol-relative, or obfuscated with
 * control characters and entities) becomes ''.
 */
export function safeUrl(value: string): string {
  const url = value.trim()
  if (url === '') return ''
  // Browsers ignore ASCII control characters and whitespace inside a scheme: judge without them.
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  const probe = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase()
  if (probe.includes('&#') || probe.includes('&colon')) return ''
  if (probe.startsWith('//') || probe.startsWith('\\\\') || probe.startsWith('/\\')) return ''
  if (/^[a-z][a-z0-9+.-]*:/.test(probe)) return /^(https?|mailto|tel):/.test(probe) ? url : ''
  return url
}
