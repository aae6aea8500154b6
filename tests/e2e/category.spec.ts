/**
 * Category pages, the paginated listing and the image maps on the seeded demo catalogue (GBP
 * brand on localhost): /safety-signs is a grid category, /safety-signs/prohibition-signs a
 * paginated one with 30 products, /safety-signs/construction-signs a trade category.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Locator, type Page } from '@playwright/test'

const GRID = '/safety-signs'
const LISTING = '/safety-signs/prohibition-signs'
const TRADE = '/safety-signs/construction-signs'
const SWATCHES = '/furniture/office-chairs'

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)
}

/** Console errors and page errors, except failed image loads (media may be missing). */
function collectProblems(page: Page): string[] {
  const problems: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(m.text())
  })
  page.on('pageerror', (e) => problems.push(e.message))
  return problems
}

function pounds(texts: string[]): number[] {
  return texts.map((t) => Number(t.replace(/[^0-9.]/g, '')))
}

async function tilePrices(grid: Locator): Promise<number[]> {
  return pounds(
    await grid
      .getByTestId('product-tile')
      .locator('p', { hasText: 'As Low As' })
      .locator('span')
      .allTextContents(),
  )
}

const visibleNumbers = (page: Page) => page.locator('[data-page-number]:visible')

test.describe('category journey', () => {
  test('home → category → paginated listing (sort, page) → product', async ({ page }) => {
    const problems = collectProblems(page)
    await page.goto('/')
    await page
      .getByRole('region', { name: 'Shop by category' })
      .getByRole('link', { name: 'Safety Signs' })
      .click()
    await expect(page).toHaveURL(new RegExp(`${GRID}$`))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Safety Signs')
    await expect(page).toHaveTitle('Safety Signs | Harbour Safety Supplies')

    await page.getByTestId('product-grid').getByRole('link', { name: 'Prohibition Signs' }).click()
    await expect(page).toHaveURL(new RegExp(`${LISTING}$`))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Prohibition Signs')
    const nav = page.getByRole('navigation', { name: 'Pagination' })
    await expect(nav).toContainText('Showing 1 to 10 of 31 results')
    await expect(nav).toContainText('Page 1 of 4')

    // 'Price (Low to High)' is the key price-high_low and lists the cheapest first.
    await page.getByLabel('Sort by').selectOption({ label: 'Price (Low to High)' })
    await expect(page).toHaveURL(new RegExp(`${LISTING}\\?sort=price-high_low$`))
    const grid = page.getByTestId('product-grid')
    const ascending = await tilePrices(grid)
    expect(ascending).toHaveLength(10)
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b))

    await nav.getByRole('link', { name: 'Next' }).click()
    await expect(page).toHaveURL(new RegExp(`${LISTING}\\?sort=price-high_low&page=2$`))
    await expect(nav).toContainText('Showing 11 to 20 of 31 results')
    await expect(nav).toContainText('Page 2 of 4')
    await expect(page).toHaveTitle('Prohibition Signs - Page 2 | Harbour Safety Supplies')
    const second = await tilePrices(grid)
    expect(Math.min(...second)).toBeGreaterThanOrEqual(Math.max(...ascending))

    // Changing the sort again drops the page.
    await page.getByLabel('Sort by').selectOption({ label: 'Price (High to Low)' })
    await expect(page).toHaveURL(new RegExp(`${LISTING}\\?sort=price-low_high$`))
    const descending = await tilePrices(grid)
    expect(descending).toEqual([...descending].sort((a, b) => b - a))

    await nav.getByRole('link', { name: 'Page 3' }).filter({ visible: true }).click()
    await expect(nav).toContainText('Showing 21 to 30 of 31 results')

    const firstTile = grid.getByTestId('product-tile').first().getByRole('link')
    const href = await firstTile.getAttribute('href')
    expect(href).toMatch(/^\/safety-signs\/prohibition-signs\/[a-z0-9-]+$/)
    await firstTile.click()
    await expect(page).toHaveURL(new RegExp(`${href}$`))
    expect(problems).toEqual([])
  })

  test('server-renders the category head and hydrates without errors', async ({ page, request }) => {
    const html = await (await request.get(LISTING)).text()
    expect(html).toContain('<title data-inertia="">Prohibition Signs | Harbour Safety Supplies</title>')
    expect(html).toMatch(
      /<link rel="canonical" href="http:\/\/localhost:\d+\/safety-signs\/prohibition-signs"/,
    )
    expect(html).toContain('<meta name="description"')
    expect(html).toContain('"@type":"CollectionPage"')

    const problems = collectProblems(page)
    await page.goto(`${LISTING}?limit=2&page=8`)
    await expect(page.getByRole('navigation', { name: 'Pagination' })).toContainText('Page 8 of 16')
    await page.goto(GRID)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Safety Signs')
    expect(problems).toEqual([])
  })

  test('falls back to sane values for junk query parameters', async ({ page }) => {
    const response = await page.goto(`${LISTING}?page=abc&sort=%3Cb%3E&limit=-3`)
    expect(response?.status()).toBe(200)
    await expect(page.getByRole('navigation', { name: 'Pagination' })).toContainText('Page 1 of 4')
    await expect(page.getByLabel('Sort by')).toHaveValue('')
    await page.goto(`${LISTING}?page=999`)
    await expect(page.getByRole('navigation', { name: 'Pagination' })).toContainText('Page 4 of 4')
  })

  test('shows a trade category in the trade style', async ({ page }) => {
    await page.goto(TRADE)
    await expect(page.getByTestId('trade-badge')).toHaveText('Trade')
    await expect(page.getByTestId('trade-banner')).toBeVisible()
    await page.goto(LISTING)
    await expect(page.getByTestId('trade-badge')).toHaveCount(0)
  })

  test('shows colour swatches and As Low As prices on tiles', async ({ page }) => {
    await page.goto(SWATCHES)
    const tile = page.getByTestId('product-tile').first()
    await expect(tile.getByTestId('colour-swatches')).toBeVisible()
    await expect(tile).toContainText(/As Low As £\d+\.\d{2}/)
    await expect(page.getByText('Prices exclude VAT at 20%')).toBeVisible()
  })
})

