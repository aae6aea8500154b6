/**
 * Keyboard, screen-reader and phone checks across the shop (issue 31, part 2), in Chromium against
 * the seeded demo shop on both brands (localhost: Harbour, GBP; 127.0.0.1: Northgate, USD): no
 * page scrolls sideways at 320 px, the header holds at 320-375 px and at 200 % text size, the
 * basket holds at 200 % text size, and axe-core (WCAG 2.2 AA rules) finds nothing on the basket
 * and the login page with an error shown, or on the two-factor page.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { generateSiteCatalog, type SiteCatalog } from '../../src/server/db/seed/catalog/generate.ts'
import { SITE_SPECS } from '../../src/server/db/seed/catalog/vocabulary.ts'

const port = Number(process.env.E2E_PORT ?? 4173)
const HARBOUR = `http://localhost:${port}`
const NORTHGATE = `http://127.0.0.1:${port}`
const SITES = [
  {
    name: 'Harbour',
    base: HARBOUR,
    code: 'harbour',
    login: ['demo@harbour-safety.example', 'Harbour-demo-2026'],
  },
  {
    name: 'Northgate',
    base: NORTHGATE,
    code: 'northgate',
    login: ['demo@northgate-workplace.example', 'Northgate-demo-2026'],
  },
] as const
const TWO_FA = { email: 'twofactor@harbour-safety.example', password: 'Harbour-2fa-2026!' }
const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

const catalogs = Object.fromEntries(SITE_SPECS.map((s) => [s.code, generateSiteCatalog(s)])) as Record<
  string,
  SiteCatalog
>

/** A published category with products, and a plain product of it (one grid, no options, minimum 1). */
function samplePages(code: string): { category: string; product: string; sku: string } {
  const c = catalogs[code]!
  const cats = new Map(c.categories.map((x) => [x.url, x]))
  const product = c.groups.find((g) => {
    const own = c.skus.filter((s) => s.groupUrl === g.url)
    return (
      g.published &&
      cats.get(g.categoryUrl)?.published !== false &&
      !cats.get(g.categoryUrl)?.builder &&
      own.length > 0 &&
      own.every((s) => s.published && !s.rowKey && s.minimumOrder === 1 && s.grid === 1)
    )
  })!
  const sku = c.skus.find((s) => s.groupUrl === product.url)!.sku
  return { category: product.categoryUrl, product: product.url, sku }
}

/** Adds 2 of the sample product and lands on the basket. */
async function addSomething(page: Page, base: string, code: string) {
  const { product, sku } = samplePages(code)
  await page.goto(`${base}${product}`)
  const field = page.locator(`tr[data-sku="${sku}"]`).getByRole('textbox')
  await field.fill('2')
  await field.blur()
  await page
    .getByTestId('price-grid-1')
    .getByRole('button', { name: /^Add to (Basket|Cart)$/ })
    .click()
  await expect(page).toHaveURL(/\/cart$/, { timeout: 15_000 })
}

async function logIn(page: Page, base: string, email: string, password: string, succeeds = true) {
  await page.goto(`${base}/login`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Log In' }).click()
  if (succeeds) await expect(page).not.toHaveURL(/\/login/)
}

/** How far the page scrolls sideways, and what sticks out, for the failure message. */
async function sideways(page: Page): Promise<{ over: number; culprits: string[] }> {
  return page.evaluate(() => {
    const width = window.innerWidth
    const over = document.scrollingElement!.scrollWidth - width
    const culprits: string[] = []
    if (over > 0) {
      for (const el of Array.from(document.querySelectorAll('body *'))) {
        const r = el.getBoundingClientRect()
        if (r.width > 0 && r.right > width + 1 && getComputedStyle(el).position !== 'fixed')
          culprits.push(
            `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 50)} right=${Math.round(r.right)}`,
          )
        if (culprits.length >= 5) break
      }
    }
    return { over, culprits }
  })
}

async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze()
  return result.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  )
}

/** The browser's text size (Chromium's default font size setting), as a visitor would set it. */
async function setTextSize(page: Page, percent: number) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Page.setFontSizes', {
    fontSizes: { standard: Math.round((16 * percent) / 100), fixed: Math.round((13 * percent) / 100) },
  })
}

