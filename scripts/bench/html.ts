/**
 * Issue 18, product page HTML and valid HTML (`--only=html`): the size of every demo product
 * page's server-rendered HTML (before compression) per site, top-level category and layout,
 * against the budgets (a sign under 30 KB, no product page over 50 KB), and the W3C Nu HTML
 * checker's error count per page type (target 0), from one run of vnu.jar (the `vnu-jar`
 * package) with the machine's Java.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { generateSiteCatalog, type SeedGroup } from '../../src/server/db/seed/catalog/generate.ts'
import { SITE_SPECS } from '../../src/server/db/seed/catalog/vocabulary.ts'

/** A sign's product page (the first safety sign of the demo shop) */
export const SIGN_BUDGET = 30 * 1024
/** Every product page, the office chair with its option grid included */
export const PRODUCT_BUDGET = 50 * 1024

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
/** KB and the exact bytes: the budgets sit close enough that a rounded figure hides the margin */
const kbBytes = (n: number) => `${kb(n)} (${n.toLocaleString('en-GB')} bytes)`
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met')

export interface HtmlBenchOptions {
  /** e.g. http://127.0.0.1:4310 */
  base: string
  /** Host header of each demo site: localhost (Harbour, GBP) and 127.0.0.1 (Northgate, USD) */
  hosts: { harbour: string; northgate: string }
  /** Cookie header of a visitor with a basket (the basket page with lines), when there is one */
  basketCookie?: string
  /** The load scenarios' product page (a generated sign under /bench): the issue's 50 KB sign */
  benchProduct?: string
}

function get(url: string, host: string, cookie?: string): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { host, accept: 'text/html' }
  if (cookie) headers.cookie = cookie
  // node:http rather than fetch(), which does not let a caller set Host (each site is a host name).
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }))
      })
      .on('error', reject)
  })
}

const shownGroups = (code: string): SeedGroup[] => {
  const catalog = generateSiteCatalog(SITE_SPECS.find((s) => s.code === code)!)
  const categories = new Map(catalog.categories.map((c) => [c.url, c]))
  const withSkus = new Set(catalog.skus.filter((s) => s.published).map((s) => s.groupUrl))
  return catalog.groups.filter(
    (g) => g.published && withSkus.has(g.url) && categories.get(g.categoryUrl)?.published !== false,
  )
}

/** Product page sizes; returns the worst page for the summary. */
async function productSizes(options: HtmlBenchOptions): Promise<void> {
  const rows: Record<string, string | number>[] = []
  let sign: { url: string; size: number } | null = null
  let chair: { url: string; size: number } | null = null
  let worst = { url: '', size: 0 }
  let pagesOver = 0
  let pagesAll = 0
  for (const code of ['harbour', 'northgate'] as const) {
    const host = options.hosts[code]
    const groups = new Map<string, { url: string; size: number }[]>()
    for (const g of shownGroups(code)) {
      const { status, text } = await get(`${options.base}${g.url}`, host)
      if (status !== 200) throw new Error(`${g.url} answered ${status}`)
      const size = Buffer.byteLength(text)
      const key = `${code} ${g.categoryUrl.split('/')[1]} ${g.layout}`
      groups.set(key, [...(groups.get(key) ?? []), { url: g.url, size }])
      if (!sign && g.url.startsWith('/safety-signs/')) sign = { url: g.url, size }
      // The office chair with an option grid: the largest page of the office chairs.
      if (g.categoryUrl.endsWith('/office-chairs') && size > (chair?.size ?? 0)) chair = { url: g.url, size }
      if (size > worst.size) worst = { url: g.url, size }
      pagesAll += 1
      if (size > PRODUCT_BUDGET) pagesOver += 1
    }
    for (const [key, pages] of [...groups].sort((a, b) => a[0].localeCompare(b[0]))) {
      const sizes = pages.map((p) => p.size).sort((a, b) => a - b)
      const max = sizes.at(-1)!
      rows.push({
        'site, category, layout': key,
        pages: sizes.length,
        median: kb(sizes[sizes.length >> 1]!),
        max: kb(max),
        budget: kb(PRODUCT_BUDGET),
        'max within budget': verdict(max <= PRODUCT_BUDGET),
      })
    }
  }
  console.log('\nProduct page HTML (server-rendered, before compression), every demo product:')
  console.table(rows)
  if (options.benchProduct) {
    const { status, text } = await get(`${options.base}${options.benchProduct}`, options.hosts.harbour)
    if (status !== 200) throw new Error(`${options.benchProduct} answered ${status}`)
    const size = Buffer.byteLength(text)
    console.log(
      `the bench's sign (${options.benchProduct}): ${kbBytes(size)}, target under ${kb(SIGN_BUDGET)}: ${verdict(size < SIGN_BUDGET)}`,
    )
  }
  const signPage = sign as { url: string; size: number } | null
  const chairPage = chair as { url: string; size: number } | null
  if (signPage)
    console.log(
      `the first demo sign (${signPage.url}): ${kbBytes(signPage.size)}, target under ${kb(SIGN_BUDGET)}: ${verdict(signPage.size < SIGN_BUDGET)}`,
    )
  if (chairPage)
    console.log(
      `the largest office chair (${chairPage.url}): ${kbBytes(chairPage.size)}, target at most ${kb(PRODUCT_BUDGET)}: ${verdict(chairPage.size <= PRODUCT_BUDGET)}`,
    )
  console.log(
    `largest product page (${worst.url}): ${kbBytes(worst.size)}, target at most ${kb(PRODUCT_BUDGET)}: ${verdict(worst.size <= PRODUCT_BUDGET)}`,
  )
  console.log(
    `product pages over ${kb(PRODUCT_BUDGET)}: ${pagesOver} of ${pagesAll}, target 0: ${verdict(pagesOver === 0)}`,
  )
}