test('replaces images that fail to load, also before hydration, with the placeholder', async ({ page }) => {
  await page.route('**/img/**', (route) => route.fulfill({ status: 404, body: '' }))
  await page.route('**/media/**', (route) => route.fulfill({ status: 404, body: '' }))
  await page.goto(LISTING)
  const images = page.getByTestId('product-tile').locator('img')
  await expect(images).toHaveCount(10)
  // Ten failing images on a cold server: allow for a slow machine, the assertion stays exact.
  for (const img of await images.all()) {
    await expect(img).toHaveAttribute('src', '/placeholder.svg', { timeout: 15_000 })
  }
})

test.describe('pagination widths', () => {
  const url = `${LISTING}?limit=2&page=8`

  test('shows 9 page numbers on a wide screen', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(url)
    await expect(visibleNumbers(page)).toHaveText(['1', '5', '6', '7', '8', '9', '10', '11', '16'])
  })

  test('shows 7 under 1024 px and 5 under 768 px', async ({ page }) => {
    await page.setViewportSize({ width: 1000, height: 900 })
    await page.goto(url)
    await expect(visibleNumbers(page)).toHaveText(['1', '6', '7', '8', '9', '10', '16'])
    await page.setViewportSize({ width: 600, height: 900 })
    await expect(visibleNumbers(page)).toHaveText(['1', '7', '8', '9', '16'])
  })

  test.describe('at 390 px', () => {
    test.use({ viewport: { width: 390, height: 800 } })

    test('shows fewer page numbers: first, current and last', async ({ page }) => {
      await page.goto(url)
      await expect(visibleNumbers(page)).toHaveText(['1', '8', '16'])
      await expect(
        page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Next' }),
      ).toBeVisible()
    })
  })
})

test.describe('accessibility', () => {
  for (const path of [GRID, LISTING, TRADE, SWATCHES, `${LISTING}?limit=2&page=8`]) {
    test(`has no serious or critical violations on ${path}`, async ({ page }) => {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      expect(await seriousViolations(page)).toEqual([])
    })
  }

  test('has no serious or critical violations on the listing at 390 px', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 })
    await page.goto(LISTING)
    expect(await seriousViolations(page)).toEqual([])
  })
})

test.describe('image maps', () => {
  test('index links a product image to its detail page, which links to the product', async ({ page }) => {
    await page.goto('/imagemap')
    await expect(page).toHaveTitle('Image Maps | Harbour Safety Supplies')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Image Maps')
    await expect(page.getByRole('list', { name: 'Category images' }).getByRole('link').first()).toBeVisible()
    const product = page.getByRole('list', { name: 'Product images' }).getByRole('link').first()
    const name = (await product.textContent())?.trim() ?? ''
    await product.click()
    await expect(page).toHaveURL(/\/imagemap\/\d+$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name)
    await expect(page).toHaveTitle(`${name} | Harbour Safety Supplies`)
    await expect(page.getByRole('link', { name: 'View product details' })).toHaveAttribute(
      'href',
      /^\/[a-z0-9-/]+$/,
    )
    await expect(
      page.getByRole('region', { name: 'All product images' }).getByRole('link').first(),
    ).toBeVisible()
    expect(await seriousViolations(page)).toEqual([])
  })
})
