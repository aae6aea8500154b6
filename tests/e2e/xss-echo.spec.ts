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

// A request still being re-served when a test ends (e.g. a search the header box fired while the
// test moved on) must not fail that test or the next one.
test.afterEach(async ({ page }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' })
})

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

/**
 * Vectors joined (by a space) into chunks no longer than `max` characters, so one request or page
 * load carries many of them. A vector longer than `max` is left out, or with `keepLong` sent as a
 * chunk of its own.
 */
function chunks(max: number, keepLong = false): string[] {
  const out: string[] = []
  let current = ''
  for (const v of XSS_VECTORS) {
    if (v.length > max) {
      if (keepLong) out.push(v)
      continue
    }
    if (current && current.length + v.length + 1 > max) {
      out.push(current)
      current = ''
    }
    current = current ? `${current} ${v}` : v
  }
  if (current) out.push(current)
  return out
}

/** Every vector a chunk carries. */
const vectorsIn = (chunk: string) => XSS_VECTORS.filter((v) => chunk.includes(v))

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
// The corpus loops are long; a single step that cannot happen must still fail fast.
test.use({ actionTimeout: 15_000, navigationTimeout: 30_000 })

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
  // Many vectors per request and per page load (chunks up to the search box's 512 characters):
  // every vector reaches every echo point, both in the HTML the server sends and rendered in
  // Chromium (server HTML, hydration and client render), in a fraction of the page loads one
  // vector per load would take.
  const batches = chunks(500, true)
  for (const chunk of batches) {
    for (const url of echoUrls(chunk)) {
      const res = await page.request.get(url, { headers: { accept: 'text/html' } })
      expect(res.status(), url).toBeLessThan(500)
      const body = await res.text()
      for (const v of vectorsIn(chunk)) expectEscaped(body, v, url)
    }
  }
  for (const chunk of batches) {
    for (const url of echoUrls(chunk)) {
      await page.goto(url, { waitUntil: 'load' })
      await poke(page)
    }
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
        for (const v of vectorsIn(chunk)) expectEscaped(await res.text(), v, post.url)
      const next = await page.goto(post.then)
      const html = (await next?.text()) ?? ''
      for (const v of vectorsIn(chunk)) expectEscaped(html, v, `${post.url} -> ${post.then}`)
    }
    await poke(page)
    expect(await ran(page), post.url).toBe(0)
  }
})

const DEMO = { email: 'demo@harbour-safety.example', password: 'Harbour-demo-2026' }

test('share and save basket names from the XSS corpus never run or land raw', async ({ page }) => {
  await withoutCsp(page)
  await page.goto('/login')
  const login = await page.request.post('/login', { data: DEMO, headers: await csrf(page), maxRedirects: 0 })
  expect(login.status()).toBeLessThan(400)
  // A basket to share and save: the first single-option row of a price-grid product.
  await page.goto('/safety-signs/prohibition-signs')
  await page.getByTestId('product-tile').first().getByRole('link').first().click()
  await expect(page).toHaveURL(/\/safety-signs\/prohibition-signs\/[a-z0-9-]+$/)
  const row = page.locator('tr[data-sku]', { hasNot: page.getByRole('combobox') }).first()
  await row.getByRole('textbox').fill('1')
  await row.getByRole('textbox').blur()
  await page.locator('section', { has: row }).getByRole('button', { name: 'Add to Basket' }).click()
  await expect(page).toHaveURL(/\/cart$/)

  const names = chunks(255, true)
  // The calls themselves: refused with field messages (JSON, never markup), never a 5xx.
  for (const name of names) {
    const share = await page.request.post('/cart/share', {
      data: { name, emails: 'friend@example.com' },
      headers: await csrf(page),
    })
    expect(share.status(), name).toBe(422)
    const save = await page.request.post('/cart/save', {
      data: { basketName: name },
      headers: await csrf(page),
    })
    expect(save.status(), name).toBe(422)
    expect(save.headers()['content-type']).toContain('application/json')
  }
  // Typed into the dialogs: the messages render, nothing runs.
  await page.getByRole('button', { name: 'Share Basket' }).click()
  const share = page.getByTestId('share-dialog')
  for (const name of names) {
    await share.getByLabel('Your name').fill(name)
    await share.getByLabel('E-mail addresses').fill('friend@example.com')
    await share.getByRole('button', { name: 'Send' }).click()
    await expect(share.getByLabel('Your name')).toHaveAttribute('aria-invalid', 'true')
  }
  await poke(page)
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: 'Save Basket' }).click()
  const save = page.getByTestId('save-dialog')
  for (const name of names) {
    await save.getByLabel('Basket name').fill(name)
    await save.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(save.getByLabel('Basket name')).toHaveAttribute('aria-invalid', 'true')
  }
  await poke(page)
  // Where saved baskets are listed, nothing of the corpus arrived.
  const carts = await page.goto('/customer/carts')
  const html = (await carts?.text()) ?? ''
  for (const v of XSS_VECTORS) expectEscaped(html, v, '/customer/carts')
  await poke(page)
  expect(await ran(page)).toBe(0)
})
