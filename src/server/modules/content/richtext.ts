/**
 * Storyblok rich text (ProseMirror JSON with Storyblok's node names) to HTML. Text and attribute
 * values are escaped here; the result is still passed through the rich-text sanitiser by the
 * caller, so a hostile document cannot produce anything the sanitiser forbids.
 * Embedded `blok` nodes are not rendered inside rich text (blocks belong in blocks fields).
 */
import type { RichTextNode } from './storyblok.types.ts'
import { escapeHtml } from '../../../shared/safe-html.ts'

function attrs(map: Record<string, unknown>): string {
  let out = ''
  for (const [name, value] of Object.entries(map)) {
    if (value === undefined || value === null || value === '' || value === false) continue
    out += ` ${name}="${escapeHtml(String(value))}"`
  }
  return out
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined
}

function linkHref(a: Record<string, unknown>): string | undefined {
  const href = str(a.href) ?? ''
  if (a.linktype === 'email') return href ? `mailto:${href.replace(/^mailto:/, '')}` : undefined
  if (a.linktype === 'story') {
    const path = href.startsWith('/') || /^https?:/.test(href) ? href : `/${href}`
    return a.anchor ? `${path}#${String(a.anchor)}` : path
  }
  return href || undefined
}

function openMark(mark: { type: string; attrs?: Record<string, unknown> }): [string, string] {
  const a = mark.attrs ?? {}
  switch (mark.type) {
    case 'bold':
      return ['<strong>', '</strong>']
    case 'italic':
      return ['<em>', '</em>']
    case 'strike':
      return ['<s>', '</s>']
    case 'underline':
      return ['<u>', '</u>']
    case 'code':
      return ['<code>', '</code>']
    case 'superscript':
      return ['<sup>', '</sup>']
    case 'subscript':
      return ['<sub>', '</sub>']
    case 'highlight':
      return ['<mark>', '</mark>']
    case 'link': {
      const target = a.target === '_blank' ? '_blank' : undefined
      return [`<a${attrs({ href: linkHref(a), target, title: str(a.title) })}>`, '</a>']
    }
    case 'anchor':
      return [`<span${attrs({ id: str(a.id) })}>`, '</span>']
    case 'styled':
      return [`<span${attrs({ class: str(a.class) })}>`, '</span>']
    default:
      return ['', '']
  }
}

function children(node: RichTextNode): string {
  return (node.content ?? []).map(renderNode).join('')
}

function align(node: RichTextNode): string | undefined {
  const v = node.attrs?.textAlign
  return v === 'left' || v === 'right' || v === 'center' || v === 'justify' ? `text-${v}` : undefined
}

function renderTable(node: RichTextNode): string {
  const rows = node.content ?? []
  let head = 0
  while (head < rows.length && (rows[head]?.content ?? []).every((c) => c.type === 'tableHeader')) head++
  const part = (list: RichTextNode[]) => list.map(renderNode).join('')
  const thead = head > 0 ? `<thead>${part(rows.slice(0, head))}</thead>` : ''
  return `<table>${thead}<tbody>${part(rows.slice(head))}</tbody></table>`
}

export function renderNode(node: RichTextNode): string {
  if (!node || typeof node !== 'object') return ''
  const a = node.attrs ?? {}
  switch (node.type) {
    case 'doc':
      return children(node)
    case 'text': {
      let html: string = escapeHtml(typeof node.text === 'string' ? node.text : '')
      for (const mark of node.marks ?? []) {
        const [open, close] = openMark(mark)
        html = open + html + close
      }
      return html
    }
    case 'paragraph':
      return `<p${attrs({ class: align(node) })}>${children(node)}</p>`
    case 'heading': {
      const level = Math.min(6, Math.max(1, Number(a.level) || 2))
      return `<h${level}${attrs({ class: align(node) })}>${children(node)}</h${level}>`
    }
    case 'blockquote':
      return `<blockquote>${children(node)}</blockquote>`
    case 'bullet_list':
      return `<ul>${children(node)}</ul>`
    case 'ordered_list': {
      const start = Number(a.order)
      return `<ol${attrs({ start: Number.isInteger(start) && start > 1 ? start : undefined })}>${children(node)}</ol>`
    }
    case 'list_item':
      return `<li>${children(node)}</li>`
    case 'code_block':
      return `<pre><code>${children(node)}</code></pre>`
    case 'hard_break':
      return '<br>'
    case 'horizontal_rule':
      return '<hr>'
    case 'image':
      return `<img${attrs({ src: str(a.src), alt: str(a.alt) ?? '', title: str(a.title), loading: 'lazy' })}>`
    case 'emoji':
      return `<span>${escapeHtml(str(a.emoji) ?? '')}</span>`
    case 'table':
      return renderTable(node)
    case 'tableRow':
      return `<tr>${children(node)}</tr>`
    case 'tableHeader':
    case 'tableCell': {
      const tag = node.type === 'tableHeader' ? 'th' : 'td'
      const colspan = Number(a.colspan) > 1 ? Number(a.colspan) : undefined
      const rowspan = Number(a.rowspan) > 1 ? Number(a.rowspan) : undefined
      return `<${tag}${attrs({ colspan, rowspan })}>${children(node)}</${tag}>`
    }
    default:
      // Unknown nodes (and `blok`) render their children only, or nothing.
      return node.content ? children(node) : ''
  }
}

/** Plain text of a rich-text document (for previews). */
export function plainText(node: RichTextNode | null | undefined): string {
  if (!node || typeof node !== 'object') return ''
  if (node.type === 'text') return typeof node.text === 'string' ? node.text : ''
  if (node.type === 'hard_break') return ' '
  const inner = (node.content ?? []).map(plainText)
  const block = ['paragraph', 'heading', 'list_item', 'blockquote', 'tableCell', 'tableHeader']
  return block.includes(node.type) ? inner.join('') + ' ' : inner.join('')
}
