/**
 * Every page type's HTML passes the W3C Nu HTML checker (vnu, from the `vnu-jar` package, run
 * once with the machine's Java over all pages). The documents are the production server's own
 * HTML (server-rendered, fetched with the browser context's cookies so a basket or a logged-in
 * customer gives realistic pages); checkout steps 2 and 3 exist only in the browser, so those two
 * are the hydrated DOM.
 */
import { expect, test, type APIRequestContext } from '@playwright/test'
import { execFile } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import {
  generateSiteCatalog,
  type SeedGroup,
  type SeedSku,
} from '../../src/server/db/seed/catalog/generate.ts'
import { SITE_SPECS } from '../../src/server/db/seed/catalog/vocabulary.ts'
import { E2E_PORT } from './helpers/paths.ts'

const require = createRequire(import.meta.url)
/** vnu-jar's main export is the path of vnu.jar */
const vnuJar = String(require('vnu-jar') as string)
const outDir = resolve(`test-results/e2e-${E2E_PORT}/html-validity`)

function demoCatalog(code: string) {
  const catalog = generateSiteCatalog(SITE_SPECS.find((s) => s.code === code)!)
  const categories = new Map(catalog.categories.map((c) => [c.url, c]))
  const skus = new Map<string, SeedSku[]>()
  for (const s of catalog.skus) if (s.published) skus.set(s.groupUrl, [...(skus.get(s.groupUrl) ?? []), s])
  const shown = (g: SeedGroup) =>
    g.published && (skus.get(g.url)?.length ?? 0) > 0 && categories.get(g.categoryUrl)?.published !== false
  return { catalog, categories, skus, shown }
}

const harbour = demoCatalog('harbour')
const northgate = demoCatalog('northgate')
/** A product of each layout, of each top-level category of both sites */
function productPages(site: ReturnType<typeof demoCatalog>, prefix: string): [string, string][] {
  const seen = new Set<string>()
  const pages: [string, string][] = []
  for (const g of site.catalog.groups) {
    const key = `${g.categoryUrl.split('/')[1]} ${g.layout}`
    if (!site.shown(g) || seen.has(key)) continue
    seen.add(key)
    pages.push([`${prefix} product ${key}`, g.url])
  }
  return pages
}
const harbourProducts = productPages(harbour, 'harbour')
const northgateProducts = productPages(northgate, 'northgate')
const basketSku = harbour.catalog.skus.find((s) => {
  const g = harbour.catalog.groups.find((x) => x.url === s.groupUrl)!
  const ownRow =
    !s.rowKey ||
    harbour.catalog.skus.filter((o) => o.rowKey === s.rowKey && o.groupUrl === s.groupUrl).length === 1
  return harbour.shown(g) && s.published && ownRow && s.minimumOrder === 1
})!

async function html(request: APIRequestContext, url: string, status = 200): Promise<string> {
  const res = await request.get(url, { headers: { accept: 'text/html' } })
  expect(res.status(), url).toBe(status)
  expect(res.headers()['content-type'], url).toMatch(/^text\/html/)
  return res.text()
}

interface VnuMessage {
  type: string
  subType?: string
  url?: string
  lastLine?: number
  message: string
  extract?: string
}

/** Runs the checker once over every file; its JSON report. */
async function check(files: string[]): Promise<VnuMessage[]> {
  const run = promisify(execFile)
  const args = ['-jar', vnuJar, '--format', 'json', '--stdout', ...files]
  let out: string
  try {
    out = (await run('java', args, { maxBuffer: 64 * 1024 * 1024 })).stdout
  } catch (error) {
    // vnu exits 1 when it reports an error; the report is still on stdout.
    out = (error as { stdout?: string }).stdout ?? ''
    if (!out) throw error
  }
  return (JSON.parse(out) as { messages: VnuMessage[] }).messages
}