for (const site of SITES) {
  test(`no ${site.name} page scrolls sideways at 320 px: home, category, product, search, basket, login and account`, async ({
    page,
  }) => {
    test.setTimeout(240_000)
    await page.setViewportSize({ width: 320, height: 720 })
    const { category, product } = samplePages(site.code)
    const problems: string[] = []
    const check = async (path: string) => {
      await page.goto(`${site.base}${path}`)
      await page.waitForLoadState('networkidle')
      const s = await sideways(page)
      if (s.over > 0) problems.push(`${path}: ${s.over}px too wide (${s.culprits.join('; ')})`)
    }
    for (const path of ['/', category, product, '/search?q=sign', '/login']) await check(path)
    await addSomething(page, site.base, site.code)
    await check('/cart')
    await logIn(page, site.base, site.login[0], site.login[1])
    await expect(page.getByRole('banner').getByRole('button', { name: /My Account/ })).toBeAttached()
    for (const path of [
      '/customer',
      '/customer/orders',
      '/customer/update',
      '/customer/password/change',
      '/customer/invoices',
      '/customer/carts',
      '/customer/marketing-preferences',
    ])
      await check(path)
    expect(problems).toEqual([])
  })

  for (const width of [320, 360, 375]) {
    test(`${site.name}'s header controls stay clear of the brand name at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 700 })
      await page.goto(`${site.base}/`)
      const bar = page.locator('header .hdr-bar')
      const boxes = await bar.evaluate((el) =>
        Array.from(el.children)
          .filter((c) => getComputedStyle(c).display !== 'none')
          .map((c) => {
            const r = c.getBoundingClientRect()
            return { name: c.className || c.tagName, left: r.left, right: r.right }
          }),
      )
      // Each control starts after the previous one ends (the logo included), inside the screen.
      for (let i = 1; i < boxes.length; i++)
        expect(boxes[i]!.left, `${boxes[i]!.name} after ${boxes[i - 1]!.name}`).toBeGreaterThanOrEqual(
          boxes[i - 1]!.right - 0.5,
        )
      expect(boxes.at(-1)!.right).toBeLessThanOrEqual(width)
      const logo = page.getByTestId('site-logo')
      const inner = await logo.evaluate((a) => {
        const img = a.querySelector('img') ?? a.firstElementChild!
        return { img: img.getBoundingClientRect().right, link: a.getBoundingClientRect().right }
      })
      expect(inner.img).toBeLessThanOrEqual(inner.link + 0.5)
      // The basket's total is still said, though not shown, on the narrowest screens.
      await expect(page.getByTestId('cart-summary')).toContainText(/total/)
    })
  }
}

test.describe('the header', () => {
  test("Harbour's search box shows a focus ring that stands out from the header (3:1)", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto(`${HARBOUR}/`)
    const input = page.getByRole('banner').getByRole('combobox').first()
    await input.focus()
    await page.keyboard.press('Shift+Tab')
    await page.keyboard.press('Tab')
    await expect(input).toBeFocused()
    const ring = await input.evaluate((el) => {
      const form = el.closest('.srch-form')!
      const header = el.closest('header')!
      const s = getComputedStyle(form)
      return {
        style: s.outlineStyle,
        width: parseFloat(s.outlineWidth),
        colour: s.outlineColor,
        header: getComputedStyle(header).backgroundColor,
      }
    })
    expect(ring.style).toBe('solid')
    expect(ring.width).toBeGreaterThanOrEqual(2)
    expect(contrast(ring.colour, ring.header)).toBeGreaterThanOrEqual(3)
  })

  for (const site of SITES) {
    test(`${site.name}'s main menu and search box grow with the text size (200 %)`, async ({ page }) => {
      // The layout's breakpoints are in rem, so at 200 % text a 1280 px window gets the phone
      // layout; the desktop header is checked where it still shows at that text size.
      await page.setViewportSize({ width: 1700, height: 900 })
      await page.goto(`${site.base}/`)
      const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link').first()
      const before = await link.evaluate((el) => parseFloat(getComputedStyle(el).fontSize))
      await setTextSize(page, 200)
      await page.reload()
      await expect(link).toBeVisible()
      const after = await link.evaluate((el) => parseFloat(getComputedStyle(el).fontSize))
      expect(after).toBeCloseTo(before * 2, 0)
      // The search field is tall enough for its text: nothing of it is cut.
      const search = page.getByRole('banner').getByRole('combobox').first()
      await expect(search).toBeVisible()
      const field = await search.evaluate((el) => {
        const form = el.closest('.srch-form')!.getBoundingClientRect()
        return { box: form.height, text: parseFloat(getComputedStyle(el).fontSize), right: form.right }
      })
      expect(field.box).toBeGreaterThanOrEqual(field.text * 1.2)
      expect(field.right).toBeLessThanOrEqual(1700)
      expect((await sideways(page)).over).toBeLessThanOrEqual(0)
      // At 1280 px the phone layout takes over and still fits.
      await page.setViewportSize({ width: 1280, height: 900 })
      await page.reload()
      expect((await sideways(page)).over).toBeLessThanOrEqual(0)
    })
  }
})

