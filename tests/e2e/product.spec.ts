/**
 * The Product page in Chromium against the seeded demo catalogue. The products under test are
 * picked from the demo generator's own output (the seed is deterministic), by what they have,
 * so the tests follow the vocabulary rather than hard-coded paths.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import {
  generateSiteCatalog,
  type SeedGroup,
  type SeedSku,
} from '../../src/server/db/seed/catalog/generate.ts'
import { SITE_SPECS } from '../../src/server/db/seed/catalog/vocabulary.ts'

const catalog = generateSiteCatalog(SITE_SPECS.find((s) => s.code === 'harbour')!)
const skusOf = new Map<string, SeedSku[]>()
for (const sku of catalog.skus)
  if (sku.published) skusOf.set(sku.groupUrl, [...(skusOf.get(sku.groupUrl) ?? []), sku])
const categoryByUrl = new Map(catalog.categories.map((c) => [c.url, c]))

function pick(what: string, test: (g: SeedGroup, skus: SeedSku[]) => boolean): SeedGroup {
  const group = catalog.groups.find((g) => {
    const skus = skusOf.get(g.url) ?? []
    return (
      g.published && skus.length > 0 && categoryByUrl.get(g.categoryUrl)?.published !== false && test(g, skus)
    )
  })
  if (!group) throw new Error(`the demo catalogue has no product with ${what}`)
  return group
}

const LAYOUTS = ['Default', 'DefaultPGUnderLD', 'MediaLeft', 'SheltersLayout'] as const
const byLayout = Object.fromEntries(LAYOUTS.map((l) => [l, pick(`layout ${l}`, (g) => g.layout === l)]))
const images = (g: SeedGroup) => g.media.filter((m) => m.type !== 'video' && m.type !== 'audio')
const galleryProduct = pick('several images', (g) => images(g).length >= 2)
const singleRow = (skus: SeedSku[]) =>
  skus.filter((s) => !s.rowKey || skus.filter((o) => o.rowKey === s.rowKey).length === 1)
const minimumProduct = pick('a single-SKU row with a minimum order above 1', (_g, skus) =>
  singleRow(skus).some((s) => s.minimumOrder > 1),
)
const minimumSku = singleRow(skusOf.get(minimumProduct.url)!).find((s) => s.minimumOrder > 1)!
const optionProduct = pick('a row of several SKUs', (_g, skus) =>
  skus.some((s) => s.rowKey && skus.filter((o) => o.rowKey === s.rowKey).length > 1),
)
const optionSkus = skusOf.get(optionProduct.url)!
const optionRowKey = optionSkus.find(
  (s) => optionSkus.filter((o) => o.rowKey === s.rowKey && s.rowKey).length > 1,
)!.rowKey
const optionSku = optionSkus.filter((s) => s.rowKey === optionRowKey)[1]!
const builderProduct = pick('a category builder', (g) => !!categoryByUrl.get(g.categoryUrl)?.builder)
const tabsProduct = pick('description tabs', (g) => (g.longDescriptionStructured?.tabs?.length ?? 0) >= 2)

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)
}

function watchErrors(page: Page): string[] {
  const problems: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text())
  })
  page.on('pageerror', (e) => problems.push(e.message))
  return problems
}

function money(text: string | null): number {
  return Number((text ?? '').replace(/[^0-9.]/g, ''))
}

test.describe('product layouts', () => {
  for (const layout of LAYOUTS) {
    test(`renders the ${layout} layout server-side and hydrates without errors`, async ({
      page,
      request,
    }) => {
      const product = byLayout[layout]!
      const html = await (await request.get(product.url)).text()
      expect(html).toContain(`data-layout="${layout}"`)

      const problems = watchErrors(page)
      await page.goto(product.url)
      await expect(page).toHaveTitle(`${product.name} | Harbour Safety Supplies`)
      const article = page.locator(`article[data-layout="${layout}"]`)
      await expect(article).toBeVisible()
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(product.name)
      await expect(
        page.getByRole('navigation', { name: 'Breadcrumb' }).getByText(product.name),
      ).toHaveAttribute('aria-current', 'page')
      await expect(page.getByTestId('price-grid-1')).toBeVisible()
      await expect(page.getByTestId('shopping-guarantee')).toBeVisible()
      await expect(page.getByRole('region', { name: 'Customer reviews' })).toHaveCount(
        layout === 'SheltersLayout' ? 1 : 0,
      )
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
        'href',
        new RegExp(`${product.url}$`),
      )
      expect(problems).toEqual([])
    })
  }

  test('puts schema.org Product data with an AggregateOffer in the head', async ({ page }) => {
    const product = byLayout.Default!
    await page.goto(product.url)
    const blocks = await page.locator('head script[type="application/ld+json"]').allTextContents()
    const data = blocks
      .map((b) => JSON.parse(b) as Record<string, unknown>)
      .find((d) => d['@type'] === 'Product')
    expect(data).toBeDefined()
    expect(data!.name).toBe(product.name)
    const offers = data!.offers as {
      '@type': string
      offerCount: number
      offers?: unknown
      priceCurrency: string
      lowPrice: string
      highPrice: string
    }
    expect(offers['@type']).toBe('AggregateOffer')
    expect(offers.priceCurrency).toBe('GBP')
    expect(offers.offerCount).toBeGreaterThan(0)
    expect(offers.offers).toBeUndefined()
    expect(Number(offers.lowPrice)).toBeLessThanOrEqual(Number(offers.highPrice))
  })

  test('has no serious or critical accessibility violations', async ({ page }) => {
    for (const layout of ['Default', 'SheltersLayout'] as const) {
      await page.goto(byLayout[layout]!.url)
      await expect(page.getByTestId('product-gallery')).toHaveAttribute('data-state', 'ready')
      expect(await seriousViolations(page), layout).toEqual([])
    }
  })
})

test.describe('gallery', () => {
  test('shows at most three thumbnails of at most 80 px and opens the zoom, which Escape closes', async ({
    page,
  }) => {
    await page.goto(galleryProduct.url)
    const gallery = page.getByTestId('product-gallery')
    await expect(gallery).toHaveAttribute('data-state', 'ready')
    const thumbs = page.getByTestId('gallery-thumbnails').getByRole('button', { name: /^Show (image|video)/ })
    expect(await thumbs.count()).toBeLessThanOrEqual(3)
    const box = await thumbs.first().boundingBox()
    expect(box!.width).toBeLessThanOrEqual(80)

    await thumbs.nth(1).click()
    await expect(thumbs.nth(1)).toHaveAttribute('aria-current', 'true')

    await page.getByRole('button', { name: /^Previous image/ }).click()
    await page.getByRole('button', { name: /^Enlarge image 1/ }).click()
    const dialog = page.getByRole('dialog', { name: 'Enlarged image' })
    await expect(dialog).toBeVisible()
    await expect(dialog.getByRole('img')).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await expect(page.getByRole('button', { name: /^Enlarge image 1/ })).toBeFocused()
  })
})

test.describe('price grid', () => {
  test('applies the quantity rules: typing below the minimum raises it, plus and minus clamp', async ({
    page,
  }) => {
    await page.goto(minimumProduct.url)
    const min = minimumSku.minimumOrder
    const label = `Quantity for ${minimumSku.productCode}`
    const field = page.getByRole('textbox', { name: label, exact: true })
    await expect(field).toHaveValue('0')

    await field.fill('1')
    await field.blur()
    await expect(field).toHaveValue(String(min))

    await page
      .getByRole('button', { name: `Decrease quantity for ${minimumSku.productCode}`, exact: true })
      .click()
    await expect(field).toHaveValue('0')
    await page
      .getByRole('button', { name: `Increase quantity for ${minimumSku.productCode}`, exact: true })
      .click()
    await expect(field).toHaveValue(String(min))
    await page
      .getByRole('button', { name: `Increase quantity for ${minimumSku.productCode}`, exact: true })
      .click()
    await expect(field).toHaveValue(String(min + 1))

    await field.fill('123456')
    await expect(field).toHaveValue('9999')
    await field.fill('abc')
    await page
      .getByRole('button', { name: `Increase quantity for ${minimumSku.productCode}`, exact: true })
      .click()
    await expect(field).toHaveValue(String(Math.max(1, min)))

    // The row total is the highlighted bracket's unit price × quantity.
    await field.fill(String(min))
    await field.blur()
    const row = page.locator('tr', { has: field })
    const unit = money(await row.locator('td[data-active]').innerText())
    expect(unit).toBeGreaterThan(0)
    expect(money(await row.getByTestId('row-total').textContent())).toBeCloseTo(unit * min, 2)
    await expect(page.getByRole('button', { name: 'Add to Basket' }).first()).toBeEnabled()
  })

  test('zeroes the siblings and sets the chosen option of a dropdown row', async ({ page }) => {
    await page.route('**/cart/add', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }),
    )
    await page.goto(optionProduct.url)
    const row = page.locator(`tr[data-row]`, { has: page.getByRole('combobox') }).first()
    const select = row.getByRole('combobox')
    const field = row.getByRole('textbox')
    await expect(select).toHaveValue('')
    await expect(select.locator('option:checked')).toHaveText('Select an option')
    await expect(field).toBeDisabled()

    await select.selectOption({ index: 1 })
    await expect(field).toHaveValue(/^[1-9]\d*$/)
    await field.fill('7')
    await field.blur()
    await select.selectOption({ index: 2 })
    const chosen = Number((await select.inputValue()).replace('P', ''))
    await expect(field).toHaveValue('7')
    expect(money(await row.getByTestId('row-total').textContent())).toBeGreaterThan(0)

    const request = page.waitForRequest('**/cart/add')
    await page.locator('section', { has: row }).getByRole('button', { name: 'Add to Basket' }).click()
    // The price grid sends its list of entries, each with its items (spec §7).
    const body = (await request).postDataJSON() as { items: { listing_id: number; quantity: number }[] }[]
    expect(body).toEqual([{ items: [expect.objectContaining({ listing_id: chosen, quantity: 7 })] }])
  })

  test('pre-selects, highlights and scrolls to the row named by ?sku=', async ({ page }) => {
    await page.goto(`${optionProduct.url}?sku=${encodeURIComponent(optionSku.sku)}`)
    const row = page.locator(`tr[data-sku="${optionSku.sku}"]`)
    await expect(row).toHaveAttribute('data-highlighted', 'true')
    await expect(row).toBeInViewport()
    await expect(row.getByRole('combobox')).toHaveValue(/^P\d+$/)
    await expect(row.getByRole('textbox')).toHaveValue(String(optionSku.minimumOrder))
  })

  test('reports a failed add in the error box with the server message', async ({ page }) => {
    await page.route('**/cart/add', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Basket offline.' }),
      }),
    )
    await page.goto(`${minimumProduct.url}?sku=${encodeURIComponent(minimumSku.sku)}`)
    const add = page
      .getByTestId('price-grid-' + minimumSku.grid)
      .getByRole('button', { name: 'Add to Basket' })
    const request = page.waitForRequest('**/cart/add')
    await add.click()
    // One entry per row, each with its items (spec §7 'Add from price grid').
    const body = (await request).postDataJSON() as {
      items: { listing_id: number; quantity: number; category_id: number }[]
    }[]
    expect(body).toHaveLength(1)
    expect(body[0]!.items).toHaveLength(1)
    expect(body[0]!.items[0]!.quantity).toBe(minimumSku.minimumOrder)
    await expect(page.getByTestId('error-box')).toContainText(
      'Something went wrong when trying to add item(s) to basket. Basket offline.',
    )
    await expect(page).toHaveURL(new RegExp(minimumProduct.url))
  })
})

