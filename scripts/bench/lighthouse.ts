/**
 * Lighthouse mobile (its default config: a mid-range phone on a throttled 4G link, simulated)
 * on every page type of both demo sites: home, category, paginated listing, the product page in
 * each layout the demo has, search and a basket with lines in it. Runs inside `npm run bench`
 * (`--only=lighthouse`), or alone against a running server:
 *
 *   npx tsx scripts/bench/lighthouse.ts --base=http://127.0.0.1:3000 [--lighthouse-filter=product]
 *
 * Chromium is Debian's (`CHROMIUM_PATH`, default /usr/bin/chromium) with the flags the browser
 * tests use; the machine has no internet, and nothing Lighthouse runs by default fetches from
 * outside the page's own origin. Each run's JSON report is kept in var/lighthouse/ for reading
 * the failing audits.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { DEMO_PAGES as SITES } from './demo-pages.ts'

const root = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../..')

/** The targets for every page. */
export const LIGHTHOUSE_TARGETS = { performance: 95, accessibility: 100, bestPractices: 100, cls: 0.05 }

/** The flags the Playwright config gives Chromium (playwright.config.ts), headless. */
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
]

export interface LighthouseRow {
  page: string
  site: string
  performance: number
  accessibility: number
  bestPractices: number
  cls: number
  lcpMs: number
  tbtMs: number
  transferKB: number
  /** Audits under full marks in the accessibility and best-practices categories */
  failing: string[]
  met: boolean
}

function request(
  base: string,
  host: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolveCall, reject) => {
    const req = http.request(
      new URL(path, base),
      {
        method,
        headers: {
          host,
          ...headers,
          ...(body
            ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }
            : {}),
        },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => (text += c))
        res.on('end', () => resolveCall({ status: res.statusCode ?? 0, headers: res.headers, text }))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/**
 * A visitor's basket on one site, filled the way the product page does (`POST /cart/add` with
 * the CSRF cookie and token): returns the Cookie header that shows it.
 */
async function basketCookie(base: string, host: string, products: string[]): Promise<string> {
  const jar = new Map<string, string>()
  const keep = (setCookie: string[] | undefined) => {
    for (const c of setCookie ?? []) {
      const [pair] = c.split(';')
      const i = pair!.indexOf('=')
      jar.set(pair!.slice(0, i), pair!.slice(i + 1))
    }
  }
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
  const first = await request(base, host, 'GET', '/', { accept: 'text/html' })
  keep(first.headers['set-cookie'])
  // A stale asset version is answered with 409 and the current one, as a browser learns it.
  const stale = await request(base, host, 'GET', '/', {
    'x-inertia': 'true',
    'x-requested-with': 'XMLHttpRequest',
    'x-inertia-version': 'stale',
  })
  const version = String(stale.headers['x-inertia-version'] ?? '')
  const items: { listing_id: number; quantity: number; category_id: number }[] = []
  for (const path of products) {
    const res = await request(base, host, 'GET', path, {
      cookie: cookie(),
      'x-inertia': 'true',
      'x-requested-with': 'XMLHttpRequest',
      'x-inertia-version': version,
    })
    if (res.status !== 200) throw new Error(`${host}${path}: ${res.status}`)
    const { props } = JSON.parse(res.text) as {
      props: {
        category: { id: number }
        product: { grids: { rows: { options: { productId: number | null }[] }[] }[] }
      }
    }
    const listing = props.product.grids[0]?.rows[0]?.options.find((o) => o.productId)?.productId
    if (listing) items.push({ listing_id: listing, quantity: 1, category_id: props.category.id })
  }
  const xsrf = decodeURIComponent(jar.get('XSRF-TOKEN') ?? '')
  const added = await request(
    base,
    host,
    'POST',
    '/cart/add',
    { accept: 'application/json', cookie: cookie(), 'x-xsrf-token': xsrf },
    JSON.stringify({ items }),
  )
  if (added.status !== 200)
    throw new Error(`filling the ${host} basket failed: ${added.status} ${added.text}`)
  keep(added.headers['set-cookie'])
  return cookie()
}

/**
 * One visit without a browser before Lighthouse's: the server's steady state, where the image
 * service has already made the page's image variants and the render caches are warm (a cold
 * image variant costs a sharp resize, which a fresh bench database would otherwise charge to
 * the first visitor of every page).
 */
async function warmUp(base: string, host: string, path: string, cookie?: string): Promise<void> {
  const headers = { accept: 'text/html', ...(cookie ? { cookie } : {}) }
  const page = await request(base, host, 'GET', path, headers)
  const urls = new Set<string>()
  for (const m of page.text.matchAll(/(?:src|href)="(\/[^"]+)"/g)) urls.add(m[1]!.replaceAll('&amp;', '&'))
  for (const m of page.text.matchAll(/srcSet="([^"]+)"/gi))
    for (const entry of m[1]!.split(',')) urls.add(entry.trim().split(' ')[0]!.replaceAll('&amp;', '&'))
  for (const url of urls) {
    if (!/^\/(img|media|assets|brands)\//.test(url)) continue
    await request(base, host, 'GET', url, { accept: 'image/avif,image/webp,*/*' })
  }
}

/** Lighthouse's scores (0–100) and metrics for one page. */
function summarise(lhr: {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>
  audits: Record<string, { score: number | null; numericValue?: number; scoreDisplayMode?: string }>
}): Omit<LighthouseRow, 'page' | 'site' | 'met'> {
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100)
  const value = (id: string) => lhr.audits[id]?.numericValue ?? NaN
  const failing: string[] = []
  for (const category of ['accessibility', 'best-practices']) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id]
      if (audit && audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'informative')
        failing.push(ref.id)
    }
  }
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    cls: value('cumulative-layout-shift'),
    lcpMs: value('largest-contentful-paint'),
    tbtMs: value('total-blocking-time'),
    transferKB: value('total-byte-weight') / 1024,
    failing,
  }
}

