import { describe, expect, it } from 'vitest'
import { sanitizeBreadcrumb, sanitizeRichText, stripTags } from './sanitize.ts'

describe('sanitizeBreadcrumb', () => {
  it('keeps strong, b, em, i and br and drops every other tag', () => {
    expect(
      sanitizeBreadcrumb(
        '<strong>Fire</strong> <a href="/x">exit</a><br><script>alert(1)</script><i>signs</i>',
      ),
    ).toBe('<strong>Fire</strong> exit<br /><i>signs</i>')
  })

  it('removes attributes such as event handlers from allowed tags', () => {
    expect(sanitizeBreadcrumb('<b onclick="steal()" class="x">Bold</b>')).toBe('<b>Bold</b>')
  })
})

describe('sanitizeRichText', () => {
  it('removes script, iframe, object, embed, form and input', () => {
    const dirty =
      '<p>Hi</p><script>x()</script><iframe src="https://evil"></iframe><object></object><embed><form><input name="a"></form>'
    expect(sanitizeRichText(dirty)).toBe('<p>Hi</p>')
  })

  it('drops javascript: links but keeps ordinary links, tables and images', () => {
    const html = sanitizeRichText(
      '<a href="javascript:alert(1)">bad</a><a href="/ok">ok</a><table><tr><td colspan="2">c</td></tr></table><img src="/a.png" alt="A" onerror="x()">',
    )
    expect(html).not.toContain('javascript:')
    expect(html).toContain('<a href="/ok">ok</a>')
    expect(html).toContain('<td colspan="2">c</td>')
    expect(html).toContain('<img src="/a.png" alt="A" />')
  })

  it('adds rel=noopener to links that open a new tab', () => {
    expect(sanitizeRichText('<a href="https://x.test" target="_blank">x</a>')).toContain(
      'rel="noopener noreferrer"',
    )
  })
})

describe('stripTags', () => {
  it('returns the text alone', () => {
    expect(stripTags('<h2>Title</h2><p>Body <b>text</b></p>')).toBe('TitleBody text')
  })
})