test('every page type passes the W3C Nu HTML checker with no errors', async ({ page, baseURL }) => {
  test.setTimeout(240_000)
  const docs = new Map<string, string>()
  const add = (name: string, text: string) => docs.set(name, text)
  const usBase = baseURL!.replace('localhost', '127.0.0.1')
  const req = page.request

  // Anonymous pages, both sites.
  const anonymous: [string, string, number?][] = [
    ['home', '/'],
    ['content page', '/about-us'],
    ['blog index', '/blog'],
    ['blog post', '/blog/fire-exit-signs-what-the-law-requires'],
    ['blog category', '/blog/fire-safety'],
    ['category', '/safety-signs'],
    ['paginated listing', '/safety-signs/prohibition-signs'],
    ['paginated listing page 2', '/safety-signs/prohibition-signs?page=2'],
    ['search', '/search?q=exit'],
    ['search without results', '/search?q=zzqqxx'],
    ['basket empty', '/cart'],
    ['sign in', '/login'],
    ['register', '/register'],
    ['forgot password', '/forgot-password'],
    ['sitemap', '/sitemap'],
    ['not found', '/no-such-page-here', 404],
    ...harbourProducts.map(([n, u]) => [n, u] as [string, string]),
  ]
  for (const [name, url, status] of anonymous) add(name, await html(req, url, status))
  add('northgate home', await html(req, `${usBase}/`))
  for (const [name, url] of northgateProducts) add(name, await html(req, `${usBase}${url}`))

  // Logged in: the account area, a basket with lines, the checkout and Order Complete.
  await page.goto('/login')
  await page.getByRole('textbox', { name: 'Email' }).fill('demo@harbour-safety.example')
  await page.getByLabel('Password').fill('Harbour-demo-2026')
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).not.toHaveURL(/\/login/)
  for (const [name, url] of [
    ['account home', '/customer'],
    ['account orders', '/customer/orders'],
    ['account invoices', '/customer/invoices'],
    ['account saved baskets', '/customer/carts'],
    ['account details', '/customer/update'],
    ['account password', '/customer/password/change'],
    ['account marketing', '/customer/marketing-preferences'],
    ['account two-factor', '/customer/two-factor'],
  ] as const)
    add(name, await html(req, url))
  const order = /\/customer\/orders\/([\w-]+)/.exec(docs.get('account orders')!)?.[1]
  if (order) add('account order', await html(req, `/customer/orders/${order}`))
  const invoice = /\/customer\/invoices\/([\w-]+)(?!\/pdf)/.exec(docs.get('account invoices')!)?.[1]
  if (invoice) add('account invoice', await html(req, `/customer/invoices/${invoice}`))
  add('logged-in product', await html(req, harbourProducts[0]![1]))

  const group = harbour.catalog.groups.find((g) => g.url === basketSku.groupUrl)!
  await page.goto(group.url)
  const field = page.locator(`tr[data-sku="${basketSku.sku}"]`).getByRole('textbox')
  await field.fill('30')
  await field.blur()
  await page
    .getByTestId(`price-grid-${basketSku.grid}`)
    .getByRole('button', { name: /^Add to (Basket|Cart)$/ })
    .click()
  await expect(page).toHaveURL(/\/cart$/)
  add('basket with lines', await html(req, '/cart'))
  await page.context().addCookies([{ name: 'payment_method', value: 'purchase_order', url: baseURL! }])
  add('checkout (server)', await html(req, '/checkout'))
  await page.goto('/checkout')
  await expect(
    page.getByTestId('fieldset-contact').getByRole('textbox', { name: 'Email', exact: true }),
  ).toHaveValue('demo@harbour-safety.example')
  add('checkout step 2 (browser)', await page.content())
  await page.getByTestId('continue').click()
  await expect(page.getByTestId('complete-order')).toBeEnabled()
  add('checkout step 3 (browser)', await page.content())
  await page.getByTestId('complete-order').click()
  await expect(page.getByRole('heading', { level: 1, name: 'Order Complete' })).toBeVisible()
  add('order complete', await html(req, new URL(page.url()).pathname))

  rmSync(outDir, { recursive: true, force: true })
  mkdirSync(outDir, { recursive: true })
  const files = [...docs].map(([name, text]) => {
    const file = join(outDir, `${name.replace(/[^a-z0-9]+/gi, '-')}.html`)
    writeFileSync(file, text)
    return file
  })
  const messages = await check(files)
  const errors = messages
    .filter((m) => m.type === 'error' || m.subType === 'fatal')
    .map((m) => `${(m.url ?? '').replace(/^.*\//, '')}:${m.lastLine ?? '?'}: ${m.message}`)
  expect(errors, `the checker's errors over ${files.length} pages`).toEqual([])
})
