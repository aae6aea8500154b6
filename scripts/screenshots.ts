/**
 * Screenshot review: every page type of both demo sites at 390 px and 1366 px, full page, into
 * var/screens/<site>-<width>-<n>-<page>.png, for a person to look at after a change to the
 * storefront. Needs a running production server with the demo seed (`npm start`, or
 * `PORT=4212 node dist/node/server/main.js`).
 *
 *   npx tsx scripts/screenshots.ts [--port 3000] [--only harbour|northgate] [--width 390]
 *                                  [--filter <substring of the path>]
 */
import { mkdir } from 'node:fs/promises'
import { chromium, type Page } from '@playwright/test'
import { generateSiteCatalog, type SiteCatalog } from '../src/server/db/seed/catalog/generate.ts'
import { SITE_SPECS } from '../src/server/db/seed/catalog/vocabulary.ts'

const args = process.argv.slice(2)
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1] : undefined
}
const port = Number(arg('port') ?? 3000)
const only = arg('only')
const widths = arg('width') ? [Number(arg('width'))] : [390, 1366]
const filter = arg('filter')
const OUT = 'var/screens'

const catalogs = Object.fromEntries(SITE_SPECS.map((s) => [s.code, generateSiteCatalog(s)])) as Record<
  string,
  SiteCatalog
>

function pageTypes(code: string): [string, string][] {
  const c = catalogs[code]!
  const live = new Set(c.skus.filter((s) => s.published).map((s) => s.groupUrl))
  const groups = c.groups.filter((g) => g.published && live.has(g.url))
  const top = c.categories.find((x) => x.depth === 1 && x.published)!
  const grid = c.categories.find((x) => x.published && x.display === 'grid')
  const leaf = c.categories.find((x) => x.published && c.groups.some((g) => g.categoryUrl === x.url))!
  const out: [string, string][] = [
    ['home', '/'],
    ['category-top', top.url],
    ...(grid ? ([['category-grid', grid.url]] as [string, string][]) : []),
    ['category-leaf', leaf.url],
    ['category-page-2', `${leaf.url}?page=2`],
  ]
  for (const layout of ['Default', 'DefaultPGUnderLD', 'MediaLeft', 'SheltersLayout']) {
    const g = groups.find((x) => x.layout === layout)
    if (g) out.push([`product-${layout}`, g.url])
  }
  const rowOptions = c.skus.find((s) => s.optionLabel && s.published)?.groupUrl
  if (rowOptions) out.push(['product-row-options', rowOptions])
  const builder = groups.find((g) => !!c.categories.find((x) => x.url === g.categoryUrl)?.builder)
  if (builder) out.push(['product-builder', builder.url])
  out.push(
    ['search', '/search?q=sign'],
    ['search-none', '/search?q=zzqqxx'],
    ['blog', '/blog'],
    ['sitemap', '/sitemap'],
    ['about', '/about-us'],
    ['delivery', '/delivery-information'],
    ['contact', '/contact-us'],
    ['imagemap', '/imagemap'],
    ['fast-order', '/fast-order'],
    ['login', '/login'],
    ['register', '/register'],
    ['forgot', '/forgot-password'],
    ['not-found', '/no-such-page-here'],
    ['cart-empty', '/cart'],
    ['cart', '/cart'],
  )
  return out
}

/** Puts two of the first plain product into the basket. */
async function addSomething(page: Page, base: string, code: string) {
  const c = catalogs[code]!
  const group = c.groups.find(
    (g) =>
      g.published &&
      c.skus
        .filter((s) => s.groupUrl === g.url)
        .every((s) => !s.rowKey && s.minimumOrder === 1 && s.published),
  )!
  const sku = c.skus.find((s) => s.groupUrl === group.url)!
  await page.goto(`${base}${group.url}`)
  const field = page.locator(`tr[data-sku="${sku.sku}"]`).getByRole('textbox')
  await field.fill('2')
  await field.blur()
  await page
    .getByTestId('price-grid-1')
    .getByRole('button', { name: /^Add to (Basket|Cart)$/ })
    .click()
  await page.waitForURL(/\/cart$/, { timeout: 15_000 })
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
})
await mkdir(OUT, { recursive: true })
for (const [code, host] of [
  ['harbour', 'localhost'],
  ['northgate', '127.0.0.1'],
] as const) {
  if (only && only !== code) continue
  const base = `http://${host}:${port}`
  for (const width of widths) {
    const context = await browser.newContext({ viewport: { width, height: width < 768 ? 844 : 900 } })
    const page = await context.newPage()
    let n = 0
    for (const [name, path] of pageTypes(code)) {
      n++
      if (filter && !path.includes(filter) && !name.includes(filter)) continue
      if (name === 'cart') await addSomething(page, base, code)
      await page.goto(`${base}${path}`)
      await page.waitForLoadState('networkidle')
      // Scroll through once so lazy images below the fold load before the full-page capture.
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 600) {
          window.scrollTo(0, y)
          await new Promise((r) => setTimeout(r, 50))
        }
        window.scrollTo(0, 0)
      })
      await page.waitForLoadState('networkidle')
      const file = `${OUT}/${code}-${width}-${String(n).padStart(2, '0')}-${name}.png`
      await page.screenshot({ path: file, fullPage: true })
      console.log(file, path)
    }
    await context.close()
  }
}
await browser.close()
