/**
 * Turns a product record (group, category trail, SKUs, alternatives) into the `Product` page's
 * props. Pure: everything here is the same for every visitor, so the result can be cached.
 * Its parts beside it: price grids (product.price-grids.ts), gallery and files
 * (product.media.ts), description placeholders (product.placeholders.ts), structured data
 * (product.json-ld.ts).
 */
import { EMPTY_HTML, escapeHtml } from '../../../shared/safe-html.ts'
import type {
  BuilderConfig,
  CatalogAttributes,
  StructuredDescription,
  ZonePricing,
} from '../../../shared/catalog.ts'
import { isBuilderConfig } from '../../../shared/builder.ts'
import type { Breadcrumb, Currency } from '../../../shared/page-props.ts'
import { lowestUnitPrice, normaliseBrackets } from '../../../shared/pricing.ts'
import type {
  DescriptionTab,
  ProductDisplaySettings,
  ProductLayout,
  ProductDescription,
  ProductPageProps,
  ZonePriceTable,
} from '../../../shared/product.ts'
import { localeOfCurrency } from '../../../shared/spelling.ts'
import { sanitizeBreadcrumb, sanitizeRichText } from '../../lib/sanitize.ts'
import { PAGE_LAYOUTS, type ProductGroupRow } from './catalog.tables.ts'
import { presentProductTile } from './category.presenter.ts'
import type { ProductRecord, TrailCategory } from './product.queries.ts'
import { productJsonLd } from './product.json-ld.ts'
import { presentFiles, presentGallery } from './product.media.ts'
import { logoHtml, placeholderFiller, specificationValues, swatchGridHtml } from './product.placeholders.ts'
import { buildPriceGrids } from './product.price-grids.ts'
import { absoluteUrl, colourOf, isObject, plainText, safeUrl, slugPart } from './product.values.ts'

/** Page CSS longer than this is dropped rather than cut mid-rule. */
export const MAX_PAGE_CSS = 20_000

/** Spec §3 "Products settings" defaults (mediaHW 260 px, alternatives shown, 4 of them). */
export const PRODUCT_SETTINGS_DEFAULTS: ProductDisplaySettings = {
  titleColour: null,
  mediaHW: 260,
  showAlternatives: true,
  alternativesLimit: 4,
}

/** Omitted from the cached value: filled in per visit. */
/**
 * The page props plus the schema.org Product data. The route sends `jsonLd` only in the HTML
 * document's head (for crawlers), never as a page prop: the browser has no use for it.
 */
export type PresentedProduct = Omit<ProductPageProps, 'selectedSku'> & { jsonLd: Record<string, unknown> }

export interface PresentContext {
  site: { name: string; currency: Currency; logo: string | null }
  /** e.g. https://shop.example — canonical link and structured data are absolute */
  baseUrl: string
  settings: ProductDisplaySettings
}

/**
 * The site's product display settings. The site settings schema has no `products` section yet,
 * so this reads one if present (validated) and falls back to the spec defaults.
 */
