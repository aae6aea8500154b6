import { describe, expect, it } from 'vitest'
import {
  compressedSizes,
  firstLoads,
  formatTable,
  judge,
  type Budget,
  type Manifest,
} from './bundle-budget.ts'

/**
 * A manifest shaped like Vite's: the entry imports the framework chunk, two pages share a chunk,
 * one page loads a heavy chunk only on demand (a dynamic import).
 */
const manifest: Manifest = {
  'src/client/app.tsx': {
    file: 'assets/app.js',
    isEntry: true,
    imports: ['_framework.js'],
    dynamicImports: ['src/client/pages/Product.tsx', 'src/client/pages/Customer/Orders.tsx'],
    css: ['assets/app.css'],
  },
  '_framework.js': { file: 'assets/framework.js' },
  '_shared.js': { file: 'assets/shared.js', imports: ['_framework.js'] },
  '_heavy.js': { file: 'assets/heavy.js' },
  'src/client/pages/Product.tsx': {
    file: 'assets/Product.js',
    isDynamicEntry: true,
    imports: ['src/client/app.tsx', '_shared.js', '_framework.js'],
    dynamicImports: ['_heavy.js'],
  },
  'src/client/pages/Customer/Orders.tsx': {
    file: 'assets/Orders.js',
    isDynamicEntry: true,
    imports: ['_shared.js'],
    css: ['assets/orders.css'],
  },
  'src/client/pages/Product.test.tsx': { file: 'assets/ignored.js' },
}

// Incompressible bytes of a given length, so the compressed sizes are close to the raw ones.
function noise(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length)
  let x = seed
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0
    out[i] = x >>> 24
  }
  return out
}

const sizes: Record<string, number> = {
  'assets/app.js': 10_000,
  'assets/framework.js': 60_000,
  'assets/shared.js': 20_000,
  'assets/heavy.js': 500_000,
  'assets/Product.js': 15_000,
  'assets/Orders.js': 5_000,
  'assets/app.css': 3_000,
  'assets/orders.css': 1_000,
}
const files = Object.fromEntries(Object.entries(sizes).map(([f, n], i) => [f, noise(n, i + 1)]))
const read = (file: string) => {
  const bytes = files[file]
  if (!bytes) throw new Error(`no file ${file}`)
  return bytes
}

describe('first-load JavaScript per page', () => {
  const loads = firstLoads(manifest, read)
  const byPage = Object.fromEntries(loads.map((l) => [l.page, l]))

  it('names each page by its Inertia component and ignores test files', () => {
    expect(loads.map((l) => l.page)).toEqual(['Customer/Orders', 'Product'])
  })

  it('counts the entry, the page and their static imports once each, and not dynamic imports', () => {
    expect(byPage.Product!.js).toEqual([
      'assets/app.js',
      'assets/framework.js',
      'assets/Product.js',
      'assets/shared.js',
    ])
    expect(byPage.Product!.jsSize.raw).toBe(10_000 + 60_000 + 15_000 + 20_000)
    expect(byPage['Customer/Orders']!.jsSize.raw).toBe(10_000 + 60_000 + 5_000 + 20_000)
  })

  it('sums the compressed size of each file, as the browser fetches them one by one', () => {
    const expected = byPage.Product!.js.reduce((n, f) => n + compressedSizes(read(f)).brotli, 0)
    expect(byPage.Product!.jsSize.brotli).toBe(expected)
    expect(byPage.Product!.jsSize.gzip).toBeGreaterThan(0)
  })

  it('reports the stylesheets apart from the JavaScript', () => {
    expect(byPage['Customer/Orders']!.css).toEqual(['assets/app.css', 'assets/orders.css'])
    expect(byPage['Customer/Orders']!.cssSize.raw).toBe(4_000)
  })

  it('compresses text far below its raw size', () => {
    const text = new TextEncoder().encode('export const a = 1;\n'.repeat(1000))
    const s = compressedSizes(text)
    expect(s.brotli).toBeLessThan(s.raw / 20)
    expect(s.gzip).toBeLessThan(s.raw / 20)
  })
})

describe('the budget', () => {
  const loads = firstLoads(manifest, read)
  const budget = (productPage: number, anyPage: number, allowances: Record<string, number> = {}): Budget => ({
    productPage,
    anyPage,
    productName: 'Product',
    allowances,
  })

  it('passes pages under their limits and fails the product page over its own, stricter limit', () => {
    const product = loads.find((l) => l.page === 'Product')!.jsSize.brotli
    const verdicts = judge(loads, budget(product - 1, 1_000_000))
    expect(verdicts.find((v) => v.page === 'Product')).toMatchObject({ met: false, withinLimit: false })
    expect(verdicts.find((v) => v.page === 'Customer/Orders')).toMatchObject({ met: true, withinLimit: true })
  })

  it('fails any page over the limit for every page', () => {
    const orders = loads.find((l) => l.page === 'Customer/Orders')!.jsSize.brotli
    const verdicts = judge(loads, budget(1_000_000, orders - 1))
    expect(verdicts.find((v) => v.page === 'Customer/Orders')!.withinLimit).toBe(false)
  })

  it('lets a page over target pass only up to its allowance, still saying the target is not met', () => {
    const product = loads.find((l) => l.page === 'Product')!.jsSize.brotli
    const within = judge(loads, budget(1_000, 1_000_000, { Product: product }))
    expect(within.find((v) => v.page === 'Product')).toMatchObject({ met: false, withinLimit: true })
    const grown = judge(loads, budget(1_000, 1_000_000, { Product: product - 1 }))
    expect(grown.find((v) => v.page === 'Product')!.withinLimit).toBe(false)
  })

  it('refuses a manifest without the product page rather than passing it', () => {
    const withoutProduct = loads.filter((l) => l.page !== 'Product')
    expect(() => judge(withoutProduct, budget(1, 1))).toThrow(/Product/)
  })

  it('prints one line per page with its figures, target and verdict', () => {
    const product = loads.find((l) => l.page === 'Product')!.jsSize.brotli
    const table = formatTable(loads, judge(loads, budget(product - 1, 1_000_000, { Product: product })))
    const line = table.split('\n').find((l) => l.startsWith('Product'))!
    expect(line).toContain((product / 1000).toFixed(1))
    expect(line).toContain('NOT met (build allows')
    expect(table.split('\n').find((l) => l.startsWith('Customer/Orders'))).toMatch(/ met$/)
  })
})
