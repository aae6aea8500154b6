import { describe, expect, it } from 'vitest'
import { demoSites } from '../sites.ts'
import { generateSiteCatalog, type SiteCatalog } from './generate.ts'
import { photoShape } from './media.ts'
import { computeMinPrice } from './pricing.ts'
import { SITE_SPECS } from './vocabulary.ts'

type Link = { label: string; url: string }
const navigationOf = (site: { settings: { navigation?: unknown } }) =>
  (site.settings.navigation ?? []) as Link[]

const catalogs: SiteCatalog[] = SITE_SPECS.map(generateSiteCatalog)
const [harbour, northgate] = catalogs as [SiteCatalog, SiteCatalog]

describe('the catalogue generator', () => {
  it('produces exactly the same catalogue on every run', async () => {
    const again = SITE_SPECS.map(generateSiteCatalog)
    const strip = (c: SiteCatalog) => ({ ...c, files: c.files.map((f) => [f.path, f.key]) })
    expect(again.map(strip)).toEqual(catalogs.map(strip))
    const file = harbour.files.find((f) => f.path.endsWith('.jpg'))
    expect(file).toBeDefined()
    expect(
      (await file!.render()).equals(await again[0]!.files.find((f) => f.path === file!.path)!.render()),
    ).toBe(true)
  })

  it('makes at least 500 groups and 2,000 SKUs, most on the GBP site', () => {
    const groups = catalogs.reduce((n, c) => n + c.groups.length, 0)
    const skus = catalogs.reduce((n, c) => n + c.skus.length, 0)
    expect(groups).toBeGreaterThanOrEqual(500)
    expect(skus).toBeGreaterThanOrEqual(2000)
    expect(harbour.groups.length).toBeGreaterThan(northgate.groups.length)
  })

  it('creates every catalogue url the site navigation links to', () => {
    for (const site of demoSites) {
      const catalog = catalogs.find((c) => c.siteCode === site.code)!
      const urls = new Set(catalog.categories.map((c) => c.url))
      for (const link of navigationOf(site).filter((l) => l.url !== '/about-us')) {
        expect(urls.has(link.url), link.url).toBe(true)
      }
    }
  })

  it('keeps urls unique and product urls under their category', () => {
    for (const c of catalogs) {
      const categoryUrls = c.categories.map((x) => x.url)
      const groupUrls = c.groups.map((g) => g.url)
      expect(new Set([...categoryUrls, ...groupUrls]).size).toBe(categoryUrls.length + groupUrls.length)
      for (const g of c.groups) expect(g.url.startsWith(`${g.categoryUrl}/`)).toBe(true)
      expect(new Set(c.skus.map((s) => s.sku)).size).toBe(c.skus.length)
    }
  })

  it('stores the lowest published price on each group, and every group keeps a published SKU', () => {
    for (const c of catalogs) {
      for (const g of c.groups) {
        const skus = c.skus.filter((s) => s.groupUrl === g.url)
        expect(
          skus.some((s) => s.published),
          g.url,
        ).toBe(true)
        expect(g.minPrice).toBe(computeMinPrice(skus))
      }
    }
  })

  it('mixes the shapes of data the pages must handle', () => {
    const groups = catalogs.flatMap((c) => c.groups)
    const skus = catalogs.flatMap((c) => c.skus)
    expect(new Set(groups.map((g) => g.layout)).size).toBe(4)
    expect(groups.some((g) => g.media.filter((m) => m.type === 'image').length >= 5)).toBe(true)
    expect(groups.some((g) => g.media.some((m) => m.type === 'video' && m.video_id))).toBe(true)
    expect(groups.some((g) => g.colourSwatches)).toBe(true)
    expect(new Set(groups.flatMap((g) => g.files.map((f) => f.file_type)))).toEqual(
      new Set(['pdf', 'docx', 'xlsx']),
    )
    expect(groups.some((g) => g.longDescriptionStructured?.tabs?.length)).toBe(true)
    expect(groups.some((g) => Object.keys(g.attributes.specifications ?? {}).length === 10)).toBe(true)
    expect(groups.some((g) => g.attributes.features?.flash)).toBe(true)
    expect(
      groups.some((g) => g.zonePricing?.[0]?.builder_customisation_type.customer_label === 'Custom Pricing'),
    ).toBe(true)
    expect(groups.some((g) => !g.published)).toBe(true)
    expect(skus.some((s) => !s.published)).toBe(true)
    expect(skus.some((s) => s.wasPrice !== null && s.wasPrice > (s.priceList[0]?.price ?? 0))).toBe(true)
    expect(new Set(skus.map((s) => s.grid))).toEqual(new Set([1, 2, 3]))
    const rowKeys = new Map<string, number>()
    for (const s of skus) if (s.rowKey) rowKeys.set(s.rowKey, (rowKeys.get(s.rowKey) ?? 0) + 1)
    expect([...rowKeys.values()].some((n) => n >= 3)).toBe(true)
    expect(skus.filter((s) => s.rowKey).every((s) => s.optionLabel)).toBe(true)
  })

  it('marks care products as VAT-relief eligible and nothing on the GBP site', () => {
    expect(northgate.groups.every((g) => g.vatReliefEligible)).toBe(true)
    expect(harbour.groups.some((g) => g.vatReliefEligible)).toBe(false)
  })

  it('has trade categories, grid and paginated categories, and builders', () => {
    const all = catalogs.flatMap((c) => c.categories)
    expect(all.filter((c) => c.referrerRequired).length).toBeGreaterThanOrEqual(3)
    expect(all.filter((c) => c.builder).length).toBeGreaterThanOrEqual(3)
    expect(all.some((c) => c.display === 'grid')).toBe(true)
    expect(all.filter((c) => c.display === 'paginated').length).toBeGreaterThan(all.length / 2)
    expect(Math.max(...all.map((c) => c.depth))).toBe(3)
  })

  it('puts every group in its primary category and some in a second one', () => {
    for (const c of catalogs) {
      const primary = new Set(
        c.memberships
          .filter((m) => c.groups.find((g) => g.url === m.groupUrl)?.categoryUrl === m.categoryUrl)
          .map((m) => m.groupUrl),
      )
      expect(primary.size).toBe(c.groups.length)
      expect(c.memberships.length).toBeGreaterThan(c.groups.length)
      expect(c.memberships.some((m) => m.nameOverride)).toBe(true)
      expect(c.alternatives.length).toBeGreaterThan(c.groups.length)
      expect(c.alternatives.every((a) => a.groupUrl !== a.alternativeUrl)).toBe(true)
    }
  })

  it('gives every product a picture of itself, and a featured tile never the category banner', () => {
    for (const c of catalogs) {
      for (const g of c.groups)
        expect(
          g.media.some((m) => m.type === 'image'),
          g.url,
        ).toBe(true)
      const banners = new Set(c.categories.flatMap((x) => x.media.map((m) => m.file_location)))
      for (const m of c.memberships.filter((m) => m.imageOverride)) {
        expect(banners.has(m.imageOverride!)).toBe(false)
        const group = c.groups.find((g) => g.url === m.groupUrl)!
        expect(group.media.map((x) => x.file_location)).toContain(m.imageOverride)
      }
    }
  })

  it('draws each photo as the product its name says', () => {
    const shapeOf = (name: string) => photoShape(name)
    expect(shapeOf('StrideWell Quad Cane')).toBe('quadcane')
    expect(shapeOf('Classic Folding Cane')).toBe('cane')
    expect(shapeOf('Journey Transport Chair')).toBe('wheelchair')
    expect(shapeOf('Protect Chair Pad')).toBe('underpad')
    expect(shapeOf('Ergo Mesh Operator Chair')).toBe('chair')
    expect(shapeOf('Metro Bench Desk')).toBe('desk')
    expect(shapeOf('Cycle Shelter – Galvanised')).toBe('cycleshelter')
    expect(shapeOf('Gentle Barrier Cream')).toBe('cream')
  })

  it('prints no sentence twice on a product page or a category page', () => {
    const sentences = (html: string) =>
      html
        .replace(/<[^>]+>/g, ' ')
        .split(/(?<=[.!?])\s+/)
        .map((x) => x.replace(/\s+/g, ' ').trim())
        .filter((x) => x.length > 20)
    const repeated = (texts: string[]) => {
      const all = texts.flatMap(sentences)
      return all.filter((x, i) => all.indexOf(x) !== i)
    }
    for (const c of catalogs) {
      for (const g of c.groups) {
        const st = g.longDescriptionStructured
        // What the product page shows: the summary, the structured description (or the plain
        // one) and the second description.
        const shown = [
          g.shortDescription,
          ...(st
            ? [st.above ?? '', ...(st.tabs ?? []).map((t) => t.content), st.below ?? '']
            : [g.longDescription]),
          st?.long_description2?.content || g.longDescription2,
        ]
        expect(repeated(shown), g.url).toEqual([])
      }
      for (const x of c.categories) {
        const st = x.longDescriptionStructured
        expect(repeated([st?.above ?? '', x.longDescription, st?.below ?? '']), x.url).toEqual([])
      }
    }
  })

  it('states in each description the sizes its price grid sells', () => {
    for (const c of catalogs) {
      for (const g of c.groups) {
        const stated = /(\d+) sizes from/.exec(g.longDescription)?.[1]
        if (!stated) continue
        const sizes = new Set(
          c.skus
            .filter((s) => s.groupUrl === g.url && s.grid === 1 && s.published)
            .map((s) => s.description.split(', ')[0]),
        )
        expect(Number(stated), g.url).toBe(sizes.size)
      }
    }
  })

  it('words neighbouring products and categories differently', () => {
    for (const c of catalogs) {
      const opening = (html: string) => /<p>([^<]*)<\/p>/.exec(html)?.[1]?.split(' ').slice(0, 2).join(' ')
      expect(new Set(c.groups.map((g) => opening(g.longDescription))).size).toBeGreaterThanOrEqual(4)
      const browse = c.categories.map((x) =>
        sentences2(x.longDescription).at(-1)!.split(' ').slice(0, 2).join(' '),
      )
      expect(new Set(browse).size).toBeGreaterThanOrEqual(3)
    }
  })
})

function sentences2(html: string): string[] {
  return html.split(/<\/?p>/).filter(Boolean)
}
