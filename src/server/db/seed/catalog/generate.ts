/**
 * Builds the demo catalogue of a site in memory from the vocabulary and a seeded PRNG: categories,
 * product groups, SKUs, memberships, alternatives, and the image and document files to write.
 * Pure: the same spec always yields the same catalogue. Rows refer to each other by url / sku;
 * load.ts turns those into ids.
 */
import type { VatReliefKind } from '../../../../shared/vat-relief.ts'
import type {
  CatalogAttributes,
  CatalogFile,
  CatalogMedia,
  ColourSwatch,
  StructuredDescription,
  ZonePricing,
} from '../../../../shared/catalog.ts'
import { docxDocument, pdfDocument, xlsxDocument } from './documents.ts'
import {
  categorySvg,
  photoShape,
  productSvg,
  renderPhoto,
  videoThumbnailSvg,
  type MediaFile,
} from './media.ts'
import { bracketName, computeMinPrice, nicePrice, priceBreaks } from './pricing.ts'
import { hashString, pickInOrder, Random, slugify, weighted } from './prng.ts'
import { COLOURS } from './vocabulary.axes.ts'
import {
  FLASH_LABELS,
  type CategorySpec,
  type FamilySpec,
  type ImageStyle,
  type SiteSpec,
} from './vocabulary.ts'
import { escapeHtml } from '../../../../shared/safe-html.ts'
import { buildBuilder } from './generate.builder.ts'
import { html, productIntro, productName } from './generate.text.ts'
import type {
  SeedAlternative,
  SeedCategory,
  SeedGroup,
  SeedMembership,
  SeedSku,
  SiteCatalog,
} from './generate.types.ts'

export type { SeedBuilder, SeedGroup, SeedSku, SiteCatalog } from './generate.types.ts'

/** Leaves whose goods have a per-order VAT relief limit (§9). */
const RELIEF_KIND_BY_LEAF: Record<string, VatReliefKind> = {
  'bladder-control-pads': 'pads',
  underpads: 'washable_pads',
  'protective-underwear': 'underwear',
}

const EPOCH = Date.UTC(2023, 0, 2, 9, 0, 0)
const DAY = 86_400_000

const PHOTO_COLOURS = ['#1d4f91', '#2e7d32', '#8a8d91', '#c8102e', '#6b4a2f', '#12355b', '#0f6e7a']

interface LeafContext {
  url: string
  spec: CategorySpec
  family: FamilySpec
  groups: SeedGroup[]
}

