/**
 * Rich text and HTML from content are sanitised on the server: none of the XSS vectors may run
 * in Chromium once passed through the sanitiser, the rich-text renderer or the URL check. The
 * page has no Content-Security-Policy, so only the sanitiser stands in the way.
 */
import { expect, test } from '@playwright/test'
import { safeUrl, sanitizeRichText } from '../../src/server/lib/sanitize.ts'
import { renderNode } from '../../src/server/modules/content/richtext.ts'
import { XSS_VECTORS } from '../fixtures/xss-vectors.ts'

const TRAP = `
  window.__xss = 0;
  window.xss = () => { window.__xss++ };
  window.alert = window.confirm = window.prompt = window.print = () => { window.__xss++ };
`

/** Every href/src-like value inside the vectors, plus the raw vectors, as URL candidates. */
function urlCandidates(): string[] {
  const out = new Set<string>()
  for (const v of XSS_VECTORS) {
    out.add(v)
    for (const m of v.matchAll(
      /(?:href|src|action|data|formaction|background|cite)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi,
    )) {
      out.add(m[1] ?? m[2] ?? m[3] ?? '')
    }
  }
  return [...out]
}

function renderAll(): string {
  const parts: string[] = []
  for (const v of XSS_VECTORS) {
    parts.push(`<section>${sanitizeRichText(v)}</section>`)
    const doc = {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: v },
            { type: 'text', text: 'link', marks: [{ type: 'link', attrs: { href: v, linktype: 'url' } }] },
          ],
        },
        { type: 'image', attrs: { src: v, alt: v } },
      ],
    }
    parts.push(`<section>${sanitizeRichText(renderNode(doc))}</section>`)
  }
  for (const url of urlCandidates()) {
    const safe = safeUrl(url).replace(/"/g, '&quot;')
    parts.push(`<a class="u" href="${safe}">u</a><img class="u" src="${safe}" alt="">`)
  }
  return `<!doctype html><html><head><title>x</title></head><body>${parts.join('\n')}</body></html>`
}

test('has at least 100 vectors', () => {
  expect(XSS_VECTORS.length).toBeGreaterThanOrEqual(100)
})

test('no XSS vector runs in Chromium after sanitising', async ({ page }) => {
  const dialogs: string[] = []
  page.on('dialog', async (d) => {
    dialogs.push(d.message())
    await d.dismiss()
  })
  await page.addInitScript(TRAP)
  await page.route('http://xss.test/', (route) =>
    route.fulfill({ contentType: 'text/html', body: renderAll() }),
  )
  await page.goto('http://xss.test/')
  // Let error/load handlers and autofocus fire, then poke every element.
  await page.waitForTimeout(500)
  await page.evaluate(() => {
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      for (const type of ['mouseover', 'pointerenter', 'focus', 'toggle', 'mouseenter']) {
        el.dispatchEvent(new Event(type, { bubbles: true }))
      }
      if (!(el instanceof HTMLAnchorElement)) (el as HTMLElement).click?.()
    }
  })
  await page.waitForTimeout(300)
  expect(await page.evaluate(() => (window as unknown as { __xss: number }).__xss)).toBe(0)
  expect(dialogs).toEqual([])

  const report = await page.evaluate(() => {
    const all = Array.from(document.body.querySelectorAll('*'))
    const handlers = all.flatMap((el) =>
      Array.from(el.attributes)
        .filter((a) => /^on/i.test(a.name))
        .map((a) => `${el.tagName} ${a.name}`),
    )
    const forbidden = all
      .map((el) => el.tagName.toLowerCase())
      .filter((t) =>
        [
          'script',
          'iframe',
          'object',
          'embed',
          'form',
          'input',
          'style',
          'svg',
          'math',
          'base',
          'meta',
          'link',
          'button',
          'textarea',
          'select',
        ].includes(t),
      )
    const badLinks = Array.from(document.querySelectorAll('a[href]'))
      .map((a) => (a as HTMLAnchorElement).protocol)
      .filter((p) => !['http:', 'https:', 'mailto:', 'tel:'].includes(p))
    const badImages = Array.from(document.querySelectorAll('img[src]'))
      .map((i) => new URL((i as HTMLImageElement).src).protocol)
      .filter((p) => !['http:', 'https:'].includes(p))
    const styles = all.filter((el) => el.hasAttribute('style')).length
    return { handlers, forbidden: [...new Set(forbidden)], badLinks, badImages, styles }
  })
  expect(report).toEqual({ handlers: [], forbidden: [], badLinks: [], badImages: [], styles: 0 })
})
