/**
 * Storefront fit and finish in Chromium against the seeded demo shop, both brands: no page
 * scrolls sideways on a phone, the product builder adds what was built, each site's own tax
 * wording, visible focus in the header and focus kept or moved where a keyboard user expects it.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import {
  generateSiteCatalog,
  type SeedGroup,
  type SiteCatalog,
} from '../../src/server/db/seed/catalog/generate.ts'
import { SITE_SPECS } from '../../src/server/db/seed/catalog/vocabulary.ts'

const port = Number(process.env.E2E_PORT ?? 4173)
const HARBOUR = `http://localhost:${port}`
const NORTHGATE = `http://127.0.0.1:${port}`

const catalogs = Object.fromEntries(SITE_SPECS.map((s) => [s.code, generateSiteCatalog(s)])) as Record<
  string,
  SiteCatalog
>

function groupsOf(code: string, test: (g: SeedGroup) => boolean = () => true): SeedGroup[] {
  const c = catalogs[code]!
  const cats = new Map(c.categories.map((x) => [x.url, x]))
  const live = new Set(c.skus.filter((s) => s.published).map((s) => s.groupUrl))
  return c.groups.filter(
    (g) => g.published && live.has(g.url) && cats.get(g.categoryUrl)?.published !== false && test(g),
  )
}

function pageTypes(code: string): string[] {
  const c = catalogs[code]!
  const top = c.categories.find((x) => x.depth === 1 && x.published)!
  const leaf = c.categories.find((x) => x.published && c.groups.some((g) => g.categoryUrl === x.url))!
  const layouts = ['Default', 'DefaultPGUnderLD', 'MediaLeft', 'SheltersLayout']
    .map((l) => groupsOf(code, (g) => g.layout === l)[0]?.url)
    .filter((u): u is string => !!u)
  const rowOptions = c.skus.find((s) => s.optionLabel && s.published)?.groupUrl
  const builder = groupsOf(code, (g) => !!c.categories.find((x) => x.url === g.categoryUrl)?.builder)[0]?.url
  return [
    '/',
    top.url,
    leaf.url,
    ...layouts,
    ...(rowOptions ? [rowOptions] : []),
    ...(builder ? [builder] : []),
    '/search?q=sign',
    '/search?q=zzqqxx',
    '/blog',
    '/sitemap',
    '/about-us',
    '/delivery-information',
    '/contact-us',
    '/imagemap',
    '/fast-order',
    '/login',
    '/register',
    '/forgot-password',
    '/no-such-page-here',
    '/cart',
  ]
}

/** Elements that stick out to the right of the viewport, for the failure message. */
async function overflow(page: Page): Promise<{ width: number; scroll: number; culprits: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const culprits: string[] = []
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      const r = el.getBoundingClientRect()
      if (r.width === 0 || r.right <= width + 1) continue
      const style = getComputedStyle(el)
      if (style.visibility === 'hidden' || style.position === 'fixed') continue
      // Inside a scrolling box of its own (a carousel, a wide table in a scroller) is fine.
      let p = el.parentElement
      let clipped = false
      while (p && p !== document.body) {
        const ox = getComputedStyle(p).overflowX
        if (ox === 'auto' || ox === 'scroll' || ox === 'hidden' || ox === 'clip') {
          clipped = true
          break
        }
        p = p.parentElement
      }
      if (clipped) continue
      culprits.push(
        `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)} right=${Math.round(r.right)}`,
      )
      if (culprits.length >= 5) break
    }
    return { width, scroll: document.documentElement.scrollWidth, culprits }
  })
}

/** Adds 2 of a plain price-grid product (no option rows, no minimum) and lands on the basket. */
async function addSomething(page: Page, base: string) {
  const code = base === HARBOUR ? 'harbour' : 'northgate'
  const skus = catalogs[code]!.skus
  const product = groupsOf(code, (g) => {
    const own = skus.filter((s) => s.groupUrl === g.url)
    return own.every((s) => !s.rowKey && s.minimumOrder === 1) && own[0]!.published && own[0]!.grid === 1
  })[0]!
  const sku = skus.find((s) => s.groupUrl === product.url)!
  await page.goto(`${base}${product.url}`)
  const field = page.locator(`tr[data-sku="${sku.sku}"]`).getByRole('textbox')
  await field.fill('2')
  await field.blur()
  await page
    .getByTestId('price-grid-1')
    .getByRole('button', { name: /^Add to (Basket|Cart)$/ })
    .click()
  await expect(page).toHaveURL(/\/cart$/, { timeout: 15_000 })
}

