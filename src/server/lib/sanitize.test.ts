import { describe, expect, it } from 'vitest'
import { safeUrl, sanitizeRichText } from './sanitize.ts'

describe('safeUrl', () => {
  it('keeps http(s), mailto, tel and site-relative addresses', () => {
    for (const url of [
      'https://example.com/a?b=1',
      'http://x.y',
      'mailto:a@b.c',
      'tel:+441632960123',
      '/about-us',
      'about-us',
      '#top',
      '?q=1',
    ]) {
      expect(safeUrl(url), url).toBe(url)
    }
  })

  it('blanks scripts, data, other schemes and obfuscated forms', () => {
    for (const url of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'java\tscript:alert(1)',
      'java\u0000script:alert(1)',
      '\u0001javascript:alert(1)',
      'jav&#x61;script:alert(1)',
      'javascript&colon;alert(1)',
      'vbscript:x',
      'data:text/html,<script>alert(1)</script>',
      '//evil.example/x',
      '\\\\evil.example',
      'ftp://x',
    ]) {
      expect(safeUrl(url), JSON.stringify(url)).toBe('')
    }
  })
})

describe('sanitizeRichText', () => {
  it('keeps headings, lists, tables, links and images', () => {
    const html =
      '<h2>A</h2><ul><li>b</li></ul><table><tbody><tr><td colspan="2">c</td></tr></tbody></table><a href="/x">d</a><img src="/y.png" alt="e" />'
    expect(sanitizeRichText(html)).toBe(html)
  })

  it('drops forbidden elements with their content, and event attributes', () => {
    expect(
      sanitizeRichText(
        '<p onclick="x()">a</p><script>b</script><iframe>c</iframe><form><input></form><svg><g/></svg>',
      ),
    ).toBe('<p>a</p>')
  })

  it('refuses images from data: URLs', () => {
    expect(sanitizeRichText('<img src="data:image/png;base64,AAAA">')).toBe('<img />')
  })
})
