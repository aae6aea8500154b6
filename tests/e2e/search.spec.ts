/**
 * Search on the seeded demo shop (GBP brand on localhost): the header search box (dropdown
 * sections, keyboard, redirect rule, the 1 s close after emptying, the mobile panel) and the
 * Search page (sort, pages, no results, accessibility).
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)
}

function collectProblems(page: Page): string[] {
  const problems: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(m.text())
  })
  page.on('pageerror', (e) => problems.push(e.message))
  return problems
}

const box = (page: Page) => page.getByRole('combobox', { name: 'Search products' })
const dropdown = (page: Page) => page.getByTestId('search-dropdown')

test.describe('header search box', () => {
  test.beforeAll(async ({ browser }) => {
    // A submitted search with results becomes a suggestion.
    const page = await browser.newPage()
    await page.goto('/search?q=fire+exit')
    await page.close()
  })

  test('type → suggestions, categories, products in order → arrow keys → Enter goes to the category', async ({
    page,
  }) => {
    const problems = collectProblems(page)
    await page.goto('/')
    await box(page).pressSequentially('fire exi', { delay: 30 })
    await expect(dropdown(page)).toBeVisible()
    await expect(box(page)).toHaveAttribute('aria-expanded', 'true')

    const groups = dropdown(page).getByRole('group')
    await expect(groups).toHaveCount(3)
    const labels = await dropdown(page).locator('p[id$="-label"]').allTextContents()
    expect(labels).toEqual(['Suggestions', 'Categories', 'Products'])
    await expect(dropdown(page).getByRole('group', { name: 'Suggestions' }).getByRole('option')).toHaveText([
      /Fire Exit/,
    ])
    const categories = dropdown(page).getByRole('group', { name: 'Categories' }).getByRole('option')
    expect(await categories.count()).toBeLessThanOrEqual(4)
    const products = dropdown(page).getByRole('group', { name: 'Products' }).getByRole('option')
    expect(await products.count()).toBeLessThanOrEqual(3)
    await expect(page.getByTestId('search-carousel')).toHaveAttribute(
      'data-visible',
      String(await products.count()),
    )
    // The typed term is highlighted in title case.
    await expect(categories.first().locator('mark').first()).toHaveText('Fire')
    // Product images are 98 px.
    const img = products.first().locator('img')
    await expect(img).toHaveAttribute('width', '98')

    // Down: the suggestion, then the first category.
    await box(page).press('ArrowDown')
    await expect(dropdown(page).getByRole('option').nth(0)).toHaveAttribute('aria-selected', 'true')
    await box(page).press('ArrowDown')
    const firstCategory = categories.first()
    await expect(firstCategory).toHaveAttribute('aria-selected', 'true')
    const activeId = await firstCategory.getAttribute('id')
    await expect(box(page)).toHaveAttribute('aria-activedescendant', activeId!)
    // Up twice: back to none (-1).
    await box(page).press('ArrowUp')
    await box(page).press('ArrowUp')
    await expect(box(page)).not.toHaveAttribute('aria-activedescendant')
    await box(page).press('ArrowDown')
    await box(page).press('ArrowDown')
    const name = (await firstCategory.textContent())!.replace(/in .*$/, '').trim()
    await box(page).press('Enter')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(new RegExp(name, 'i'))
    await expect(dropdown(page)).toBeHidden()
    expect(problems).toEqual([])
  })

  test('submitting goes to /search with the term', async ({ page }) => {
    await page.goto('/')
    await box(page).fill('')
    await box(page).pressSequentially('hazard warning', { delay: 20 })
    await box(page).press('Enter')
    await expect(page).toHaveURL(/\/search\?q=hazard%20warning$/)
    await expect(page).toHaveTitle('Search for hazard warning | Harbour Safety Supplies')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search for hazard warning')
    await expect(dropdown(page)).toBeHidden()
  })

  test('an empty or whitespace box sends no query', async ({ page }) => {
    await page.goto('/')
    let requests = 0
    page.on('request', (r) => {
      if (r.url().includes('/search/1/indexes')) requests++
    })
    await box(page).pressSequentially('   ', { delay: 20 })
    await box(page).press('Enter')
    await page.waitForTimeout(400)
    expect(requests).toBe(0)
    await expect(page).toHaveURL(/\/$/)
  })

  test('debounces typing, and a slow older answer never replaces a newer one', async ({ page }) => {
    await page.goto('/')
    const sent: string[] = []
    await page.route('**/search/1/indexes/*/queries', async (route) => {
      const body = route.request().postDataJSON() as { requests: { query: string }[] }
      const query = body.requests[0]!.query
      sent.push(query)
      // The answer for 'sig' arrives long after the one for 'fire exit'.
      if (query === 'sig') await new Promise((r) => setTimeout(r, 1500))
      await route.continue()
    })
    await box(page).pressSequentially('sig', { delay: 20 })
    await page.waitForTimeout(400)
    await box(page).fill('')
    await box(page).pressSequentially('fire exit', { delay: 20 })
    // Typing fast sends one request per pause, not one per key.
    await expect.poll(() => sent).toEqual(['sig', 'fire exit'])
    const categories = dropdown(page).getByRole('group', { name: 'Categories' })
    await expect(categories.getByRole('option').first()).toContainText('Fire Exit')
    await page.waitForTimeout(1700)
    await expect(categories.getByRole('option').first()).toContainText('Fire Exit')
  })

  test('a redirect rule sends the visitor to its page', async ({ page }) => {
    await page.goto('/')
    await box(page).pressSequentially('Delivery', { delay: 30 })
    await page.waitForResponse((r) => r.url().includes('/search/1/indexes'))
    await box(page).press('Enter')
    await expect(page).toHaveURL(/\/delivery-information$/)
  })

  test('says so in the dropdown when nothing matches, and a search that found nothing is never suggested', async ({
    page,
  }) => {
    // Submitted, but found nothing: it must not come back as a suggestion.
    await page.goto('/search?q=qqzzvvww')
    await page.goto('/')
    await box(page).pressSequentially('qqzzvv', { delay: 20 })
    const line = page.getByTestId('search-no-matches')
    await expect(line).toHaveText('No products or categories match “qqzzvv”.')
    await expect(line).toHaveAttribute('aria-live', 'polite')
    await expect(box(page)).toHaveAttribute('aria-expanded', 'false')
    await expect(dropdown(page)).toBeHidden()
    await box(page).press('Escape')
    await expect(line).toHaveClass(/sr-only/)

    await box(page).fill('')
    await box(page).pressSequentially('fire exi', { delay: 20 })
    await expect(dropdown(page)).toBeVisible()
    await expect(line).toHaveClass(/sr-only/)
  })

  test('closes 1 s after the box becomes empty, and on click away', async ({ page }) => {
    await page.goto('/')
    await box(page).pressSequentially('fire', { delay: 30 })
    await expect(dropdown(page)).toBeVisible()
    await box(page).press('Control+A')
    await box(page).press('Backspace')
    await page.waitForTimeout(600)
    await expect(dropdown(page)).toBeVisible()
    await expect(dropdown(page)).toBeHidden({ timeout: 1500 })

    await box(page).pressSequentially('fire', { delay: 30 })
    await expect(dropdown(page)).toBeVisible()
    await page.mouse.click(5, 400)
    await expect(dropdown(page)).toBeHidden()

    // Arrow down on the box reopens the results it still has.
    await box(page).focus()
    await box(page).press('ArrowDown')
    await expect(dropdown(page)).toBeVisible()
    await page.getByRole('button', { name: 'Clear search' }).click()
    await expect(dropdown(page)).toBeHidden()
    await expect(box(page)).toHaveValue('')
  })
})

test.describe('mobile search panel', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test('opens under the header at 390 px and searches', async ({ page }) => {
    await page.goto('/')
    const desktopBox = page.getByTestId('search-box').first()
    await expect(desktopBox).toBeHidden()
    await page.getByRole('button', { name: 'Open search' }).click()
    const panel = page.getByTestId('mobile-search-panel')
    await expect(panel).toBeVisible()
    const input = panel.getByRole('combobox', { name: 'Search products' })
    await expect(input).toBeFocused()
    await input.pressSequentially('fire exit', { delay: 30 })
    await expect(panel.getByTestId('search-dropdown')).toBeVisible()
    const width = await panel.evaluate((el) => el.getBoundingClientRect().width)
    expect(width).toBeGreaterThanOrEqual(380)
    await input.press('Enter')
    await expect(page).toHaveURL(/\/search\?q=fire%20exit$/)
    await expect(panel).toBeHidden()
  })
})

test.describe('search page', () => {
  test('lists results with sort and pages', async ({ page }) => {
    await page.goto('/search?q=sign')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search for sign')
    const grid = page.getByTestId('product-grid')
    await expect(grid.getByTestId('product-tile')).toHaveCount(10)
    await expect(page.getByText(/Showing 1 to 10 of \d+ results/)).toBeVisible()

    await page.getByLabel('Sort by').selectOption('name-asc')
    await expect(page).toHaveURL(/sort=name-asc/)
    const names = await grid.getByTestId('product-tile').locator('h2, h3').allTextContents()
    const sorted = [...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }))
    expect(names).toEqual(sorted)

    await page.getByRole('link', { name: 'Next' }).first().click()
    await expect(page).toHaveURL(/page=2/)
    await expect(page).toHaveURL(/q=sign/)
    await expect(page.getByText(/Showing 11 to 20 of/)).toBeVisible()
  })

  test("records a result click with the search's queryID, on a page loaded as a document and after a visit", async ({
    page,
  }) => {
    await page.goto('/search?q=sign')
    // The first load's page object has no queryID (its server render is shared); the head has it.
    const headQueryID = await page.evaluate(
      () =>
        (
          JSON.parse(document.querySelector('script[data-search-query-id]')!.textContent!) as {
            queryID: string
          }
        ).queryID,
    )
    expect(headQueryID).toMatch(/^[0-9a-f]{32}$/)
    const clickOn = async (position: number) => {
      const event = page.waitForRequest('**/search/insights/1/events')
      await page
        .getByTestId('product-grid')
        .getByTestId('product-tile')
        .nth(position)
        .getByRole('link')
        .first()
        .click()
      return (JSON.parse((await event).postData()!) as { events: { queryID: string; positions: number[] }[] })
        .events[0]!
    }
    const first = await clickOn(0)
    expect(first.queryID).toBe(headQueryID)
    expect(first.positions).toEqual([1])

    // An Inertia visit to another page of results carries its own queryID in the props.
    await page.goto('/search?q=sign')
    await page.getByRole('link', { name: 'Next' }).first().click()
    await expect(page.getByText(/Showing 11 to 20 of/)).toBeVisible()
    const second = await clickOn(1)
    expect(second.queryID).toMatch(/^[0-9a-f]{32}$/)
    expect(second.queryID).not.toBe(headQueryID)
    expect(second.positions).toEqual([12])
  })

  test('shows the no-results state with best sellers', async ({ page }) => {
    await page.goto('/search?q=xylophonequartz')
    await expect(page.getByTestId('search-no-results')).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Best selling products' })).toBeVisible()
    await expect(
      page.getByRole('list', { name: 'Best selling products' }).getByTestId('product-tile'),
    ).not.toHaveCount(0)
  })

  test('has no serious accessibility violations, with the dropdown open too', async ({ page }) => {
    await page.goto('/search?q=fire+exit')
    expect(await seriousViolations(page)).toEqual([])
    await box(page).fill('')
    await box(page).pressSequentially('fire', { delay: 30 })
    await expect(dropdown(page)).toBeVisible()
    await box(page).press('ArrowDown')
    expect(await seriousViolations(page)).toEqual([])
  })
})