/**
 * Runs Lighthouse on every page of both sites against the server at `base` (which must answer
 * for the hosts localhost and 127.0.0.1 on its port) and prints one line a page with the
 * targets met or not. `filter` keeps only the pages whose "site page" text contains it.
 */
export async function lighthouseBench(base: string, filter?: string): Promise<LighthouseRow[]> {
  const port = new URL(base).port
  const reports = resolve(root, 'var/lighthouse')
  mkdirSync(reports, { recursive: true })
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
    logLevel: 'silent',
  })
  const rows: LighthouseRow[] = []
  try {
    for (const site of SITES) {
      const pages = site.pages.filter((p) => !filter || `${site.host} ${p.page}`.includes(filter))
      if (pages.length === 0) continue
      const needsBasket = pages.some((p) => p.path === '/cart')
      const cookie = needsBasket
        ? await basketCookie(
            base,
            site.host,
            site.pages.filter((p) => p.basket).map((p) => p.path),
          )
        : undefined
      for (const spec of pages) {
        const url = `http://${site.host}:${port}${spec.path}`
        await warmUp(base, site.host, spec.path, spec.path === '/cart' ? cookie : undefined)
        // A trace can come back unusable on a busy machine (NO_NAVSTART): run that page again.
        let lhr: NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'] | undefined
        for (let attempt = 1; attempt <= 3; attempt++) {
          const result = await lighthouse(url, {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance', 'accessibility', 'best-practices'],
            ...(spec.path === '/cart' && cookie ? { extraHeaders: { cookie } } : {}),
          })
          lhr = result?.lhr
          if (lhr && !lhr.runtimeError) break
          console.error(
            `Lighthouse, ${url} (attempt ${attempt}): ${lhr?.runtimeError?.message ?? 'no result'}`,
          )
        }
        if (!lhr || lhr.runtimeError) throw new Error(`Lighthouse could not measure ${url}`)
        const name = `${site.host}-${spec.page}`.replace(/[^a-z0-9.]+/gi, '-').toLowerCase()
        writeFileSync(resolve(reports, `${name}.json`), JSON.stringify(lhr))
        const s = summarise(lhr as unknown as Parameters<typeof summarise>[0])
        const met =
          s.performance >= LIGHTHOUSE_TARGETS.performance &&
          s.accessibility >= LIGHTHOUSE_TARGETS.accessibility &&
          s.bestPractices >= LIGHTHOUSE_TARGETS.bestPractices &&
          s.cls < LIGHTHOUSE_TARGETS.cls
        rows.push({ page: spec.page, site: site.host, ...s, met })
      }
    }
  } finally {
    chrome.kill()
  }
  console.log(
    `Lighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version} mobile (default throttling), Chromium ${process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'}; targets: performance ≥${LIGHTHOUSE_TARGETS.performance}, accessibility ${LIGHTHOUSE_TARGETS.accessibility}, best practices ${LIGHTHOUSE_TARGETS.bestPractices}, CLS < ${LIGHTHOUSE_TARGETS.cls}; load average at the end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
  console.table(
    rows.map((r) => ({
      page: r.page,
      site: r.site,
      performance: r.performance,
      accessibility: r.accessibility,
      'best practices': r.bestPractices,
      CLS: r.cls.toFixed(3),
      'LCP s': (r.lcpMs / 1000).toFixed(2),
      'TBT ms': r.tbtMs.toFixed(0),
      'transfer KB': r.transferKB.toFixed(0),
      targets: r.met ? 'met' : 'NOT met',
    })),
  )
  for (const r of rows)
    if (r.failing.length > 0) console.log(`  ${r.site} ${r.page}: failing audits ${r.failing.join(', ')}`)
  const missed = rows.filter((r) => !r.met).length
  console.log(
    `Lighthouse: ${rows.length - missed} of ${rows.length} pages meet every target (${missed === 0 ? 'met' : 'NOT met'})`,
  )
  return rows
}

// Alone: `npx tsx scripts/bench/lighthouse.ts --base=http://127.0.0.1:3000`
if (import.meta.url === `file://${process.argv[1]}`) {
  const args = new Map(
    process.argv.slice(2).map((a) => {
      const [k, v] = a.replace(/^--/, '').split('=')
      return [k!, v ?? 'true'] as const
    }),
  )
  await lighthouseBench(args.get('base') ?? 'http://127.0.0.1:3000', args.get('lighthouse-filter'))
}
