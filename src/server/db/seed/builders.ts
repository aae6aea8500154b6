/**
 * Demo builder categories on the Harbour site: 'Design Your Own Sign' (sizes × materials with
 * price breaks, opening Design A Sign) and 'Personalised Workwear' (garments in sizes, opening
 * the workwear builder). Idempotent: rows are matched on their URL or SKU and put back as seeded.
 */
import { eq, sql } from 'drizzle-orm'
import type { Tx } from '../client.ts'
import type { PriceBreak } from '../../../shared/catalog.ts'
import type { WorkwearConfig } from '../../../shared/workwear.ts'
import {
  categories,
  categoryProducts,
  productGroups,
  products,
} from '../../modules/catalog/catalog.tables.ts'
import { sites } from '../../modules/sites/sites.tables.ts'
import { builderTools, type BuilderToolKind } from '../../modules/builders/builders.tables.ts'

/** The sign sizes of the demo grid (width × height, mm); the sign fitting tests try every one. */
export const SIGN_SIZES: [number, number][] = [
  [200, 150],
  [300, 200],
  [400, 300],
  [600, 400],
  [200, 200],
  [150, 200],
  [200, 300],
  [300, 400],
]

const SIGN_MATERIALS = [
  { code: 'RP', name: '1mm rigid plastic', factor: 1 },
  { code: 'SA', name: 'Self-adhesive vinyl', factor: 0.85 },
  { code: 'AL', name: '3mm aluminium composite', factor: 1.9 },
]

const GARMENTS = [
  { slug: 'custom-polo-shirt', name: 'Polo shirt', price: 1150 },
  { slug: 'custom-hi-vis-vest', name: 'Hi-vis vest', price: 450 },
  { slug: 'custom-softshell-jacket', name: 'Softshell jacket', price: 2650 },
]
const GARMENT_SIZES = ['S', 'M', 'L', 'XL', 'XXL']

export const DEMO_WORKWEAR_CONFIG: WorkwearConfig = {
  colours: [
    { name: 'Navy', hex: '#1F2A44' },
    { name: 'Black', hex: '#111111' },
    { name: 'Royal blue', hex: '#2453A6' },
    { name: 'Bottle green', hex: '#1E5631' },
    { name: 'Hi-vis yellow', hex: '#E4F000' },
  ],
  positions: [
    { id: 'left-chest', name: 'Left chest', cost: 350 },
    { id: 'right-chest', name: 'Right chest', cost: 350 },
    { id: 'back', name: 'Back', cost: 595 },
    { id: 'sleeve', name: 'Sleeve', cost: 295 },
  ],
  textCost: 250,
}

/** 1-9 full price, 10-24 −10 %, 25-49 −20 %, 50+ −30 %. */
function breaks(price: number): PriceBreak[] {
  return [
    { lowerQty: 1, higherQty: 9, price, name: '1-9' },
    { lowerQty: 10, higherQty: 24, price: Math.round(price * 0.9), name: '10-24' },
    { lowerQty: 25, higherQty: 49, price: Math.round(price * 0.8), name: '25-49' },
    { lowerQty: 50, higherQty: null, price: Math.round(price * 0.7), name: '50+' },
  ]
}

async function upsertCategory(
  tx: Tx,
  siteId: number,
  input: { slug: string; name: string; description: string; position: number },
): Promise<number> {
  const url = `/${input.slug}`
  const [row] = await tx
    .insert(categories)
    .values({
      siteId,
      slug: input.slug,
      url,
      name: input.name,
      shortDescription: input.description,
      display: 'grid',
      position: input.position,
    })
    .onConflictDoUpdate({
      target: [categories.siteId, categories.url],
      set: { name: input.name, shortDescription: input.description, published: true, updatedAt: sql`now()` },
    })
    .returning({ id: categories.id })
  return row!.id
}

/** The product's picture (public/media/builders/<slug>.svg): every demo product shows itself. */
function builderMedia(slug: string, name: string) {
  return [
    {
      file_location: `/media/builders/${slug}.svg`,
      file_name: `${slug}.svg`,
      type: 'image',
      file_type: 'svg',
      alt: name,
    },
  ]
}

async function upsertGroup(
  tx: Tx,
  siteId: number,
  categoryId: number,
  input: { slug: string; name: string; description: string; minPrice: number },
): Promise<number> {
  const [row] = await tx
    .insert(productGroups)
    .values({
      siteId,
      categoryId,
      slug: input.slug,
      url: `/${input.slug}`,
      name: input.name,
      shortDescription: input.description,
      minPrice: input.minPrice,
      media: builderMedia(input.slug, input.name),
    })
    .onConflictDoUpdate({
      target: [productGroups.siteId, productGroups.url],
      set: {
        categoryId,
        name: input.name,
        minPrice: input.minPrice,
        media: builderMedia(input.slug, input.name),
        published: true,
      },
    })
    .returning({ id: productGroups.id })
  await tx.insert(categoryProducts).values({ categoryId, groupId: row!.id }).onConflictDoNothing()
  return row!.id
}