test.describe('builder', () => {
  test('adds up the chosen costs times the quantity and allows adding once a quantity is set', async ({
    page,
  }) => {
    await page.goto(builderProduct.url)
    const builder = page.getByTestId('product-builder')
    const add = builder.getByRole('button', { name: 'Add to Basket' })
    await expect(add).toBeDisabled()
    await builder.getByRole('radio').first().check()
    await builder.getByRole('button', { name: 'Increase builder quantity' }).click()
    const one = money(await builder.getByTestId('builder-subtotal').textContent())
    expect(one).toBeGreaterThan(0)
    await builder.getByRole('button', { name: 'Increase builder quantity' }).click()
    await expect
      .poll(async () => money(await builder.getByTestId('builder-subtotal').textContent()))
      .toBeCloseTo(one * 2, 2)
    await expect(add).toBeEnabled()
  })
})

test.describe('VAT display', () => {
  test('a product-feed link shows prices with VAT and the toggle switches them', async ({ page }) => {
    const product = byLayout.Default!
    await page.goto(product.url)
    const asLowAs = page.getByTestId('as-low-as')
    await expect(page.getByText('Prices exclude VAT at 20%')).toBeVisible()
    const exVat = money(await asLowAs.textContent())

    await page.goto(`${product.url}?utm_medium=product_feed_or_listings`)
    const toggle = page.getByRole('checkbox', { name: 'Show prices including VAT at 20%' })
    await expect(toggle).toBeChecked()
    await expect.poll(async () => money(await asLowAs.textContent())).toBeCloseTo(exVat * 1.2, 1)
    await toggle.uncheck()
    await expect.poll(async () => money(await asLowAs.textContent())).toBe(exVat)
  })
})

