import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'

const US = (path: string) => `http://127.0.0.1:${process.env.E2E_PORT ?? 4173}${path}`

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)
}

test.describe('first load', () => {
  test('is server-rendered with the page title and hydrates without errors', async ({ page, request }) => {
    const html = await (await request.get('/about-us')).text()
    expect(html).toContain(
      '<title data-inertia="">About Harbour Safety Supplies | Harbour Safety Supplies</title>',
    )
    expect(html).toContain('data-server-rendered="true"')

    const problems: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text())
    })
    page.on('pageerror', (e) => problems.push(e.message))
    await page.goto('/about-us')
    await expect(page).toHaveTitle('About Harbour Safety Supplies | Harbour Safety Supplies')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('About Harbour Safety Supplies')
    expect(problems).toEqual([])
  })

  test('renders each brand with its own name, theme and currency', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Harbour Safety Supplies')
    await expect(page.getByTestId('cart-summary')).toContainText('£0.00')
    const gbPrimary = await page
      .locator('.site-root')
      .evaluate((el) => getComputedStyle(el).getPropertyValue('--colour-primary'))

    await page.goto(US('/'))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Northgate Workplace')
    await expect(page.getByTestId('cart-summary')).toContainText('$0.00')
    const usPrimary = await page
      .locator('.site-root')
      .evaluate((el) => getComputedStyle(el).getPropertyValue('--colour-primary'))
    expect(gbPrimary.trim()).toBe('#12355b')
    expect(usPrimary.trim()).toBe('#1f6f43')
  })

  test('shows the Not Found page with status 404 for an unknown path', async ({ page }) => {
    const response = await page.goto('/no-such-page')
    expect(response?.status()).toBe(404)
    await expect(page).toHaveTitle(/^Not Found/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Not Found')
  })

  test('shows the FastOrder placeholder', async ({ page }) => {
    await page.goto('/fast-order')
    await expect(page.getByRole('main')).toContainText('FastOrder')
  })
})

test.describe('navigation', () => {
  test('follows a link as an Inertia visit without a full page reload', async ({ page }) => {
    await page.goto('/')
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42))
    const visit = page.waitForRequest(
      (r) => r.url().endsWith('/about-us') && r.headers()['x-inertia'] === 'true',
    )
    await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'About us' }).click()
    await visit
    await expect(page).toHaveURL(/\/about-us$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('About Harbour Safety Supplies')
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42)
  })

  test('puts a failed visit in the error box, which the cross dismisses', async ({ page }) => {
    await page.goto('/')
    await page.route('**/about-us', (route) =>
      route.request().headers()['x-inertia'] ? route.abort('connectionrefused') : route.continue(),
    )
    await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'About us' }).click()
    const box = page.getByTestId('error-box')
    await expect(box).toContainText(
      'We could not reach the shop. Please check your connection and try again.',
    )
    await expect(page).toHaveURL(/\/$/)
    await page.getByRole('button', { name: 'Dismiss error' }).click()
    await expect(box).toBeHidden()
  })

  test('refuses a state-changing request whose token cookie is gone with 419 and issues a fresh token', async ({
    page,
    context,
  }) => {
    await page.goto('/')
    await context.clearCookies()
    // A state-changing visit from the page after its token cookie is gone.
    const status = await page.evaluate(async () => {
      const r = await fetch('/about-us', {
        method: 'POST',
        headers: {
          'x-inertia': 'true',
          'x-requested-with': 'XMLHttpRequest',
          'content-type': 'application/json',
        },
        body: '{}',
      })
      return r.status
    })
    expect(status).toBe(419)
    const cookies = (await context.cookies()).map((c) => c.name)
    expect(cookies).toContain('XSRF-TOKEN')
  })
})

