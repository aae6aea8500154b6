import { describe, expect, it } from 'vitest'
import {
  escapeHtml,
  escapeText,
  fillPlaceholder,
  html,
  joinHtml,
  presentedBlockHtml,
  replaceHtml,
} from './safe-html.ts'

describe('safe HTML', () => {
  it('escapes every character that means something in markup or an attribute', () => {
    expect(escapeHtml(`<img src=x onerror="a('b')">&`)).toBe(
      '&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;',
    )
  })

  it('escapes every value interpolated into an html template', () => {
    const name = '"><script>x()</script>'
    expect(html`<span title="${name}">${name}</span>`).toBe(
      '<span title="&quot;&gt;&lt;script&gt;x()&lt;/script&gt;">&quot;&gt;&lt;script&gt;x()&lt;/script&gt;</span>',
    )
  })

  it('fills a placeholder with escaped text in a quote-free wrapper, even inside an attribute', () => {
    const source = html`<p title="{as_low_as}">From {as_low_as}</p>`
    const filled = fillPlaceholder(source, /\{as_low_as\}/g, '£1 <b>"x"</b>', 'as-low-as')
    expect(filled).not.toContain('<b>')
    expect(filled).toContain('<span class=as-low-as>£1 &lt;b&gt;&quot;x&quot;&lt;/b&gt;</span>')
    const doc = new DOMParserLike(filled)
    expect(doc.attributeCount).toBe(1)
  })

  it('removes a placeholder when there is no text', () => {
    expect(fillPlaceholder(html`<p>{x}</p>`, /\{x\}/g, null, 'c')).toBe('<p></p>')
  })

  it('joins and replaces safe fragments', () => {
    expect(joinHtml([html`<b>`, escapeHtml('<i>'), html`</b>`])).toBe('<b>&lt;i&gt;</b>')
    expect(replaceHtml(html`<p>{a}</p>`, /\{(a)\}/g, (_m, g) => escapeHtml(`<${g}>`))).toBe(
      '<p>&lt;a&gt;</p>',
    )
  })

  it('reads only strings from a presented content block as HTML', () => {
    expect(presentedBlockHtml('<p>x</p>')).toBe('<p>x</p>')
    expect(presentedBlockHtml({ toString: () => '<script>' })).toBeNull()
    expect(presentedBlockHtml('')).toBeNull()
  })
})

/** Counts the attributes of the first tag, quote-aware (enough to see that nothing broke out). */
class DOMParserLike {
  attributeCount: number
  constructor(source: string) {
    const tag = /^<p((?:\s+[a-z-]+="[^"]*")*)>/.exec(source)
    this.attributeCount = tag ? (tag[1]?.match(/[a-z-]+="/g)?.length ?? 0) : -1
  }
}

describe('escapeText', () => {
  it('escapes only what a text node needs, as a serialiser writes it', () => {
    expect(escapeText(`<b> & "q" 'a'`)).toBe(`&lt;b&gt; &amp; "q" 'a'`)
  })
})
