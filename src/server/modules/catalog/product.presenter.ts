/**
 * Turns a product record (group, category trail, SKUs, alternatives) into the `Product` page's
 * props. Pure: everything here is the same for every visitor, so the result can be cached.
 *
 * Description placeholders (in the long descriptions, the structured description's above, below
 * and tab contents), matched case-insensitively:
 *
 *   {swatches}                 the colour swatch grid (colour_swatches)
 *   {as_low_as}                the 'As Low As' price; filled in by the browser so it follows the
 *                              VAT choice ('' when there is no price above 0)
 *   {logo}                     the site's logo
 *   {spec1} .. {spec10}        value of specification field 1..10 (attributes.specifications)
 *   {spec1_label} .. {spec10_label}   its label
 *
 * Specification data that is not an object of { label, value } strings keyed 1..10 is bad data:
 * every {specN} / {specN_label} placeholder is then blanked. A field that is not set blanks its
 * own placeholders.
 */
import {
  EMPTY_HTML,
  escapeHtml,
  html,
  joinHtml,
  replaceHtml,
  type SafeHtml,
} from '../../../shared/safe-html.ts'
import type {
  BuilderConfig,
  CatalogAttributes,
  CatalogFile,
  CatalogMedia,
  ColourSwatch,
  PriceBreak,
  StructuredDescription,
  ZonePricing,
} from '../../../shared/catalog.ts'
import { breadcrumbText } from '../../../shared/breadcrumbs.ts'
import { isBuilderConfig } from '../../../shared/builder.ts'
import { imageUrl } from '../../../shared/images.ts'
import type { Breadcrumb, Currency } from '../../../shared/page-props.ts'
import {
  highestUnitPrice,
  lowestUnitPrice,
  normaliseBrackets,
  type Bracket,
} from '../../../shared/pricing.ts'
import type {
  DataSheet,
  DescriptionTab,
  FullGridOption,
  GalleryItem,
  GridColumn,
  GridRow,
  PriceGrid,
  ProductDisplaySettings,
  ProductLayout,
  ProductDescription,
  ProductPageProps,
  ZonePriceTable,
} from '../../../shared/product.ts'
import {
  bracketsFromColumns,
  GALLERY_IMAGE_SIZES,
  galleryImageUrl,
  leanOption,
} from '../../../shared/product.ts'
import { GRID_MINIMUM_ORDER } from '../../../shared/quantity.ts'
import { colourWord, localeOfCurrency, type SpellingLocale } from '../../../shared/spelling.ts'
import { sanitizeBreadcrumb, sanitizeRichText, stripTags } from '../../lib/sanitize.ts'
import { PAGE_LAYOUTS, type ProductGroupRow, type ProductRow } from './catalog.tables.ts'
import { presentProductTile } from './category.presenter.ts'
import type { ProductRecord, TrailCategory } from './product.queries.ts'

export const MAX_PRICE_GRIDS = 3
export const MAX_SPECIFICATIONS = 10
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