/** Generates the whole demo catalogue of one site. */
export function generateSiteCatalog(site: SiteSpec): SiteCatalog {
  const rng = new Random(`catalog:${site.code}`)
  const categories: SeedCategory[] = []
  const groups: SeedGroup[] = []
  const skus: SeedSku[] = []
  const memberships: SeedMembership[] = []
  const alternatives: SeedAlternative[] = []
  const files: MediaFile[] = []
  const documents = new Map<string, MediaFile>()
  const leaves: LeafContext[] = []
  const usedSlugs = new Set<string>()
  const categoryUrls = new Set<string>()
  let groupSeq = 0
  let builderItemId = 1
  let fileId = 1
  const mediaBase = `/media/catalog/${site.code}`
  const fileIds = new Map<string, number>()

  const firstFamily = (spec: CategorySpec): FamilySpec | undefined =>
    spec.family ?? spec.children?.map(firstFamily).find(Boolean)

  // --- Categories (depth first, so parents come before children) --------------------------
  const walkCategories = (specs: CategorySpec[], parentUrl: string | null, depth: number) => {
    specs.forEach((spec, position) => {
      const url = `${parentUrl ?? ''}/${spec.slug}`
      categoryUrls.add(url)
      const style = firstFamily(spec)?.style ?? 'custom'
      const imagePath = `categories/${spec.slug}.svg`
      const svg = categorySvg(style, spec.name)
      files.push({ path: `catalog/${site.code}/${imagePath}`, key: svg, render: () => Buffer.from(svg) })
      // The intro is the long description; the buying guide goes below the products (the
      // structured description has no 'above', which would print the intro a second time).
      const lower = escapeHtml(spec.name.toLowerCase())
      const guide = `Not sure which ${lower} suit you best? Tell us where and how they will be used, and we will recommend the right ones.`
      const structured: StructuredDescription | null =
        depth === 1 || spec.builder
          ? {
              below: html([guide]),
              tabs: [
                {
                  id: 'buying-guide',
                  label: 'Buying guide',
                  content: html(['Our team is happy to help: call us or send a photo of the area.']),
                },
                {
                  id: 'delivery',
                  label: 'Delivery',
                  content: html(['Stock items are despatched the same day when ordered before 2pm.']),
                },
              ],
            }
          : null
      const browse = [
        `Browse our range of ${lower}, with quantity discounts on every product.`,
        `Every one of our ${lower} costs less each as you order more.`,
        `Prices for ${lower} drop at each quantity break shown on the product.`,
        `Buy ${lower} singly or in bulk: the more you order, the lower the price.`,
      ][hashString(url) % 4] as string
      categories.push({
        url,
        parentUrl,
        slug: spec.slug,
        name: spec.name,
        shortDescription: spec.description,
        longDescription: html([escapeHtml(spec.description), browse]),
        longDescriptionStructured: structured,
        attributes: { meta: { meta_description: `${spec.name}: ${spec.description}` } },
        media: [
          {
            file_location: `${mediaBase}/${imagePath}`,
            file_name: `${spec.slug}.svg`,
            type: 'image',
            file_type: 'svg',
            alt: spec.name,
          },
        ],
        files: [],
        referrerRequired: spec.trade === true,
        builder: null,
        display: spec.display ?? 'paginated',
        position,
        published: true,
        depth,
      })
      if (spec.children) walkCategories(spec.children, url, depth + 1)
      if (spec.family && spec.count) leaves.push({ url, spec, family: spec.family, groups: [] })
    })
  }
  walkCategories(site.tree, null, 1)

  // --- Documents shared by the products of a leaf ------------------------------------------
  const documentFor = (leaf: LeafContext, kind: 'pdf' | 'docx' | 'xlsx'): CatalogFile => {
    const label = { pdf: 'Data Sheet', docx: 'Installation Guide', xlsx: 'Price List' }[kind]
    const fileName = `${leaf.spec.slug}-${slugify(label)}.${kind}`
    const path = `files/${site.code}/${fileName}`
    if (!documents.has(path)) {
      const title = `${leaf.spec.name} – ${label}`
      const lines = [leaf.spec.description, ...leaf.family.blurbs.slice(0, 4)]
      documents.set(path, {
        path,
        key: `${kind}:${title}:${lines.join('|')}`,
        render: () =>
          kind === 'pdf'
            ? pdfDocument(title, lines)
            : kind === 'docx'
              ? docxDocument(title, lines)
              : xlsxDocument([
                  ['Product', 'Code', 'From price'],
                  ...leaf.groups.slice(0, 40).map((g) => [g.name, g.slug, g.minPrice / 100]),
                ]),
      })
      fileIds.set(path, fileId++)
    }
    return {
      id: fileIds.get(path) as number,
      file_type: kind,
      file_name: `${leaf.spec.name} ${label}.${kind}`,
      file_location: `/media/${path}`,
    }
  }

  // --- Product groups and SKUs, leaf by leaf -------------------------------------------------
  for (const leaf of leaves) {
    const { family } = leaf
    const leafRng = rng.fork(leaf.url)
    const combos: string[] = []
    for (const stem of family.stems)
      for (const variant of family.variants) combos.push(productName(family, stem, variant))
    const names = leafRng.shuffle(combos)
    const count = leaf.spec.count ?? 0
    for (let i = 0; i < count; i++) {
      const base = names[i % names.length] as string
      const name = i < names.length ? base : `${base} Mk ${Math.floor(i / names.length) + 1}`
      const g = leafRng.fork(name)
      groupSeq++
      let slug = slugify(name)
      while (usedSlugs.has(slug)) slug = `${slugify(name)}-${groupSeq}`
      usedSlugs.add(slug)
      let url = `${leaf.url}/${slug}`
      if (categoryUrls.has(url)) url = `${url}-${groupSeq}`
      const code = `${family.code}${String(1000 + groupSeq)}`

      // SKUs: rows × options, over 1-3 grids, every row of a grid with the same brackets.
      // The first product of a builder category is the builder's base: every size, one material.
      const isBuilderBase = leaf.spec.builder !== undefined && i === 0
      const rows = isBuilderBase
        ? family.rows.values.slice(0, 5)
        : pickInOrder(g, family.rows.values, family.rows.pick)
      // In a builder category the material (or finish) is one of the builder's selectors, so the
      // SKUs are sizes only: the basket line reads the built product, its size and its options.
      const options: (string | null)[] =
        !family.options || leaf.spec.builder !== undefined
          ? [null]
          : pickInOrder(g, family.options.values, family.options.pick)
      const asRowOptions = options.length > 1 && g.chance(0.55)
      const gridCount =
        family.grids && !isBuilderBase
          ? Math.min(family.grids.length, g.chance(0.28) ? (g.chance(0.3) ? 3 : 2) : 1)
          : 1
      const basePrice = g.int(family.price[0], family.price[1])
      const isColourOption = family.swatches === true
      const groupSkus: SeedSku[] = []
      const minimumOrder = g.chance(0.04) ? 2 : 1
      for (let grid = 1; grid <= gridCount; grid++) {
        const gridSpec = family.grids?.[grid - 1] ?? { description: '', suffix: '', factor: 1 }
        const gridRows = grid === 1 ? rows : rows.slice(0, Math.max(1, Math.ceil(rows.length / 2)))
        const bracketCount = g.int(2, Math.min(5, family.breaks.length))
        let position = 0
        gridRows.forEach((row) => {
          const rowIndex = family.rows.values.indexOf(row)
          options.forEach((option, o) => {
            const optionIndex = option && family.options ? family.options.values.indexOf(option) : 0
            const optionFactor = isColourOption ? 1 : 1 + 0.18 * optionIndex
            const unit = nicePrice(
              basePrice * Math.pow(family.rowStep, rowIndex) * optionFactor * gridSpec.factor,
            )
            const priceList = priceBreaks(unit, family.breaks, bracketCount)
            const pos = position++
            const productCode = `${code}-${rowIndex + 1}${String.fromCharCode(65 + optionIndex)}${grid > 1 ? `-G${grid}` : ''}`
            groupSkus.push({
              groupUrl: url,
              sku: `${site.skuPrefix}${productCode}`,
              productCode,
              name: `${name} – ${row}${option ? `, ${option}` : ''}${gridSpec.suffix}`,
              description: [row, option].filter(Boolean).join(', '),
              grid,
              rowKey: asRowOptions ? `${code}-g${grid}-r${rowIndex + 1}` : null,
              optionLabel: asRowOptions ? option : null,
              qty: g.chance(0.08) ? 0 : g.int(3, 900),
              minimumOrder,
              priceList,
              wasPrice: g.chance(0.12) ? nicePrice(unit * (1.15 + g.float() * 0.25)) : null,
              position: pos,
              // The first SKU of grid 1 stays published, so every group has a price.
              published: grid === 1 && pos === 0 && o === 0 ? true : !g.chance(0.03),
            })
          })
        })
      }
      skus.push(...groupSkus)

      // Media: none, one, or 2-6 views; raster "photos" for furniture, shelters and care products.
      const style: ImageStyle = family.style
      const roll = g.float()
      // Every product has a picture of itself (the placeholder is for real catalogues' gaps).
      const imageCount = roll < 0.55 ? 1 : g.int(2, 6)
      const media: CatalogMedia[] = []
      const sizeLabel = rows.length > 1 ? `${rows[0]} to ${rows[rows.length - 1]}` : (rows[0] ?? '')
      for (let v = 0; v < imageCount; v++) {
        if (style === 'photo' && v === 0) {
          const shape = photoShape(name)
          const format = /shelter|canopy/.test(shape) ? 'png' : 'jpeg'
          const ext = format === 'png' ? 'png' : 'jpg'
          const colourName = options[0] && COLOURS[options[0]] ? options[0] : null
          const spec = {
            shape,
            colour: colourName ? (COLOURS[colourName]?.Hex ?? '#12355b') : g.pick(PHOTO_COLOURS),
            format: format as 'png' | 'jpeg',
            size: 480,
          }
          const path = `catalog/${site.code}/${slug}-${v + 1}.${ext}`
          files.push({ path, key: JSON.stringify(spec), render: () => renderPhoto(spec) })
          media.push({
            file_location: `/media/${path}`,
            file_name: `${slug}-${v + 1}.${ext}`,
            type: 'image',
            file_type: ext,
            alt: name,
          })
        } else {
          const label =
            v === 2 ? `Sizes: ${sizeLabel}` : v >= 3 ? (options[v % options.length] ?? `View ${v + 1}`) : ''
          const svg = productSvg(style, name, style === 'photo' ? Math.max(1, v) : v, label)
          const path = `catalog/${site.code}/${slug}-${v + 1}.svg`
          files.push({ path, key: svg, render: () => Buffer.from(svg) })
          media.push({
            file_location: `/media/${path}`,
            file_name: `${slug}-${v + 1}.svg`,
            type: 'image',
            file_type: 'svg',
            alt: v === 0 ? name : `${name} – view ${v + 1}`,
          })
        }
      }
      const attributes: CatalogAttributes = {}
      if (imageCount > 0 && g.chance(0.08)) {
        const videoId = Array.from({ length: 10 }, () =>
          g.pick([...'abcdefghijkmnpqrstuvwxyz23456789']),
        ).join('')
        const svg = videoThumbnailSvg(style === 'photo' ? 'custom' : style, name)
        const path = `catalog/${site.code}/${slug}-video.svg`
        files.push({ path, key: svg, render: () => Buffer.from(svg) })
        media.push({
          type: 'video',
          video_id: videoId,
          file_location: `/media/${path}`,
          file_name: `${slug}-video.svg`,
          file_type: 'svg',
          alt: `${name} video`,
        })
        attributes.media = { wistiaid: videoId }
      }

      // Descriptions, specifications, attributes. Every sentence appears once on the product page:
      // the summary takes two, the description opens with its own line about this product and
      // lists two more, and the extras (below, second description) take ones not used yet.
      const blurbs = g.sample(family.blurbs, 4)
      const spare = family.blurbs.filter((b) => !blurbs.includes(b))
      const shortDescription = `${blurbs[0] ?? ''} ${blurbs[1] ?? ''}`.trim()
      // What the page offers: the rows and options of grid 1 that are on sale.
      const onSale = groupSkus.filter((s) => s.grid === 1 && s.published)
      const intro = productIntro(
        name,
        rows.filter((r) => onSale.some((s) => s.description === r || s.description.startsWith(`${r}, `))),
        options.filter((o) => o === null || onSale.some((s) => s.description.endsWith(`, ${o}`))),
        family.unit,
        url,
      )
      const features = `<ul>${blurbs
        .slice(2)
        .map((b) => `<li>${escapeHtml(b)}</li>`)
        .join('')}</ul>`
      const longDescription = `<p>${escapeHtml(intro)}</p>${features}`
      const specifications: Record<string, { label: string; value: string }> = {}
      if (g.chance(0.5)) {
        g.sample(family.specs, Math.min(10, g.int(3, 10))).forEach(([label, values], n) => {
          specifications[String(n + 1)] = { label, value: g.pick(values) }
        })
        attributes.specifications = specifications
      }
      const extras = [...spare]
      const structured: StructuredDescription | null = g.chance(0.35)
        ? {
            above: `<p>${escapeHtml(intro)}</p>`,
            tabs: [
              { id: 'overview', label: 'Overview', content: features },
              {
                id: 'specification',
                label: 'Specification',
                content:
                  Object.keys(specifications).length > 0
                    ? `<table><tbody>${Object.values(specifications)
                        .map((s) => `<tr><th>${escapeHtml(s.label)}</th><td>${escapeHtml(s.value)}</td></tr>`)
                        .join('')}</tbody></table>`
                    : `<p>Available in ${escapeHtml(rows.join(', '))}.</p>`,
              },
              {
                id: 'delivery',
                label: 'Delivery & Returns',
                content: html([
                  'Delivery is free on orders over the threshold shown in your basket. Unused items can be returned within 30 days.',
                ]),
              },
            ],
            ...(g.chance(0.4) && extras.length ? { below: `<p>${escapeHtml(extras.shift()!)}</p>` } : {}),
            ...(g.chance(0.3) && extras.length
              ? { long_description2: { content: `<p>${escapeHtml(extras.shift()!)}</p>` } }
              : {}),
          }
        : null
      const longDescription2 =
        g.chance(0.3) && extras.length && !structured?.long_description2
          ? `<h3>Why choose this ${escapeHtml(leaf.spec.name.toLowerCase().replace(/s$/, ''))}?</h3>${html([escapeHtml(extras.shift()!)])}`
          : ''
      const layout = weighted(g, family.layouts)
      const brand = g.chance(0.7) ? g.pick(site.brands) : null
      attributes.meta = { meta_description: `${name}. ${blurbs[0] ?? ''}`.slice(0, 155) }
      attributes.story_blok = { page_layout: layout }
      attributes.pricing = { unit_of_measurement: family.unit }
      if (gridCount > 1 || g.chance(0.3)) {
        attributes.pricing.grid_descriptions = Object.fromEntries(
          Array.from({ length: gridCount }, (_, n) => [
            String(n + 1),
            family.grids?.[n]?.description ?? 'Prices',
          ]),
        )
      }
      if (brand) attributes.google = { product_brand: brand }
      if (g.chance(0.04)) attributes.features = { flash: g.pick(FLASH_LABELS) }
      let colourSwatches: Record<string, ColourSwatch> | null = null
      if (isColourOption) {
        const colours = options.filter((o): o is string => o !== null && o in COLOURS)
        if (colours.length > 0) {
          colourSwatches = Object.fromEntries(colours.map((c) => [c, { ...(COLOURS[c] as ColourSwatch) }]))
          attributes.master_colour_key = colours[0] as string
        }
      }
      let zonePricing: ZonePricing[] | null = null
      if (family.zonePricing && g.chance(family.zonePricing)) {
        const unit = groupSkus[0]?.priceList[0]?.price ?? basePrice
        zonePricing = [
          {
            builder_customisation_type: { customer_label: 'Custom Pricing' },
            prices: [
              { quantity_break: bracketName(1, 9), price: nicePrice(unit * 0.92) },
              { quantity_break: bracketName(10, 49), price: nicePrice(unit * 0.8) },
              { quantity_break: bracketName(50, null), price: nicePrice(unit * 0.68) },
            ],
          },
        ]
        if (g.chance(0.4)) {
          zonePricing.push({
            builder_customisation_type: { customer_label: 'Custom Pricing – Logo Print' },
            prices: [
              { quantity_break: bracketName(1, 24), price: nicePrice(unit * 1.1) },
              { quantity_break: bracketName(25, null), price: nicePrice(unit * 0.9) },
            ],
          })
        }
      }
      const group: SeedGroup = {
        url,
        categoryUrl: leaf.url,
        slug,
        name,
        shortDescription,
        longDescription,
        longDescription2,
        longDescriptionStructured: structured,
        attributes,
        media,
        files: [],
        colourSwatches,
        zonePricing,
        layout,
        brand,
        imageSku: null,
        minPrice: computeMinPrice(groupSkus),
        vatReliefEligible: site.vatRelief,
        vatReliefKind: site.vatRelief ? (RELIEF_KIND_BY_LEAF[leaf.spec.slug] ?? null) : null,
        published: i === 0 ? true : !g.chance(0.025),
        createdAt: new Date(EPOCH + g.int(0, 720) * DAY + groupSeq * 60_000),
      }
      if (g.chance(0.35)) {
        group.files = family.documents
          .filter((_kind, n) => n === 0 || g.chance(0.5))
          .map((kind) => documentFor(leaf, kind))
      }
      leaf.groups.push(group)
      groups.push(group)
      memberships.push({
        categoryUrl: leaf.url,
        groupUrl: url,
        position: i,
        nameOverride: null,
        descriptionOverride: null,
        imageOverride: null,
      })
    }

    if (leaf.spec.builder) {
      const category = categories.find((c) => c.url === leaf.url) as SeedCategory
      category.builder = buildBuilder(leaf.spec.builder, leaf.groups, skus, () => builderItemId++)
    }
  }
  files.push(...documents.values())

  // --- Second memberships, featured products on top-level pages, alternatives -------------
  const extra = rng.fork('memberships')
  const nextPosition = new Map<string, number>()
  for (const leaf of leaves) nextPosition.set(leaf.url, leaf.groups.length)
  for (const group of groups) {
    if (!extra.chance(0.15)) continue
    const other = extra.pick(leaves)
    if (other.url === group.categoryUrl) continue
    const position = nextPosition.get(other.url) ?? 0
    nextPosition.set(other.url, position + 1)
    const override = extra.chance(0.1)
    memberships.push({
      categoryUrl: other.url,
      groupUrl: group.url,
      position,
      nameOverride: override ? `${group.name} (also in ${other.spec.name})` : null,
      descriptionOverride: override ? `Pairs well with our ${other.spec.name.toLowerCase()}.` : null,
      imageOverride: null,
    })
  }
  for (const top of categories.filter((c) => c.depth === 1)) {
    const candidates = groups.filter((g) => g.published && g.categoryUrl.startsWith(`${top.url}/`))
    extra.sample(candidates, 6).forEach((group, position) => {
      memberships.push({
        categoryUrl: top.url,
        groupUrl: group.url,
        position,
        nameOverride: position === 0 ? `Best seller: ${group.name}` : null,
        descriptionOverride: position === 0 ? `Our most popular ${top.name.toLowerCase()} product.` : null,
        // Another picture of the product itself (never the category's banner).
        imageOverride:
          position === 1 ? (group.media.filter((m) => m.type === 'image')[1]?.file_location ?? null) : null,
      })
    })
  }
  for (const leaf of leaves) {
    for (const group of leaf.groups) {
      if (!extra.chance(0.7)) continue
      const others = leaf.groups.filter((g) => g !== group)
      extra.sample(others, extra.int(2, 6)).forEach((alt, position) => {
        alternatives.push({ groupUrl: group.url, alternativeUrl: alt.url, position })
      })
    }
  }

  return { siteCode: site.code, categories, groups, skus, memberships, alternatives, files }
}
