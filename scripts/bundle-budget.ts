/**
 * First-load JavaScript per page, from the Vite manifest of the client build (issue 18).
 *
 * A page's first load is what the browser must fetch before the page can hydrate: the entry
 * chunk and its static imports, plus the page's own chunk and its static imports. Dynamic
 * imports (lazy parts loaded on interaction or on another page) are not part of it. Each file is
 * counted once and measured compressed, the way it goes over the wire: Brotli at quality 11 and
 * gzip at level 9 (the build precompresses every asset at those settings; scripts/precompress.ts).
 * The budget is checked on the Brotli figure (every browser the shop supports asks for br); the
 * gzip figure is printed beside it.
 *
 * The calculation is pure (manifest + a function reading a file's bytes), so it is unit-tested
 * with a fixture manifest; scripts/check-bundle-budget.ts runs it on dist/client after a build.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

/** One entry of Vite's `.vite/manifest.json` (the fields this module reads). */
export interface ManifestChunk {
  file: string
  src?: string
  isEntry?: boolean
  isDynamicEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
  css?: string[]
}

export type Manifest = Record<string, ManifestChunk>

export interface Sizes {
  raw: number
  gzip: number
  brotli: number
}

export interface PageLoad {
  /** Inertia component name, e.g. `Product` or `Customer/Orders` */
  page: string
  /** Manifest file names (assets/…) of the JavaScript fetched on a first load, entry first */
  js: string[]
  /** Stylesheets the same chunks bring (reported apart from the JavaScript budget) */
  css: string[]
  jsSize: Sizes
  cssSize: Sizes
}

export interface Budget {
  /** Limit for the product page's first-load JavaScript, Brotli bytes */
  productPage: number
  /** Limit for any page's first-load JavaScript, Brotli bytes */
  anyPage: number
  /** Inertia name of the product page */
  productName: string
  /**
   * Pages over the issue's target today, with the figure they may not grow past (Brotli bytes):
   * the build fails on a regression at once, and on these pages' targets once they are met
   * (lower or remove an allowance as its page shrinks).
   */
  allowances: Record<string, number>
}

/**
 * Issue 18: product page at most 100 KB, no page over 130 KB (Brotli, KB = 1,000 bytes). No page
 * has an allowance since the shipped pages run on Preact's compatibility layer (ADR 0105); an
 * allowance is for a page knowingly over target, with its reason beside it.
 */
export const BUDGET: Budget = {
  productPage: 100_000,
  anyPage: 130_000,
  productName: 'Product',
  allowances: {},
}

export const PAGE_PREFIX = 'src/client/pages/'

/** Keys of the chunks reachable from `key` through static imports, `key` first, each once. */
export function staticClosure(manifest: Manifest, key: string, seen = new Set<string>()): string[] {
  const order: string[] = []
  const visit = (k: string) => {
    if (seen.has(k)) return
    seen.add(k)
    const chunk = manifest[k]
    if (!chunk) throw new Error(`manifest has no chunk ${k}`)
    order.push(k)
    for (const next of chunk.imports ?? []) visit(next)
  }
  visit(key)
  return order
}

/** The manifest key of the browser entry (the one chunk marked `isEntry`). */
export function entryKey(manifest: Manifest): string {
  const entries = Object.keys(manifest).filter((k) => manifest[k]!.isEntry)
  if (entries.length !== 1) throw new Error(`expected one entry in the manifest, found ${entries.length}`)
  return entries[0]!
}

/** Page components: `src/client/pages/Customer/Orders.tsx` → `Customer/Orders` (tests excluded). */
export function pageKeys(manifest: Manifest): { page: string; key: string }[] {
  return Object.keys(manifest)
    .filter((k) => k.startsWith(PAGE_PREFIX) && k.endsWith('.tsx') && !k.includes('.test.'))
    .map((key) => ({ page: key.slice(PAGE_PREFIX.length, -'.tsx'.length), key }))
    .sort((a, b) => a.page.localeCompare(b.page))
}

export function compressedSizes(bytes: Uint8Array): Sizes {
  return {
    raw: bytes.byteLength,
    gzip: gzipSync(bytes, { level: 9 }).byteLength,
    brotli: brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
      },
    }).byteLength,
  }
}

function sum(files: string[], sizeOf: (file: string) => Sizes): Sizes {
  const total = { raw: 0, gzip: 0, brotli: 0 }
  for (const f of files) {
    const s = sizeOf(f)
    total.raw += s.raw
    total.gzip += s.gzip
    total.brotli += s.brotli
  }
  return total
}

/**
 * Every page's first load. `read` returns a built file's bytes by its manifest file name
 * (`assets/app-….js`); sizes are computed once per file.
 */
export function firstLoads(manifest: Manifest, read: (file: string) => Uint8Array): PageLoad[] {
  const cache = new Map<string, Sizes>()
  const sizeOf = (file: string) => {
    let s = cache.get(file)
    if (!s) cache.set(file, (s = compressedSizes(read(file))))
    return s
  }
  const entry = entryKey(manifest)
  return pageKeys(manifest).map(({ page, key }) => {
    const seen = new Set<string>()
    const keys = [...staticClosure(manifest, entry, seen), ...staticClosure(manifest, key, seen)]
    const js = keys.map((k) => manifest[k]!.file)
    const css = [...new Set(keys.flatMap((k) => manifest[k]!.css ?? []))]
    return { page, js, css, jsSize: sum(js, sizeOf), cssSize: sum(css, sizeOf) }
  })
}

export interface Verdict {
  page: string
  /** First-load JavaScript with Brotli, the encoding every current browser asks for */
  brotli: number
  /** The issue's target for this page */
  target: number
  met: boolean
  /** What the build allows: the target, or the page's allowance while it is over target */
  limit: number
  withinLimit: boolean
}

/** Checks each page's Brotli figure against its target and against what the build allows. */
export function judge(loads: PageLoad[], budget: Budget = BUDGET): Verdict[] {
  if (!loads.some((l) => l.page === budget.productName))
    throw new Error(`no page named ${budget.productName} in the manifest`)
  return loads.map((l) => {
    const brotli = l.jsSize.brotli
    const target = l.page === budget.productName ? budget.productPage : budget.anyPage
    const limit = Math.max(target, budget.allowances[l.page] ?? 0)
    return { page: l.page, brotli, target, met: brotli <= target, limit, withinLimit: brotli <= limit }
  })
}

const kb = (n: number) => (n / 1000).toFixed(1)

/** The table printed by the build and the bench: one line per page, target and met/NOT met. */
export function formatTable(loads: PageLoad[], verdicts: Verdict[]): string {
  const width = Math.max(...loads.map((l) => l.page.length), 4)
  const lines = [
    `${'page'.padEnd(width)}  files  raw KB  gzip KB  brotli KB  css gzip KB  target`,
    ...loads.map((l, i) => {
      const v = verdicts[i]!
      return [
        l.page.padEnd(width),
        String(l.js.length).padStart(5),
        kb(l.jsSize.raw).padStart(6),
        kb(l.jsSize.gzip).padStart(7),
        kb(l.jsSize.brotli).padStart(9),
        kb(l.cssSize.gzip).padStart(11),
        ` <= ${kb(v.target)} KB ${v.met ? 'met' : 'NOT met'}${v.limit > v.target ? ` (build allows ${kb(v.limit)} KB)` : ''}`,
      ].join('  ')
    }),
  ]
  return lines.join('\n')
}