for (const [site, base, code] of [
  ['Harbour', HARBOUR, 'harbour'],
  ['Northgate', NORTHGATE, 'northgate'],
] as const) {
  for (const width of [320, 390]) {
    test(`no ${site} page scrolls sideways at ${width} px`, async ({ page }) => {
      test.setTimeout(180_000)
      await page.setViewportSize({ width, height: 800 })
      const problems: string[] = []
      for (const path of pageTypes(code)) {
        if (path === '/cart') {
          await addSomething(page, base)
        }
        await page.goto(`${base}${path}`)
        await page.waitForLoadState('networkidle')
        const o = await overflow(page)
        if (o.scroll > o.width)
          problems.push(`${path}: ${o.scroll}px wide in ${o.width}px (${o.culprits.join('; ')})`)
      }
      expect(problems).toEqual([])
    })
  }
}

test.describe('the product builder', () => {
  const c = catalogs.harbour!
  const builderCategories = c.categories.filter((x) => x.builder && x.published)
  for (const category of builderCategories) {
    const product = groupsOf('harbour', (g) => g.categoryUrl === category.url).at(-1)
    if (!product) continue
    test(`adds exactly the built ${product.name} to the basket`, async ({ page }) => {
      await page.goto(`${HARBOUR}${product.url}`)
      const builder = page.getByTestId('product-builder')
      // The second item of the second selector (e.g. a material), not the default.
      const second = builder.locator('fieldset').nth(1)
      const choice = second.getByRole('radio').nth(1)
      const choiceName = (await choice.locator('xpath=..').innerText()).replace(/\s*\(.*\)\s*$/, '').trim()
      const groupName = (await second.locator('legend').innerText()).trim()
      await choice.check()
      await builder.getByRole('button', { name: 'Increase builder quantity' }).click()
      const subtotal = (await builder.getByTestId('builder-subtotal').innerText()).replace(/^Subtotal\s*/, '')
      await builder.getByRole('button', { name: 'Add to Basket' }).click()
      await expect(page).toHaveURL(/\/cart$/)
      const line = page.getByTestId('cart-line').first()
      await expect(line.getByRole('link').first()).toHaveText(
        new RegExp(`^${product.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} – `),
      )
      await expect(line).toContainText(`${groupName}: ${choiceName}`)
      await expect(line.getByTestId('line-total')).toHaveText(subtotal.trim())
    })
  }
})