/** `master_colour_key` as the product's colour (spec §3): plain text, at most 60 characters. */
export function colourOf(attributes: CatalogAttributes): string | null {
  const colour = plainText(attributes.master_colour_key).trim().slice(0, 60)
  return colour || null
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

// --- Price grids -------------------------------------------------------------------------

/**
 * Grids 1 to 3 from the SKUs: SKUs sharing a row key form one row with a dropdown of options
 * (first seen keeps the row's place), others are rows of their own. A grid's columns are the
 * union of its SKUs' price brackets, by name, lowest quantity first.
 */
export function buildPriceGrids(
  skus: readonly ProductRow[],
  attributes: CatalogAttributes = {},
): PriceGrid[] {
  const byGrid = new Map<number, ProductRow[]>()
  const ordered = [...skus]
    .filter((s) => s.published !== false)
    .sort((a, b) => gridNumber(a.grid) - gridNumber(b.grid) || a.position - b.position || a.id - b.id)
  for (const sku of ordered) {
    const n = gridNumber(sku.grid)
    byGrid.set(n, [...(byGrid.get(n) ?? []), sku])
  }
  const descriptions = isObject(attributes.pricing?.grid_descriptions)
    ? attributes.pricing.grid_descriptions
    : {}
  const unit = plainText(attributes.pricing?.unit_of_measurement) || null
  const grids: PriceGrid[] = []
  for (const [number, members] of [...byGrid.entries()].sort((a, b) => a[0] - b[0])) {
    const bracketsById = new Map(members.map((s) => [s.id, normaliseBrackets(s.priceList)]))
    const columns = gridColumns([...bracketsById.values()])
    const rows: GridRow[] = []
    const rowByKey = new Map<string, GridRow>()
    for (const sku of members) {
      const option = gridOption(sku, bracketsById.get(sku.id) ?? [], columns)
      const key = sku.rowKey?.trim()
      const existing = key ? rowByKey.get(key) : undefined
      if (existing) {
        existing.options.push(option)
        continue
      }
      const row: GridRow = {
        key: key ? `g${number}-${slugPart(key)}` : `g${number}-p${sku.id}`,
        productCode: sku.productCode,
        description: plainText(sku.description) || plainText(sku.name),
        options: [option],
      }
      rows.push(row)
      if (key) rowByKey.set(key, row)
    }
    // A row of several options reads what they share ('Standard', not the first one's
    // 'Standard, Black'); once an option is chosen the row reads that option's own description.
    for (const row of rows) {
      if (row.options.length < 2) continue
      const first = row.options[0]!
      const suffix = `, ${first.label}`
      if (first.description!.endsWith(suffix)) row.description = first.description!.slice(0, -suffix.length)
    }
    // What the page derives from the row is left out of each option (ADR 0110).
    for (const row of rows) row.options = row.options.map((o) => leanOption(row, o as FullGridOption))
    const description = descriptions[String(number)]
    grids.push({
      number,
      description: typeof description === 'string' && description.trim() ? plainText(description) : null,
      unitOfMeasurement: unit,
      columns,
      rows,
    })
  }
  return grids
}

function gridNumber(value: number): number {
  return Number.isInteger(value) && value >= 1 && value <= MAX_PRICE_GRIDS ? value : 1
}

function gridColumns(lists: readonly Bracket[][]): GridColumn[] {
  const byName = new Map<string, GridColumn>()
  for (const list of lists)
    for (const b of list)
      if (!byName.has(b.name))
        byName.set(b.name, { name: b.name, lowerQty: b.lowerQty, higherQty: b.higherQty })
  return [...byName.values()].sort((a, b) => a.lowerQty - b.lowerQty || a.higherQty - b.higherQty)
}

function gridOption(sku: ProductRow, brackets: Bracket[], columns: GridColumn[]): FullGridOption {
  const byName = new Map(brackets.map((b) => [b.name, b.price]))
  const priceList: PriceBreak[] = brackets.map((b) => ({
    lowerQty: b.lowerQty,
    higherQty: b.higherQty,
    price: b.price,
    name: b.name,
  }))
  const prices = columns.map((c) => byName.get(c.name) ?? null)
  const fromColumns = bracketsFromColumns(columns, prices)
  const same =
    fromColumns.length === priceList.length &&
    fromColumns.every(
      (b, i) =>
        b.name === priceList[i]!.name &&
        b.lowerQty === priceList[i]!.lowerQty &&
        b.higherQty === priceList[i]!.higherQty &&
        b.price === priceList[i]!.price,
    )
  return {
    productId: sku.id,
    sku: sku.sku,
    productCode: sku.productCode,
    label: plainText(sku.optionLabel) || plainText(sku.name) || sku.productCode,
    description: plainText(sku.description) || plainText(sku.name),
    minimumOrder: sku.minimumOrder >= 1 ? sku.minimumOrder : GRID_MINIMUM_ORDER,
    // Sent only when the grid's columns and this SKU's prices do not already say it (ADR 0104).
    ...(same ? {} : { priceList }),
    prices,
    wasPrice: sku.wasPrice !== null && sku.wasPrice > 0 ? sku.wasPrice : null,
  }
}

// --- Media, files, descriptions -----------------------------------------------------------

const VIDEO_FILE = /\.(mp4|webm|mov|m4v|ogv)$/i
/** The hosted player's page for a video embed id (the media.wistiaid attribute, media video_id). */
export const VIDEO_PLAYER_URL = 'https://fast.wistia.net/embed/iframe/'

function videoLink(id: unknown): string | null {
  return typeof id === 'string' && /^[a-z0-9]{4,32}$/i.test(id) ? `${VIDEO_PLAYER_URL}${id}` : null
}

/**
 * Gallery slides; null when the media feature is not a list (the page logs an error). Videos are
 * a playable file, or a poster image (the stored file) with a link to the hosted player for an
 * embed id; ids in attributes.media.wistiaid without a media entry are added as videos too.
 */
export function presentGallery(
  media: unknown,
  productName: string,
  wistiaIds: unknown = undefined,
): GalleryItem[] | null {
  if (!Array.isArray(media)) return null
  const items: GalleryItem[] = []
  const { slide: size, thumb: thumbSize } = GALLERY_IMAGE_SIZES
  const seenVideoIds = new Set<string>()
  const name = plainText(productName)
  for (const entry of media as CatalogMedia[]) {
    if (!isObject(entry)) continue
    const location = safeUrl(entry.file_location)
    if (!location || entry.type === 'audio') continue
    const n = items.length + 1
    if (entry.type === 'video' || VIDEO_FILE.test(location)) {
      const playable = VIDEO_FILE.test(location)
      if (entry.video_id) seenVideoIds.add(entry.video_id)
      items.push({
        kind: 'video',
        src: playable ? location : '',
        thumb: playable ? null : imageUrl(location, thumbSize),
        alt: plainText(entry.alt) || `${name} video ${n}`,
        poster: playable ? null : imageUrl(location, size),
        link: playable ? null : videoLink(entry.video_id),
      })
      continue
    }
    items.push({ kind: 'image', file: location, alt: plainText(entry.alt) || `${name} image ${n}` })
  }
  const ids = Array.isArray(wistiaIds) ? wistiaIds : [wistiaIds]
  for (const id of ids) {
    const link = videoLink(id)
    if (!link || seenVideoIds.has(id as string)) continue
    seenVideoIds.add(id as string)
    items.push({
      kind: 'video',
      src: '',
      thumb: null,
      alt: `${name} video ${items.length + 1}`,
      poster: null,
      link,
    })
  }
  return items
}

const FILE_TYPE_LABELS: Record<string, string> = {
  pdf: 'pdf',
  doc: 'doc',
  docx: 'doc',
  xls: 'xls',
  xlsx: 'xls',
  jpg: 'image',
  jpeg: 'image',
  png: 'image',
  gif: 'image',
  mp4: 'video',
  avi: 'video',
  mov: 'video',
}

/** Spec §9 file type labels: pdf, doc, xls, image, video; anything else by its extension. */
export function fileTypeLabel(fileType: string | null | undefined, fileName = ''): string {
  const fromType = (fileType ?? '').trim().toLowerCase().replace(/^\./, '')
  const ext = /^[a-z0-9]{1,10}$/.test(fromType)
    ? fromType
    : (/\.([a-z0-9]{1,10})$/i.exec(fileName)?.[1] ?? '').toLowerCase()
  return FILE_TYPE_LABELS[ext] ?? (ext || 'file')
}

function presentFiles(files: unknown): DataSheet[] {
  if (!Array.isArray(files)) return []
  const out: DataSheet[] = []
  for (const f of files as CatalogFile[]) {
    if (!isObject(f)) continue
    const url = safeUrl(f.file_location)
    if (!url) continue
    const name = plainText(f.file_name) || url.split('/').pop() || 'Download'
    out.push({
      id: Number(f.id) || out.length + 1,
      name,
      url,
      label: fileTypeLabel(f.file_type, f.file_name || url),
    })
  }
  return out
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

// --- Placeholders -------------------------------------------------------------------------

interface PlaceholderValues {
  swatches: SafeHtml
  logo: SafeHtml
  /** null = bad data: every specification placeholder is blanked */
  specifications: Map<number, { label: string; value: string }> | null
}

/** Reads specification fields 1..10; null when the data is malformed. */
export function specificationValues(raw: unknown): Map<number, { label: string; value: string }> | null {
  const out = new Map<number, { label: string; value: string }>()
  if (raw === undefined || raw === null) return out
  if (!isObject(raw) || Array.isArray(raw)) return null
  for (const [key, field] of Object.entries(raw)) {
    const n = Number(key)
    if (!Number.isInteger(n) || n < 1 || n > MAX_SPECIFICATIONS) return null
    if (!isObject(field)) return null
    const { label, value } = field as { label?: unknown; value?: unknown }
    if (typeof label !== 'string' || (typeof value !== 'string' && typeof value !== 'number')) return null
    out.set(n, { label, value: String(value) })
  }
  return out
}

const PLACEHOLDER = /\{(swatches|logo|spec(\d{1,2})(_label)?)\}/gi

/** Replaces the server-side placeholders in sanitised HTML; {as_low_as} is left for the browser. */
function placeholderFiller(values: PlaceholderValues) {
  return (source: SafeHtml): SafeHtml =>
    replaceHtml(source, PLACEHOLDER, (_whole, name = '', specN, isLabel) => {
      const key = name.toLowerCase()
      if (key === 'swatches') return values.swatches
      if (key === 'logo') return values.logo
      const n = Number(specN)
      if (!values.specifications || n < 1 || n > MAX_SPECIFICATIONS) return EMPTY_HTML
      const field = values.specifications.get(n)
      if (!field) return EMPTY_HTML
      return escapeHtml(isLabel ? field.label : field.value)
    })
}

export function fillPlaceholders(source: SafeHtml, values: PlaceholderValues): SafeHtml {
  return placeholderFiller(values)(source)
}

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i

function hex(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const m = HEX.exec(value.trim())
  return m ? `#${m[1]}` : null
}

/** The swatch grid: a list of colour chips with their names ('' without swatches). */
export function swatchGridHtml(
  swatches: Record<string, ColourSwatch> | null | undefined,
  locale: SpellingLocale = 'en-GB',
): SafeHtml {
  if (!isObject(swatches)) return EMPTY_HTML
  const items = Object.entries(swatches).flatMap(([name, s]) => {
    const main = hex(s?.Hex)
    if (!main || !name.trim()) return []
    const second = hex(s?.Hex2)
    const background = second ? `linear-gradient(135deg, ${main} 50%, ${second} 50%)` : main
    return [
      html`<li class="inline-flex items-center gap-2"><span class="inline-block h-6 w-6 rounded-full border border-gray-300" style="background: ${background}" aria-hidden="true"></span><span>${name.trim()}</span></li>`,
    ]
  })
  if (items.length === 0) return EMPTY_HTML
  return joinHtml([
    html`<ul class="swatch-grid not-prose my-2 flex flex-wrap gap-3" aria-label="${colourWord(locale, true)}">`,
    ...items,
    html`</ul>`,
  ])
}

function logoHtml(logo: string, siteName: string): SafeHtml {
  const src = safeUrl(logo)
  return src ? html`<img class="inline-block h-10 w-auto" src="${src}" alt="${siteName}">` : EMPTY_HTML
}

// --- Structured data ----------------------------------------------------------------------

interface JsonLdInput {
  group: ProductGroupRow
  attributes: CatalogAttributes
  skus: readonly ProductRow[]
  brackets: readonly Bracket[][]
  gallery: GalleryItem[] | null
  description: string
  canonical: string
  baseUrl: string
  currency: Currency
}

/** Minor units as a schema.org price: '12.50'. */
export function schemaPrice(minor: number): string {
  return (Math.round(minor) / 100).toFixed(2)
}

/**
 * schema.org Product with one AggregateOffer: the number of SKUs with a price, and the lowest and
 * highest unit price over every price break. Prices are ex VAT, as the page shows them by
 * default. Each SKU's own prices are on the page's grid: an Offer per SKU still made the head of
 * a 23-SKU sign 9.6 KB, an Offer per break 50 KB (ADRs 0104, 0110). Every SKU the page shows can
 * be ordered (made to order), so the offer is InStock.
 */
export function productJsonLd(input: JsonLdInput): Record<string, unknown> {
  const { group, attributes, skus, brackets, currency } = input
  const images = (input.gallery ?? [])
    .filter((g) => g.kind === 'image')
    .map((g) => absoluteUrl(galleryImageUrl(g, 'slide'), input.baseUrl))
  const brand = plainText(attributes.google?.product_brand) || plainText(group.brand)
  const sku = plainText(group.imageSku) || skus[0]?.sku || undefined
  const offerCount = skus.filter((_, i) => brackets[i]?.[0]).length
  const data: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: plainText(group.name),
    url: input.canonical,
  }
  if (sku) data.sku = sku
  if (brand) data.brand = { '@type': 'Brand', name: brand }
  const colour = colourOf(attributes)
  if (colour) data.color = colour
  if (images.length > 0) data.image = images
  if (input.description) data.description = input.description
  if (offerCount > 0) {
    data.offers = {
      '@type': 'AggregateOffer',
      priceCurrency: currency,
      lowPrice: schemaPrice(lowestUnitPrice(brackets)),
      highPrice: schemaPrice(highestUnitPrice(brackets)),
      offerCount,
      availability: 'https://schema.org/InStock',
    }
  }
  return data
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

/** Plain text from HTML or text: tags removed, entities decoded, whitespace collapsed. */
function plainText(value: unknown): string {
  if (typeof value !== 'string' || !value) return ''
  return breadcrumbText(stripTags(value))
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null
}

/** A site path or an http(s) URL; anything else (javascript:, data:, protocol-relative) is null. */
function safeUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const v = value.trim()
  if (/^\/(?!\/)/.test(v) || /^https?:\/\//i.test(v)) return v
  return null
}

function absoluteUrl(url: string, baseUrl: string): string {
  try {
    return new URL(url, baseUrl).href
  } catch {
    return url
  }
}

function slugPart(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
}
