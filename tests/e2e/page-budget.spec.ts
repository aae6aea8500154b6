/**
 * Issue 18's budget on a phone, for every page type of both demo sites (the pages Lighthouse
 * measures in the bench, scripts/bench/demo-pages.ts): nothing shifts while the page loads and
 * hydrates (cumulative layout shift under 0.05), and axe-core finds no serious or critical issue.
 *
 * The page's scripts are held back for a moment so the server's HTML is painted before React
 * hydrates, as on a slow phone: a component that renders differently in the browser than on
 * the server then shows as a layout shift instead of hiding behind a fast machine.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { DEMO_PAGES } from '../../scripts/bench/demo-pages.ts'

const port = Number(process.env.E2E_PORT ?? 4173)
/** How long the scripts are held back after the HTML and CSS arrive */
const SCRIPT_DELAY_MS = 600
const CLS_BUDGET = 0.05

test.use({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true })

declare global {
  interface Window {
    __layoutShifts?: { value: number; sources: string[] }[]
  }
}

/** Records every layout shift not caused by input, with the elements that moved. */
async function watchLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    window.__layoutShifts = []
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number
        hadRecentInput: boolean
        sources: { node: Node | null }[]
      })[]) {
        if (entry.hadRecentInput) continue
        window.__layoutShifts!.push({
          value: entry.value,
          sources: entry.sources.map((s) =>
            s.node instanceof Element ? s.node.outerHTML.slice(0, 120) : String(s.node?.nodeName),
          ),
        })
      }
    }).observe({ type: 'layout-shift', buffered: true })
  })
  await page.route('**/assets/*.js', async (route) => {
    await new Promise((r) => setTimeout(r, SCRIPT_DELAY_MS))
    await route.continue()
  })
}

/** Fills this site's basket the way the product page does (`POST /cart/add`). */
async function fillBasket(request: APIRequestContext, origin: string, products: string[]) {
  await request.get(`${origin}/`)
  const stale = await request.get(`${origin}/`, {
    headers: { 'x-inertia': 'true', 'x-requested-with': 'XMLHttpRequest', 'x-inertia-version': 'stale' },
  })
  const version = stale.headers()['x-inertia-version'] ?? ''
  const items: { listing_id: number; quantity: number; category_id: number }[] = []
  for (const path of products) {
    const res = await request.get(`${origin}${path}`, {
      headers: { 'x-inertia': 'true', 'x-requested-with': 'XMLHttpRequest', 'x-inertia-version': version },
    })
    expect(res.status(), path).toBe(200)
    const { props } = (await res.json()) as {
      props: {
        category: { id: number }
        product: { grids: { rows: { options: { productId: number | null }[] }[] }[] }
      }
    }
    const listing = props.product.grids[0]?.rows[0]?.options.find((o) => o.productId)?.productId
    if (listing) items.push({ listing_id: listing, quantity: 1, category_id: props.category.id })
  }
  const cookies = await request.storageState()
  const xsrf = cookies.cookies.find((c) => c.name === 'XSRF-TOKEN' && origin.includes(c.domain))?.value ?? ''
  const added = await request.post(`${origin}/cart/add`, {
    headers: { accept: 'application/json', 'x-xsrf-token': decodeURIComponent(xsrf) },
    data: { items },
  })
  expect(added.status(), await added.text()).toBe(200)
}

for (const site of DEMO_PAGES) {
  const origin = `http://${site.host}:${port}`
  test.describe(`${site.host} on a phone`, () => {
    for (const spec of site.pages) {
      test(`${spec.page} does not shift while it loads and hydrates, and axe-core finds no serious issue`, async ({
        page,
      }) => {
        test.setTimeout(60_000)
        if (spec.path === '/cart') {
          await fillBasket(
            page.request,
            origin,
            site.pages.filter((p) => p.basket).map((p) => p.path),
          )
        }
        // A weekday morning: the home page's dispatch countdown is counting (its usual state).
        await page.clock.install({ time: new Date('2026-06-10T08:30:00Z') })
        await watchLayoutShifts(page)
        await page.goto(`${origin}${spec.path}`)
        // Hydrated: Inertia's router has taken over the page.
        await page.waitForLoadState('networkidle')
        await page.waitForTimeout(500)
        if (spec.path === '/cart') await expect(page.getByTestId('cart-line').first()).toBeVisible()
        const shifts = await page.evaluate(() => window.__layoutShifts ?? [])
        const cls = shifts.reduce((sum, s) => sum + s.value, 0)
        expect(cls, `layout shifts: ${JSON.stringify(shifts, null, 1)}`).toBeLessThan(CLS_BUDGET)

        const result = await new AxeBuilder({ page }).analyze()
        const serious = result.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)
        expect(serious).toEqual([])
      })
    }
  })
}