interface VnuMessage {
  type: string
  subType?: string
  url?: string
  message: string
}

/** The checker's messages for every file, from one JVM. */
export async function runVnu(files: string[]): Promise<VnuMessage[]> {
  const vnuJar = String(createRequire(import.meta.url)('vnu-jar') as string)
  let out: string
  try {
    out = (
      await promisify(execFile)('java', ['-jar', vnuJar, '--format', 'json', '--stdout', ...files], {
        maxBuffer: 64 * 1024 * 1024,
      })
    ).stdout
  } catch (error) {
    // vnu exits 1 when it reports an error; the report is still on stdout.
    out = (error as { stdout?: string }).stdout ?? ''
    if (!out) throw error
  }
  return (JSON.parse(out) as { messages: VnuMessage[] }).messages
}

/** vnu over one page of each type (those reachable without signing in, and the basket). */
async function checkerErrors(options: HtmlBenchOptions): Promise<void> {
  const harbour = shownGroups('harbour')
  const layouts = new Map<string, string>()
  for (const code of ['harbour', 'northgate'] as const)
    for (const g of code === 'harbour' ? harbour : shownGroups(code))
      if (!layouts.has(`${code} ${g.layout}`)) layouts.set(`${code} ${g.layout}`, g.url)
  const pages: { name: string; url: string; host: string; status?: number; cookie?: string }[] = [
    ['home', '/'],
    ['content page', '/about-us'],
    ['blog index', '/blog'],
    ['blog post', '/blog/fire-exit-signs-what-the-law-requires'],
    ['blog category', '/blog/fire-safety'],
    ['category', '/safety-signs'],
    ['paginated listing', '/safety-signs/prohibition-signs?page=2'],
    ['search', '/search?q=exit'],
    ['basket, empty', '/cart'],
    ['sign in', '/login'],
    ['register', '/register'],
    ['forgot password', '/forgot-password'],
    ['sitemap', '/sitemap'],
  ].map(([name, url]) => ({ name: name!, url: url!, host: options.hosts.harbour }))
  pages.push({ name: 'not found (404)', url: '/no-such-page-here', host: options.hosts.harbour, status: 404 })
  if (options.basketCookie)
    pages.push({
      name: 'basket, 5 lines',
      url: '/cart',
      host: options.hosts.harbour,
      cookie: options.basketCookie,
    })
  for (const [key, url] of layouts)
    pages.push({
      name: `product, ${key}`,
      url,
      host: key.startsWith('harbour') ? options.hosts.harbour : options.hosts.northgate,
    })

  const dir = mkdtempSync(join(tmpdir(), 'html-bench-'))
  try {
    mkdirSync(dir, { recursive: true })
    const files: string[] = []
    for (const [i, p] of pages.entries()) {
      const { status, text } = await get(`${options.base}${p.url}`, p.host, p.cookie)
      if (status !== (p.status ?? 200)) throw new Error(`${p.url} answered ${status}`)
      const file = join(dir, `page-${i}.html`)
      writeFileSync(file, text)
      files.push(file)
    }
    const started = performance.now()
    const messages = await runVnu(files)
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    const count = (i: number, type: 'error' | 'warning') =>
      messages.filter(
        (m) =>
          m.url?.endsWith(`/page-${i}.html`) &&
          (type === 'error' ? m.type === 'error' : m.type === 'info' && m.subType === 'warning'),
      ).length
    const rows = pages.map((p, i) => ({
      'page type': p.name,
      errors: count(i, 'error'),
      warnings: count(i, 'warning'),
    }))
    console.log(`\nW3C Nu HTML checker (vnu-jar, one run over ${files.length} pages, ${seconds} s):`)
    console.table(rows)
    const errors = rows.reduce((n, r) => n + r.errors, 0)
    const failing = rows.filter((r) => r.errors > 0).length
    console.log(
      `checker errors: ${errors} on ${rows.length} page types (${failing} with any), target 0: ${verdict(errors === 0)}`,
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export async function htmlBench(options: HtmlBenchOptions): Promise<void> {
  await productSizes(options)
  await checkerErrors(options)
}