test.describe('description at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test('shows the tabs as accordions that toggle', async ({ page }) => {
    await page.goto(tabsProduct.url)
    await expect(page.getByRole('tablist')).toHaveCount(0)
    const accordions = page.getByTestId('description-accordions')
    const first = tabsProduct.longDescriptionStructured!.tabs![0]!
    const header = accordions.getByRole('button', { name: first.label })
    await expect(header).toHaveAttribute('aria-expanded', 'false')
    await header.click()
    await expect(header).toHaveAttribute('aria-expanded', 'true')
    await expect(accordions.getByRole('region', { name: first.label })).toBeVisible()
    await header.click()
    await expect(header).toHaveAttribute('aria-expanded', 'false')
  })
})

test.describe('description on desktop', () => {
  test('shows tabs that switch with the arrow keys', async ({ page }) => {
    await page.goto(tabsProduct.url)
    const tabs = page.getByRole('tablist', { name: 'Product information' }).getByRole('tab')
    await expect(tabs.first()).toHaveAttribute('aria-selected', 'true')
    await tabs.first().focus()
    await page.keyboard.press('ArrowRight')
    await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true')
    await expect(tabs.nth(1)).toBeFocused()
  })

  test('records the category in the recently viewed categories', async ({ page }) => {
    await page.goto(tabsProduct.url)
    await expect
      .poll(() =>
        page.evaluate(() => JSON.parse(sessionStorage.getItem('recentlyViewedCategories') ?? '[]')[0]?.url),
      )
      .toBe(tabsProduct.categoryUrl)
  })
})
