/**
 * Every place a visitor's input is echoed, fed the whole XSS corpus with the Content-Security-
 * Policy stripped from every response (so only escaping and the SafeHtml type stand in the way):
 * no vector may run, and no vector with markup may appear raw in the HTML the server sends.
 */
import { expect, test, type Page, type APIResponse } from '@playwright/test'
import { XSS_VECTORS } from '../fixtures/xss-vectors.ts'

const TRAP = `
  window.__xss = 0;
  window.xss = () => { window.__xss++ };
  window.alert = window.confirm = window.prompt = window.print = () => { window.__xss++ };
`

/** Serves every response of the shop without its Content-Security-Policy. */
async function withoutCsp(page: Page) {
  await page.addInitScript(TRAP)
  await page.route('**/*', async (route) => {
    const request = route.request()
    if (!['document', 'xhr', 'fetch'].includes(request.resourceType())) return route.continue()
    const response = await route.fetch({ maxRedirects: 0 })
    const headers = { ...response.headers() }
    delete headers['content-security-policy']
    await route.fulfill({ response, headers })
  })
}

const hasMarkup = (v: string) => /[<>"]/.test(v)

/** The vector must not appear verbatim (it would be live markup) in an HTML answer. */
function expectEscaped(body: string, vector: string, where: string) {
  if (!hasMarkup(vector)) return
  expect(body.includes(vector), `${where}: ${vector}`).toBe(false)
}

async function ran(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __xss?: number }).__xss ?? 0)
}

/** Pokes every element so mouse, focus and toggle handlers would fire. */
async function poke(page: Page) {
  await page.evaluate(() => {
    for (const el of Array.from(document.body.querySelectorAll('main *'))) {
      for (const type of ['mouseover', 'pointerenter', 'focus', 'toggle', 'mouseenter']) {
        el.dispatchEvent(new Event(type, { bubbles: true }))
      }
    }
  })
}

/** Vectors joined into chunks no longer than `max` characters. */
function chunks(max: number): string[] {
  const out: string[] = []
  let current = ''
  for (const v of XSS_VECTORS) {
    if (v.length > max) continue
    if (current && current.length + v.length + 1 > max) {
      out.push(current)
      current = ''
    }
    current = current ? `${current} ${v}` : v
  }
  if (current) out.push(current)
  return out
}

async function csrf(page: Page): Promise<Record<string, string>> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')
  return {
    'x-xsrf-token': decodeURIComponent(cookie?.value ?? ''),
    'x-inertia': 'true',
    'x-requested-with': 'XMLHttpRequest',
    accept: 'text/html, application/xhtml+xml',
  }
}

test.describe.configure({ timeout: 900_000 })

/** Where a visitor's text comes back on a page reached by a link. */
function echoUrls(v: string): string[] {
  const q = encodeURIComponent(v)
  return [
    `/search?q=${q}&sort=${q}&page=${q}`,
    `/cart?sku=${q}`,
    `/no-such-page-${q}`,
    `/register?password_raw=${q}`,
    `/login?intended=${q}`,
  ]
}

test('the XSS corpus never runs or lands raw through the search page, its sort and page, ?sku= and the 404 path', async ({
  page,
}) => {
  await withoutCsp(page)
  const dialogs: string[] = []
  page.on('dialog', async (d) => {
    dialogs.push(d.message())
    await d.dismiss()
  })
  // Every vector: the HTML the server sends for each echo point (fast, no rendering).
  for (const v of XSS_VECTORS) {
    for (const url of echoUrls(v)) {
      const res = await page.request.get(url, { headers: { accept: 'text/html' } })
      expect(res.status(), url).toBeLessThan(500)
      expectEscaped(await res.text(), v, url)
    }
  }
  // Rendered in Chromium (server HTML, hydration and client render): a third of the vectors on
  // the Search page with its sort and page parameters, a ninth on every other echo point.
  for (const [i, v] of XSS_VECTORS.entries()) {
    if (i % 3 !== 0) continue
    const urls = echoUrls(v)
    for (const url of i % 9 === 0 ? urls : urls.slice(0, 1)) await page.goto(url, { waitUntil: 'load' })
    await poke(page)
  }
  expect(await ran(page)).toBe(0)
  expect(dialogs).toEqual([])
})

test('the XSS corpus typed into the header search box never runs (client-side visit)', async ({ page }) => {
  await withoutCsp(page)
  await page.goto('/')
  const box = page.getByRole('combobox', { name: 'Search products' })
  await expect(box).toBeVisible()
  for (const v of XSS_VECTORS.slice(0, 40)) {
    await box.fill(v)
    await box.press('Enter')
    await expect(page).toHaveURL(/\/search\?/)
    await expect(page.getByTestId('search-page')).toBeVisible()
  }
  await poke(page)
  expect(await ran(page)).toBe(0)
  // Nothing from the corpus became an element inside the breadcrumb.
  expect(
    await page.locator('nav[aria-label="Breadcrumb"] img, nav[aria-label="Breadcrumb"] svg').count(),
  ).toBe(0)
})

test('the XSS corpus through register, login e-mail, password_raw, newsletter and content-form fields never runs or lands raw', async ({
  page,
}) => {
  await withoutCsp(page)
  await page.goto('/login')
  const posts: {
    url: string
    body: (chunk: string) => Record<string, unknown>
    max: number
    then: string
  }[] = [
    { url: '/login', body: (c) => ({ email: c, password: c }), max: 255, then: '/login' },
    {
      url: '/customer/create',
      body: (c) => ({
        email: c,
        first_name: c.slice(0, 100),
        last_name: c.slice(0, 100),
        password: c,
        password_confirmation: c,
        password_raw: c,
        terms: true,
      }),
      max: 255,
      then: '/register',
    },
    { url: '/forgot-password', body: (c) => ({ email: c }), max: 255, then: '/forgot-password' },
    {
      url: '/newsletter/subscribe',
      body: (c) => ({ email: c, firstName: c.slice(0, 100) }),
      max: 254,
      then: '/',
    },
    {
      url: '/forms/contact',
      body: (c) => ({ name: c.slice(0, 100), email: c.slice(0, 200), phone: c.slice(0, 20), message: c }),
      max: 255,
      then: '/contact-us',
    },
  ]
  for (const post of posts) {
    for (const chunk of chunks(post.max)) {
      const res: APIResponse = await page.request.post(post.url, {
        data: post.body(chunk),
        headers: await csrf(page),
        maxRedirects: 0,
      })
      expect(res.status(), post.url).toBeLessThan(500)
      // JSON answers (validation errors, Inertia page objects) are data, not markup.
      if ((res.headers()['content-type'] ?? '').startsWith('text/html'))
        for (const v of XSS_VECTORS) if (chunk.includes(v)) expectEscaped(await res.text(), v, post.url)
      const next = await page.goto(post.then)
      const html = (await next?.text()) ?? ''
      for (const v of XSS_VECTORS)
        if (chunk.includes(v)) expectEscaped(html, v, `${post.url} -> ${post.then}`)
    }
    await poke(page)
    expect(await ran(page), post.url).toBe(0)
  }
})