export function productSettings(siteSettings: unknown): ProductDisplaySettings {
  const raw = (siteSettings as { products?: Record<string, unknown> } | null)?.products
  const out = { ...PRODUCT_SETTINGS_DEFAULTS }
  if (!raw || typeof raw !== 'object') return out
  if (typeof raw.titleColour === 'string' && /^#[0-9a-f]{3}(?:[0-9a-f]{3})?$/i.test(raw.titleColour))
    out.titleColour = raw.titleColour
  if (typeof raw.mediaHW === 'number' && raw.mediaHW >= 100 && raw.mediaHW <= 1000)
    out.mediaHW = Math.round(raw.mediaHW)
  if (typeof raw.showAlternatives === 'boolean') out.showAlternatives = raw.showAlternatives
  if (typeof raw.alternativesLimit === 'number' && raw.alternativesLimit >= 0 && raw.alternativesLimit <= 24)
    out.alternativesLimit = Math.floor(raw.alternativesLimit)
  if (typeof raw.pageLayout === 'string' && (PAGE_LAYOUTS as readonly string[]).includes(raw.pageLayout))
    out.pageLayout = raw.pageLayout as ProductLayout
  return out
}

/**
 * Spec §2: the layout comes from the products story setting (the site's default); the product's
 * own choice overrides it: its `story_blok.page_layout` attribute, else its imported layout column
 * when that names one other than Default. Unknown names count as unset.
 */
export function chooseLayout(
  attributes: CatalogAttributes,
  column: string,
  settings: Pick<ProductDisplaySettings, 'pageLayout'>,
): ProductLayout {
  const known = (v: unknown): v is ProductLayout =>
    typeof v === 'string' && (PAGE_LAYOUTS as readonly string[]).includes(v)
  const own = attributes.story_blok?.page_layout
  if (known(own)) return own
  if (known(column) && column !== 'Default') return column
  return settings.pageLayout ?? 'Default'
}

export function presentProduct(record: ProductRecord, ctx: PresentContext): PresentedProduct {
  const { group, trail, skus } = record
  const attributes: CatalogAttributes = isObject(group.attributes) ? group.attributes : {}
  const primary = trail.at(-1) ?? null
  const grids = buildPriceGrids(skus, attributes)
  const brackets = skus.map((s) => normaliseBrackets(s.priceList))
  const asLowAs = lowestUnitPrice(brackets) || Math.max(0, group.minPrice)
  const fill = placeholderFiller({
    swatches: swatchGridHtml(group.colourSwatches, localeOfCurrency(ctx.site.currency)),
    logo: ctx.site.logo ? logoHtml(ctx.site.logo, ctx.site.name) : EMPTY_HTML,
    specifications: specificationValues(attributes.specifications),
  })
  const rich = (source: string | null | undefined) => fill(sanitizeRichText(source ?? ''))
  const structured = isObject(group.longDescriptionStructured)
    ? (group.longDescriptionStructured as StructuredDescription)
    : null
  const gallery = presentGallery(group.media, group.name, attributes.media?.wistiaid)
  const metaDescription = plainText(attributes.meta?.meta_description) || plainText(group.shortDescription)
  const canonical = absoluteUrl(group.url, ctx.baseUrl)

  return {
    product: {
      id: group.id,
      name: group.name,
      url: group.url,
      layout: chooseLayout(attributes, group.layout, ctx.settings),
      colour: colourOf(attributes),
      shortDescription: sanitizeRichText(group.shortDescription),
      asLowAs,
      gallery,
      files: presentFiles(group.files),
      mp3Link: safeUrl(group.mp3Link),
      description: structuredOrPlain({
        above: rich(structured?.above),
        tabs: presentTabs(structured?.tabs).map((t) => ({ ...t, content: fill(t.content) })),
        below: rich(structured?.below),
        plain: rich(group.longDescription),
      }),
      longDescription2: rich(structured?.long_description2?.content || group.longDescription2),
      grids,
      builder: presentBuilder(
        primary?.builder,
        skus.filter((s) => s.published).map((s) => s.id),
      ),
      zonePricing: presentZonePricing(group.zonePricing),
      pageCss: sanitiseCss(pageCssOf(attributes)),
    },
    category: primary
      ? { id: primary.id, uuid: primary.uuid, name: plainText(primary.name), url: primary.url }
      : { id: group.categoryId, uuid: '', name: '', url: '/' },
    breadcrumbs: presentBreadcrumbs(trail, group),
    canonical,
    metaDescription,
    jsonLd: productJsonLd({
      group,
      attributes,
      skus,
      brackets,
      gallery,
      description: metaDescription,
      canonical,
      baseUrl: ctx.baseUrl,
      currency: ctx.site.currency,
    }),
    alternatives: ctx.settings.showAlternatives
      ? record.alternatives.slice(0, ctx.settings.alternativesLimit).map(presentProductTile)
      : [],
    settings: ctx.settings,
  }
}

/**
 * The page shows the structured description (above, tabs, below) when it has any part, else the
 * plain one: the one it does not show is not sent (it was often the same text twice).
 */
function structuredOrPlain(description: ProductDescription): ProductDescription {
  const structured = description.tabs.length > 0 || !!description.above || !!description.below
  return structured ? { ...description, plain: EMPTY_HTML } : description
}

function presentTabs(tabs: unknown): DescriptionTab[] {
  if (!Array.isArray(tabs)) return []
  const seen = new Set<string>()
  const out: DescriptionTab[] = []
  for (const [i, tab] of tabs.entries()) {
    if (!isObject(tab)) continue
    const label = plainText((tab as DescriptionTab).label)
    if (!label) continue
    let id = slugPart(String((tab as DescriptionTab).id ?? '')) || `tab-${i + 1}`
    while (seen.has(id)) id = `${id}-${i + 1}`
    seen.add(id)
    out.push({ id, label, content: sanitizeRichText(String((tab as DescriptionTab).content ?? '')) })
  }
  return out
}

/**
 * The category's builder as this product's page offers it. A category builder may list the sizes
 * of every product in the category (each size item names its SKU in product_id); the page shows
 * only the sizes of its own SKUs (and generic sizes without a product_id), so what the shopper
 * builds is always this product. No size left: no builder on this page.
 */
function presentBuilder(builder: unknown, ownSkuIds: readonly number[]): BuilderConfig | null {
  if (!isObject(builder)) return null
  const raw = { ...(builder as BuilderConfig), options: (builder as BuilderConfig).options ?? [] }
  if (!isBuilderConfig(raw)) return null
  const own = new Set(ownSkuIds)
  const [first, ...rest] = raw.selectors
  const sizes = first!.items.filter((i) => typeof i.product_id !== 'number' || own.has(i.product_id))
  if (sizes.length === 0) return null
  const anySelected = sizes.some((i) => i.selected)
  const candidate: BuilderConfig = {
    ...raw,
    selectors: [
      {
        ...first!,
        items: sizes.map((i, n) => ({ ...i, selected: anySelected ? i.selected : n === 0 })),
      },
      ...rest,
    ],
  }
  const clean = (groups: BuilderConfig['selectors']) =>
    groups.map((g) => ({
      name: plainText(g.name),
      items: g.items.map((i) => ({
        id: i.id,
        name: plainText(i.name),
        cost: Math.max(0, Math.round(i.cost)),
        product_id: typeof i.product_id === 'number' ? i.product_id : null,
        ...(i.selected ? { selected: true } : {}),
      })),
    }))
  return { selectors: clean(candidate.selectors), options: clean(candidate.options) }
}

function presentZonePricing(zones: ZonePricing[] | null): ZonePriceTable[] {
  if (!Array.isArray(zones)) return []
  return zones.flatMap((z) => {
    const label = plainText(z?.builder_customisation_type?.customer_label)
    const prices = Array.isArray(z?.prices)
      ? z.prices
          .filter((p) => p && Number.isFinite(p.price))
          .map((p) => ({
            quantityBreak: plainText(String(p.quantity_break ?? '')),
            price: Math.round(p.price),
          }))
      : []
    return label && prices.length > 0 ? [{ label, prices }] : []
  })
}

function presentBreadcrumbs(trail: readonly TrailCategory[], group: ProductGroupRow): Breadcrumb[] {
  return [
    { name: escapeHtml('Home'), url: '/' },
    ...trail.map((c) => ({ name: sanitizeBreadcrumb(c.name), url: c.published ? c.url : null })),
    { name: sanitizeBreadcrumb(group.name), url: group.url },
  ]
}

// --- Helpers ------------------------------------------------------------------------------

function pageCssOf(attributes: CatalogAttributes): string {
  const css = (attributes.story_blok as { page_css?: unknown } | undefined)?.page_css
  return typeof css === 'string' ? css : ''
}

/**
 * Page-specific CSS from the product (attributes.story_blok.page_css), made safe for a <style>
 * element: no markup, no imports, no script URLs or legacy expressions; oversize CSS is dropped.
 */
export function sanitiseCss(css: string): string {
  if (!css || css.length > MAX_PAGE_CSS) return ''
  return css
    .replace(/<\/?[a-z!][^>]*>?/gi, '')
    .replace(/[<]/g, '')
    .replace(/@import[^;]*;?/gi, '')
    .replace(/expression\s*\(/gi, '(')
    .replace(/javascript\s*:/gi, '')
    .replace(/behavior\s*:/gi, '')
    .replace(/-moz-binding\s*:/gi, '')
    .replace(/url\s*\(([^)]*)\)/gi, (whole, inner: string) =>
      /^\/(?!\/)|^https:\/\//i.test(inner.trim().replace(/^['"]/, '')) ? whole : 'none',
    )
    .trim()
}