test.describe('mobile layout at 390 px', () => {
  test.use({ viewport: { width: 390, height: 800 } })

  test('opens the menu, locks page scroll and closes it on a link click', async ({ page }) => {
    await page.goto('/')
    const open = page.getByRole('button', { name: 'Open menu' })
    await open.click()
    const menu = page.getByRole('dialog', { name: 'Menu' })
    await expect(menu).toBeVisible()
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden')
    await menu.getByRole('link', { name: 'Furniture' }).first().click()
    await expect(page).toHaveURL(/\/furniture$/)
    await expect(menu).toBeHidden()
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe('hidden')
  })

  test('collapses a long breadcrumb trail to an ellipsis and the last two links', async ({ page }) => {
    await page.goto('/delivery-information')
    const trail = page.getByRole('navigation', { name: 'Breadcrumb' })
    await expect(trail.getByRole('button', { name: /Show 2 more breadcrumb links/ })).toBeVisible()
    await expect(trail.getByRole('link', { name: 'Home' })).toBeHidden()
    await expect(trail.getByRole('link', { name: 'Customer service' })).toBeVisible()
    await expect(trail.getByText('Delivery', { exact: true })).toBeVisible()
  })

  test('hides the header while scrolling down past it and shows it again on scrolling up', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 300 })
    await page.goto('/delivery-information')
    const header = page.locator('header[data-sticky]')
    // The header's scroll listener starts at hydration and takes the position it finds as its
    // starting point: a scroll that came before it only makes the header sticky, so scroll on
    // until one has been seen going down.
    await expect(async () => {
      await page.mouse.wheel(0, 200)
      await expect(header).toHaveClass(/-translate-y-full/, { timeout: 500 })
    }).toPass()
    await expect(header).toHaveAttribute('data-sticky', 'true')
    await page.mouse.wheel(0, -100)
    await expect(header).not.toHaveClass(/-translate-y-full/)
  })

  test('starts with the message banner closed', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByText('Order before 2pm for same-day despatch on stock items.')).toBeHidden()
  })
})

test.describe('desktop layout', () => {
  test('shows the whole breadcrumb trail, the last item not a link', async ({ page }) => {
    await page.goto('/delivery-information')
    const trail = page.getByRole('navigation', { name: 'Breadcrumb' })
    await expect(trail.getByRole('link')).toHaveText(['Home', 'Help', 'Customer service'])
    await expect(trail.getByText('Delivery', { exact: true })).toHaveAttribute('aria-current', 'page')
  })

  test('emits BreadcrumbList structured data', async ({ page }) => {
    await page.goto('/delivery-information')
    const json = await page.locator('script[type="application/ld+json"]').first().textContent()
    const data = JSON.parse(json ?? '{}') as { '@type': string; itemListElement: unknown[] }
    expect(data['@type']).toBe('BreadcrumbList')
    expect(data.itemListElement).toHaveLength(4)
  })

  test('opens the message banner by default and remembers closing it for the session', async ({ page }) => {
    await page.goto('/')
    const text = page.getByText('Order before 2pm for same-day despatch on stock items.')
    await expect(text).toBeVisible()
    await page.getByRole('button', { name: /Free UK delivery on orders over £100/ }).click()
    await expect(text).toBeHidden()
    await page.reload()
    await expect(text).toBeHidden()
  })

  test('makes the header sticky after the configured scroll offset', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 300 })
    await page.goto('/delivery-information')
    const header = page.locator('header[data-sticky]')
    await expect(header).toHaveAttribute('data-sticky', 'false')
    await page.mouse.wheel(0, 300)
    await expect(header).toHaveAttribute('data-sticky', 'true')
    await expect(header).not.toHaveClass(/-translate-y-full/)
    await page.mouse.wheel(0, -1000)
    await expect(header).toHaveAttribute('data-sticky', 'false')
  })

  test('has no serious or critical accessibility violations on the home page', async ({ page }) => {
    await page.goto('/')
    expect(await seriousViolations(page)).toEqual([])
  })

  test('has no serious or critical accessibility violations on a content page', async ({ page }) => {
    await page.goto('/about-us')
    expect(await seriousViolations(page)).toEqual([])
  })

  test('reaches the main content with the skip link from the keyboard', async ({ page }) => {
    await page.goto('/')
    await page.keyboard.press('Tab')
    const skip = page.getByRole('link', { name: 'Skip to main content' })
    await expect(skip).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page.locator('#main-content')).toBeFocused()
  })
})