test.describe('tax per site', () => {
  test('Northgate (USD) shows no UK VAT anywhere a price is', async ({ page }) => {
    const product = groupsOf('northgate', (g) => g.layout === 'Default')[0]!
    await page.goto(`${NORTHGATE}${product.url}`)
    await expect(page.locator('main')).not.toContainText('VAT')
    await addSomething(page, NORTHGATE)
    const totals = page.locator('[data-testid=cart-totals]:visible, [data-testid=summary-totals]:visible')
    await expect(totals).toContainText('Subtotal')
    await expect(page.locator('main')).not.toContainText('VAT')
    await expect(totals.getByTestId('total-vat')).toHaveCount(0)
  })

  test('Harbour says prices exclude VAT at 20% and charges VAT in the basket', async ({ page }) => {
    await addSomething(page, HARBOUR)
    const totals = page.locator('[data-testid=cart-totals]:visible, [data-testid=summary-totals]:visible')
    await expect(totals).toContainText('Subtotal (ex VAT)')
    await expect(totals.getByTestId('total-vat')).toBeVisible()
  })
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

test.describe('focus', () => {
  for (const [site, base] of [
    ['Harbour', HARBOUR],
    ['Northgate', NORTHGATE],
  ] as const) {
    for (const width of [1366, 390]) {
      test(`every ${site} header control shows a focus ring with 3:1 contrast at ${width} px`, async ({
        page,
      }) => {
        await page.setViewportSize({ width, height: 800 })
        await page.goto(`${base}/`)
        const header = page.locator('header').first()
        const background = await header.evaluate((h) => getComputedStyle(h).backgroundColor)
        const controls = header.locator('a:visible, button:visible, input:visible')
        const count = await controls.count()
        expect(count).toBeGreaterThan(1)
        const weak: string[] = []
        // Reach each control from the keyboard (Tab), so :focus-visible applies.
        await page.keyboard.press('Tab') // skip link
        for (let i = 0; i < 40; i++) {
          await page.keyboard.press('Tab')
          const info = await page.evaluate(() => {
            const el = document.activeElement as HTMLElement | null
            if (!el || !el.closest('header')) return null
            const s = getComputedStyle(el)
            return {
              name: el.getAttribute('aria-label') || el.textContent?.trim().slice(0, 30) || el.tagName,
              style: s.outlineStyle,
              width: parseFloat(s.outlineWidth),
              colour: s.outlineColor,
            }
          })
          if (!info) break
          if (info.style === 'none' || info.width < 2 || contrast(info.colour, background) < 3)
            weak.push(`${info.name}: ${info.style} ${info.width}px ${info.colour} on ${background}`)
        }
        expect(weak).toEqual([])
      })
    }
  }

  test('a basket + and − keep the keyboard focus', async ({ page }) => {
    await addSomething(page, HARBOUR)
    const plus = page.getByRole('button', { name: /^Increase quantity for/ }).first()
    await plus.focus()
    await page.keyboard.press('Enter')
    await page.waitForResponse((r) => r.url().includes('/cart/'))
    await page.waitForTimeout(300)
    await expect(plus).toBeFocused()
    const minus = page.getByRole('button', { name: /^Decrease quantity for/ }).first()
    await minus.focus()
    await page.keyboard.press('Enter')
    await page.waitForResponse((r) => r.url().includes('/cart/'))
    await page.waitForTimeout(300)
    await expect(minus).toBeFocused()
  })

  test('a client-side visit moves focus to the new page’s main heading', async ({ page }) => {
    await page.goto(`${HARBOUR}/`)
    await page.waitForLoadState('networkidle')
    const link = page.locator('footer').getByRole('link', { name: 'Sitemap' })
    await link.focus()
    await page.keyboard.press('Enter')
    await page.waitForURL(/\/sitemap$/)
    await expect(page.locator('#main-content h1').first()).toBeFocused()
  })
})

test.describe('price grids at every width', () => {
  const c = catalogs.harbour!
  const optionSku = c.skus.find(
    (s) =>
      s.published &&
      s.optionLabel &&
      c.skus.filter((o) => o.rowKey === s.rowKey && o.published).length > 2 &&
      groupsOf('harbour', (g) => g.url === s.groupUrl).length > 0,
  )!
  const rowSkus = c.skus.filter((o) => o.rowKey === optionSku.rowKey && o.published)
  const product = optionSku.groupUrl

  for (const width of [1366, 390]) {
    test(`the option grid shows every column, its totals and follows the chosen option at ${width} px`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 })
      await page.goto(`${HARBOUR}${product}`)
      const grid = page.getByTestId(`price-grid-${optionSku.grid}`)
      const row = grid
        .locator(`[data-row]`)
        .filter({ has: page.getByRole('combobox') })
        .first()
      const field = row.getByRole('textbox')
      await expect(row.getByText('Choose an option first')).toBeVisible()
      const chosen = rowSkus[1]!
      await row.getByRole('combobox').selectOption({ label: chosen.optionLabel! })
      await expect(row.getByText('Choose an option first')).toHaveCount(0)
      await expect(row).toContainText(chosen.description)
      await field.fill('3')
      // Nothing of the grid is outside its box: code, description, row total and grid total.
      const box = (await grid.boundingBox())!
      for (const part of [
        row.locator('td').first(),
        row.getByTestId('row-total'),
        grid.getByTestId('grid-total'),
      ]) {
        await expect(part).toBeVisible()
        const b = (await part.boundingBox())!
        expect(b.x).toBeGreaterThanOrEqual(box.x - 1)
        expect(b.x + b.width).toBeLessThanOrEqual(box.x + box.width + 1)
      }
      const scroller = grid.getByRole('region')
      expect(await scroller.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1)
    })
  }
})

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)
}