async function upsertSku(
  tx: Tx,
  siteId: number,
  groupId: number,
  input: { sku: string; name: string; rowKey: string; optionLabel: string; price: number; position: number },
): Promise<number> {
  const values = {
    siteId,
    groupId,
    sku: input.sku,
    productCode: input.sku,
    name: input.name,
    rowKey: input.rowKey,
    optionLabel: input.optionLabel,
    priceList: breaks(input.price),
    qty: 1000,
    position: input.position,
  }
  await tx
    .insert(products)
    .values(values)
    .onConflictDoUpdate({
      target: [products.siteId, products.sku],
      set: { ...values, published: true },
    })
  return Math.min(...values.priceList.map((b) => b.price))
}

/** The group's 'As Low As' price: the lowest unit price over its SKUs. */
async function setMinPrice(tx: Tx, groupId: number, minPrice: number): Promise<void> {
  await tx.update(productGroups).set({ minPrice }).where(eq(productGroups.id, groupId))
}

async function setTool(
  tx: Tx,
  siteId: number,
  categoryId: number,
  kind: BuilderToolKind,
  config: WorkwearConfig | Record<string, never>,
  link: { href: string; label: string; intro: string },
): Promise<void> {
  await tx
    .insert(builderTools)
    .values({ categoryId, siteId, kind, config })
    .onConflictDoUpdate({ target: builderTools.categoryId, set: { kind, config } })
  await tx
    .update(categories)
    .set({
      longDescription: `<p>${link.intro}</p><p><a href="${link.href}"><strong>${link.label}</strong></a></p>`,
    })
    .where(eq(categories.id, categoryId))
}

export async function seedBuilders(tx: Tx): Promise<void> {
  const [site] = await tx.select({ id: sites.id }).from(sites).where(eq(sites.code, 'harbour'))
  if (!site) return

  const signCategory = await upsertCategory(tx, site.id, {
    slug: 'design-your-own-sign',
    name: 'Design Your Own Sign',
    description: 'Made-to-order safety signs: choose the symbol, the wording, the size and the material.',
    position: 90,
  })
  const signGroup = await upsertGroup(tx, site.id, signCategory, {
    slug: 'custom-safety-sign',
    name: 'Custom safety sign',
    description: 'Your own wording and symbol, printed to the ISO 7010 colours and shapes.',
    minPrice: Math.round(Math.round(600 * 0.85) * 0.7),
  })
  let position = 0
  let lowest = Infinity
  for (const [width, height] of SIGN_SIZES) {
    const base = Math.round(400 + (width * height) / 200)
    for (const material of SIGN_MATERIALS) {
      const key = `${width}x${height}`
      const min = await upsertSku(tx, site.id, signGroup, {
        sku: `DAS-${key}-${material.code}`,
        name: `Custom sign ${width} × ${height} mm, ${material.name}`,
        rowKey: key,
        optionLabel: material.name,
        price: Math.round(base * material.factor),
        position: position++,
      })
      lowest = Math.min(lowest, min)
    }
  }
  await setMinPrice(tx, signGroup, lowest)
  await setTool(
    tx,
    site.id,
    signCategory,
    'sign',
    {},
    {
      href: `/design-a-sign/${signCategory}`,
      label: 'Design A Sign',
      intro:
        'Need wording we do not stock? Design your own sign: pick a safety sign type, a symbol and your text, and see it as it will be printed.',
    },
  )

  const workwearCategory = await upsertCategory(tx, site.id, {
    slug: 'personalised-workwear',
    name: 'Personalised Workwear',
    description: 'Polo shirts, hi-vis vests and jackets with your logo.',
    position: 91,
  })
  for (const [g, garment] of GARMENTS.entries()) {
    const groupId = await upsertGroup(tx, site.id, workwearCategory, {
      slug: garment.slug,
      name: garment.name,
      description: `${garment.name} printed or embroidered with your logo.`,
      minPrice: Math.round(garment.price * 0.7),
    })
    let garmentLowest = Infinity
    for (const [s, size] of GARMENT_SIZES.entries()) {
      const extra = size === 'XXL' ? 150 : 0
      const min = await upsertSku(tx, site.id, groupId, {
        sku: `CWW-${g + 1}-${size}`,
        name: `${garment.name}, size ${size}`,
        rowKey: garment.slug,
        optionLabel: size,
        price: garment.price + extra,
        position: s,
      })
      garmentLowest = Math.min(garmentLowest, min)
    }
    await setMinPrice(tx, groupId, garmentLowest)
  }
  await setTool(tx, site.id, workwearCategory, 'workwear', DEMO_WORKWEAR_CONFIG, {
    href: `/custom-workwear/${workwearCategory}`,
    label: 'Build your workwear',
    intro: 'Choose a garment and colour, the sizes you need and where your logo goes, then upload your logo.',
  })
}