/** WCAG contrast ratio of two rgb() colours. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map((v) => {
      const s = Number(v) / 255
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
    })
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!
  }
  const [x, y] = [lum(a), lum(b)].sort((m, n) => n - m)
  return (x! + 0.05) / (y! + 0.05)
}

test.describe('the basket', () => {
  for (const site of SITES) {
    test(`${site.name}'s basket holds at 200 % text size`, async ({ page }) => {
      await page.setViewportSize({ width: 1280, height: 900 })
      await addSomething(page, site.base, site.code)
      await setTextSize(page, 200)
      for (const width of [1280, 768]) {
        await page.setViewportSize({ width, height: 900 })
        await page.reload()
        await page.waitForLoadState('networkidle')
        const s = await sideways(page)
        expect(s.over, `${width}px: ${s.culprits.join('; ')}`).toBeLessThanOrEqual(0)
        const line = page.getByTestId('cart-line').first()
        for (const part of [
          line.getByRole('link').first(),
          line.getByRole('textbox'),
          line.getByTestId('line-total'),
        ]) {
          await expect(part).toBeVisible()
          const b = (await part.boundingBox())!
          expect(b.x + b.width).toBeLessThanOrEqual(width)
        }
      }
    })
  }

  for (const site of SITES)
    test(`${site.name}'s checkout holds at 200 % text size: no sideways scroll, fields tall enough, labels apart`, async ({
      page,
    }) => {
      test.setTimeout(120_000)
      await page.setViewportSize({ width: 1280, height: 900 })
      await addSomething(page, site.base, site.code)
      await setTextSize(page, 200)
      await page.goto(`${site.base}/checkout`)
      await page.getByRole('radio', { name: /Purchase Order/ }).check()
      await page.getByTestId('continue').click()
      await expect(page.locator('#step-2-heading')).toBeFocused()
      for (const width of [1280, 768]) {
        await page.setViewportSize({ width, height: 900 })
        const s = await sideways(page)
        expect(s.over, `${width}px: ${s.culprits.join('; ')}`).toBeLessThanOrEqual(0)
        const problems = await page.evaluate(() => {
          const out: string[] = []
          const shown = (el: Element) => (el as HTMLElement).offsetParent !== null
          const fields = [
            ...document.querySelectorAll(
              'main input:not([type=radio]):not([type=checkbox]):not([type=hidden]), main select',
            ),
          ].filter(shown)
          if (fields.length < 6) out.push(`only ${fields.length} fields shown on step 2`)
          for (const f of fields) {
            const style = getComputedStyle(f)
            if (f.clientHeight < parseFloat(style.fontSize) * 1.15)
              out.push(`${f.id || f.getAttribute('name')}: ${f.clientHeight}px for ${style.fontSize} text`)
            const r = f.getBoundingClientRect()
            if (r.right > window.innerWidth + 0.5) out.push(`${f.id}: past the right edge`)
          }
          const labels = [...document.querySelectorAll('main label')]
            .filter(shown)
            .map((l) => ({ t: l.textContent?.trim() ?? '', r: l.getBoundingClientRect() }))
          for (let i = 0; i < labels.length; i++)
            for (let j = i + 1; j < labels.length; j++) {
              const [a, b] = [labels[i]!.r, labels[j]!.r]
              const overlap =
                Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
                Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1
              if (overlap) out.push(`labels '${labels[i]!.t}' and '${labels[j]!.t}' overlap`)
            }
          return out
        })
        expect(problems, `${width}px`).toEqual([])
      }
    })

  test('has no WCAG 2.2 AA violations with a promo error shown, and announces a quantity change', async ({
    page,
  }) => {
    await addSomething(page, HARBOUR, 'harbour')
    await page.getByPlaceholder('Enter code').fill('NO-SUCH-CODE')
    await page.getByRole('button', { name: 'Apply' }).click()
    const alert = page.getByTestId('promo-error')
    await expect(alert).toBeVisible()
    await expect(alert).toHaveAttribute('role', 'alert')
    await expect(alert.locator('ul > li')).not.toHaveCount(0)
    expect(await axeViolations(page)).toEqual([])
    // The + is announced in the polite live region with the line and the new summary.
    await page
      .getByRole('button', { name: /^Increase quantity for/ })
      .first()
      .click()
    await expect(page.getByTestId('cart-announcement')).toContainText(': quantity 3, line total ')
    await expect(page.getByTestId('cart-announcement')).toContainText('Basket: 3 items, total £')
  })
})

test.describe('sign-in pages', () => {
  test('the login page has no WCAG 2.2 AA violations with an error shown', async ({ page }) => {
    await logIn(page, HARBOUR, 'nobody@example.com', 'Wrong-password-1', false)
    const list = page.getByTestId('error-list')
    await expect(list).toContainText('These credentials do not match our records.')
    await expect(list).toHaveAttribute('role', 'alert')
    expect(await axeViolations(page)).toEqual([])
  })

  test('the two-factor page has no WCAG 2.2 AA violations, before and after a wrong code', async ({
    page,
  }) => {
    await logIn(page, HARBOUR, TWO_FA.email, TWO_FA.password)
    await expect(page).toHaveURL(/\/two-factor-challenge$/)
    expect(await axeViolations(page)).toEqual([])
    await page.locator('input[name=code]').fill('000000')
    await page.getByRole('button', { name: 'Log In' }).click()
    await expect(page.getByTestId('error-list')).toBeVisible()
    expect(await axeViolations(page)).toEqual([])
  })
})

test.describe('the account', () => {
  test('the orders table keeps each order’s Total and Reorder in view at 390 px', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await logIn(page, HARBOUR, SITES[0].login[0], SITES[0].login[1])
    await page.goto(`${HARBOUR}/customer/orders`)
    const rows = page.locator('[data-testid^="order-row-"]')
    await expect(rows.first()).toBeVisible()
    for (const row of await rows.all()) {
      for (const part of [
        row.getByTestId('order-total'),
        row.getByRole('button', { name: /^Reorder order/ }),
      ]) {
        const b = (await part.boundingBox())!
        expect(b.x).toBeGreaterThanOrEqual(0)
        expect(b.x + b.width).toBeLessThanOrEqual(390)
      }
    }
  })

  test('a wrong current password keeps the new password fields and does not call them required', async ({
    page,
  }) => {
    await logIn(page, HARBOUR, SITES[0].login[0], SITES[0].login[1])
    await page.goto(`${HARBOUR}/customer/password/change`)
    await page.getByRole('textbox', { name: 'Current password' }).fill('Not-my-password-1')
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill('Brand-new-pass-42')
    await page.getByRole('textbox', { name: 'Confirm new password' }).fill('Brand-new-pass-42')
    await page.getByRole('button', { name: 'Change Password' }).click()
    await expect(page.getByText('The provided password does not match your current password.')).toBeVisible()
    await expect(page.getByRole('textbox', { name: 'New password', exact: true })).toHaveValue(
      'Brand-new-pass-42',
    )
    await expect(page.getByRole('textbox', { name: 'Confirm new password' })).toHaveValue('Brand-new-pass-42')
    await expect(page.getByText('This field is required.')).toHaveCount(0)
  })
})

test.describe('landmarks', () => {
  test('no two regions of a product page share a name', async ({ page }) => {
    const { product } = samplePages('harbour')
    await page.goto(`${HARBOUR}${product}`)
    const names = await page.evaluate(() =>
      Array.from(
        document.querySelectorAll('section[aria-labelledby], section[aria-label], [role="region"]'),
      ).map(
        (el) =>
          el.getAttribute('aria-label') ??
          (el.getAttribute('aria-labelledby') ?? '')
            .split(' ')
            .map((id) => document.getElementById(id)?.textContent?.trim() ?? '')
            .join(' '),
      ),
    )
    expect(names.length).toBeGreaterThan(1)
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([])
  })

  test("Northgate's first heading is the page's h1, not the sidebar's title", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    const { category } = samplePages('northgate')
    for (const path of ['/', category]) {
      await page.goto(`${NORTHGATE}${path}`)
      const first = await page.evaluate(() => document.querySelector('h1, h2, h3, h4, h5, h6')?.tagName)
      expect(first, path).toBe('H1')
    }
  })
})