test.describe('the sign-in pages', () => {
  for (const [site, base, cartName] of [
    ['Harbour', HARBOUR, 'Basket'],
    ['Northgate', NORTHGATE, 'Cart'],
  ] as const) {
    test(`keep ${site}'s header, logo and ${cartName.toLowerCase()} in readable colours`, async ({
      page,
    }) => {
      test.setTimeout(90_000)
      for (const path of [
        '/login',
        '/register',
        '/forgot-password',
        '/reset-password?token=abc&email=a%40example.com',
      ]) {
        await page.goto(`${base}${path}`)
        const banner = page.getByRole('banner')
        await expect(banner.getByTestId('site-logo'), path).toHaveAttribute('href', '/')
        await expect(banner.getByTestId('cart-summary'), path).toContainText(`${cartName}:`)
        // The logo is drawn for the header: it sits on the header's own background.
        const backgrounds = await banner.getByTestId('site-logo').evaluate((el) => {
          let node: Element | null = el
          while (node && getComputedStyle(node).backgroundColor === 'rgba(0, 0, 0, 0)')
            node = node.parentElement
          return [
            node ? getComputedStyle(node).backgroundColor : '',
            getComputedStyle(document.querySelector('header')!).backgroundColor,
          ]
        })
        expect(backgrounds[0], path).toBe(backgrounds[1])
        await expect(page.getByRole('contentinfo'), path).toBeVisible()
        expect(await seriousViolations(page), `${site} ${path}`).toEqual([])
      }
    })
  }

  test('logging in from the basket comes back to the basket', async ({ page }) => {
    await addSomething(page, HARBOUR)
    await page.getByRole('banner').getByRole('link', { name: 'Login' }).click()
    await expect(page).toHaveURL(/\/login\?intended=%2Fcart$/)
    await page.getByLabel('Email').fill('demo@harbour-safety.example')
    await page.getByLabel('Password').fill('Harbour-demo-2026')
    await page.getByRole('button', { name: 'Log In' }).click()
    await expect(page).toHaveURL(/\/cart$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Basket' })).toBeVisible()
    await expect(page.getByTestId('cart-form')).toBeVisible()
  })
})

test.describe('the basket', () => {
  test("'Empty Basket' asks first, in a dialog a keyboard can answer", async ({ page }) => {
    await addSomething(page, HARBOUR)
    const empty = page.getByRole('button', { name: 'Empty Basket' })
    await empty.focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'Empty your basket?' })
    await expect(dialog).toBeVisible()
    await expect(dialog).toContainText('This removes every item from your basket. It cannot be undone.')
    await expect(dialog.getByRole('button', { name: 'Keep my basket' })).toBeFocused()
    expect(await seriousViolations(page)).toEqual([])
    // Escape keeps the basket and gives the focus back.
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await expect(page.getByTestId('cart-line')).toHaveCount(1)
    await expect(empty).toBeFocused()
    // 'Keep my basket' keeps it too.
    await page.keyboard.press('Enter')
    await page.keyboard.press('Enter')
    await expect(dialog).toBeHidden()
    await expect(page.getByTestId('cart-line')).toHaveCount(1)
    // Confirmed: emptied.
    await page.keyboard.press('Enter')
    await expect(dialog.getByRole('button', { name: 'Keep my basket' })).toBeFocused()
    await page.keyboard.press('Tab')
    await expect(dialog.getByRole('button', { name: 'Empty Basket' })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page.getByText('No items in your shopping cart')).toBeVisible()
    await expect(page.getByTestId('cart-summary')).toContainText('Basket: 0 items')
  })

  test("Northgate's basket is its Cart, and a line's code is the code its product page shows", async ({
    page,
  }) => {
    await addSomething(page, NORTHGATE)
    await expect(page.getByRole('heading', { level: 1, name: 'Cart' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Empty Cart' })).toBeVisible()
    await expect(page.getByRole('table', { name: 'Items in your cart' })).toBeAttached()
    const line = page.getByTestId('cart-line').first()
    const sku = await line.getAttribute('data-sku')
    const code = (await line.getByTestId('line-code').textContent())!.replace('Code:', '').trim()
    await line.getByRole('link').first().click()
    await expect(page.locator(`tr[data-sku="${sku}"] td`).first()).toHaveText(code)
  })
})
