/**
 * Back-office operations beyond SKUs: categories and product groups (matched by their path),
 * promotions (by code), delivery rates (by zone and despatch type) and content stories (by full
 * slug). Each batch is checked row by row first; a bad row rejects the whole batch with every
 * row's errors and nothing is written. A good batch is one transaction, then every instance's
 * caches are told through the change bus (ADR 0081): `catalog` for categories and groups,
 * `delivery-rates` for rates, `content` for stories. Promotions are read from the database on
 * every basket change, so they need no signal.
 */
import { and, eq, inArray, sql } from 'drizzle-orm'
import { z } from 'zod'
import type { Db, Executor } from '../../db/client.ts'
import { deliveryRates, promotions, PROMOTION_KINDS } from '../cart/cart.tables.ts'
import {
  categories,
  categoryProducts,
  CATEGORY_DISPLAYS,
  productGroups,
  products,
} from '../catalog/catalog.tables.ts'
import { bumpCacheVersion, withUids } from '../content/content.import.ts'
import { contentStories } from '../content/content.tables.ts'
import type { Blok } from '../content/storyblok.types.ts'
import { ImportError, type RowError } from './admin.catalog.ts'
import { field, int4, jsonbProblem, money } from './admin.fields.ts'

const MAX_BATCH = 1000

/** Validates every row of a batch; throws ImportError with every bad row's fields. */
function checkRows<T>(schema: z.ZodType<T>, input: unknown[], keyOf: (row: T) => string): T[] {
  const errors: RowError[] = []
  const rows: T[] = []
  if (input.length === 0) errors.push({ row: 0, field: 'items', message: 'the batch is empty' })
  if (input.length > MAX_BATCH)
    errors.push({ row: 0, field: 'items', message: `at most ${MAX_BATCH} rows a batch` })
  const seen = new Map<string, number>()
  input.forEach((raw, i) => {
    const parsed = schema.safeParse(raw)
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        errors.push({ row: i, field: issue.path.join('.') || 'row', message: issue.message })
      return
    }
    const key = keyOf(parsed.data)
    if (seen.has(key)) errors.push({ row: i, field: 'key', message: `repeats row ${seen.get(key)}` })
    seen.set(key, i)
    rows.push(parsed.data)
  })
  if (errors.length) throw new ImportError(errors)
  return rows
}

const PATH = /^(\/[a-z0-9]+(?:-[a-z0-9]+)*)+$/
const path = field().trim().regex(PATH, 'must be a path like /safety-signs/fire-signs').max(500)
const slugOf = (url: string) => url.split('/').at(-1)!

// --- Categories and product groups ---------------------------------------------------------

export const categoryRow = z
  .object({
    url: path,
    name: field().trim().min(1).max(300),
    /** The parent's path; omitted or null: top level */
    parent: path.nullable().optional(),
    shortDescription: field().max(5000).optional(),
    display: z.enum(CATEGORY_DISPLAYS).optional(),
    position: int4({ min: 0, max: 1_000_000 }).optional(),
    published: z.boolean().optional(),
  })
  .strict()

export const groupRow = z
  .object({
    url: path,
    name: field().trim().min(1).max(300),
    /** The primary category's path; required for a new group */
    category: path.optional(),
    shortDescription: field().max(5000).optional(),
    published: z.boolean().optional(),
  })
  .strict()

export interface UpsertResult {
  created: number
  updated: number
}

export async function upsertCategories(db: Db, siteId: number, input: unknown[]) {
  const rows = checkRows(categoryRow, input, (r) => r.url)
  return db.transaction(async (tx) => {
    const wanted = [...new Set(rows.flatMap((r) => [r.url, ...(r.parent ? [r.parent] : [])]))]
    const found = await tx
      .select({ id: categories.id, url: categories.url })
      .from(categories)
      .where(and(eq(categories.siteId, siteId), inArray(categories.url, wanted)))
      .for('update')
    const idByUrl = new Map(found.map((c) => [c.url, c.id]))
    const errors: RowError[] = []
    const batchUrls = new Set(rows.map((r) => r.url))
    rows.forEach((r, i) => {
      if (r.parent && !idByUrl.has(r.parent) && !batchUrls.has(r.parent))
        errors.push({ row: i, field: 'parent', message: 'no category has this path' })
      if (r.parent === r.url)
        errors.push({ row: i, field: 'parent', message: 'a category cannot be its own parent' })
    })
    if (errors.length) throw new ImportError(errors)
    let created = 0
    let updated = 0
    // Parents first: a batch may hold a new parent and its new children.
    const ordered = [...rows].sort((a, b) => a.url.split('/').length - b.url.split('/').length)
    const touched: number[] = []
    for (const r of ordered) {
      const values = {
        name: r.name,
        ...(r.parent !== undefined ? { parentId: r.parent ? idByUrl.get(r.parent)! : null } : {}),
        ...(r.shortDescription !== undefined ? { shortDescription: r.shortDescription } : {}),
        ...(r.display !== undefined ? { display: r.display } : {}),
        ...(r.position !== undefined ? { position: r.position } : {}),
        ...(r.published !== undefined ? { published: r.published } : {}),
      }
      const id = idByUrl.get(r.url)
      if (id) {
        await tx
          .update(categories)
          .set({ ...values, updatedAt: sql`now()` })
          .where(eq(categories.id, id))
        touched.push(id)
        updated++
      } else {
        const [row] = await tx
          .insert(categories)
          .values({ siteId, url: r.url, slug: slugOf(r.url), ...values })
          .returning({ id: categories.id })
        idByUrl.set(r.url, row!.id)
        touched.push(row!.id)
        created++
      }
    }
    return { created, updated, categoryIds: touched }
  })
}

export async function upsertGroups(db: Executor, siteId: number, input: unknown[]) {
  const rows = checkRows(groupRow, input, (r) => r.url)
  return db.transaction(async (tx) => {
    const existing = await tx
      .select({ id: productGroups.id, url: productGroups.url })
      .from(productGroups)
      .where(
        and(
          eq(productGroups.siteId, siteId),
          inArray(
            productGroups.url,
            rows.map((r) => r.url),
          ),
        ),
      )
      .for('update')
    const groupByUrl = new Map(existing.map((g) => [g.url, g.id]))
    const categoryUrls = [...new Set(rows.flatMap((r) => (r.category ? [r.category] : [])))]
    const cats = categoryUrls.length
      ? await tx
          .select({ id: categories.id, url: categories.url })
          .from(categories)
          .where(and(eq(categories.siteId, siteId), inArray(categories.url, categoryUrls)))
      : []
    const categoryByUrl = new Map(cats.map((c) => [c.url, c.id]))
    const errors: RowError[] = []
    rows.forEach((r, i) => {
      if (r.category && !categoryByUrl.has(r.category))
        errors.push({ row: i, field: 'category', message: 'no category has this path' })
      if (!r.category && !groupByUrl.has(r.url))
        errors.push({ row: i, field: 'category', message: 'required for a new product group' })
    })
    if (errors.length) throw new ImportError(errors)
    let created = 0
    let updated = 0
    const touched: number[] = []
    for (const r of rows) {
      const categoryId = r.category ? categoryByUrl.get(r.category)! : undefined
      const values = {
        name: r.name,
        ...(categoryId !== undefined ? { categoryId } : {}),
        ...(r.shortDescription !== undefined ? { shortDescription: r.shortDescription } : {}),
        ...(r.published !== undefined ? { published: r.published } : {}),
      }
      let id = groupByUrl.get(r.url)
      if (id) {
        await tx
          .update(productGroups)
          .set({ ...values, updatedAt: sql`now()` })
          .where(eq(productGroups.id, id))
        updated++
      } else {
        const [row] = await tx
          .insert(productGroups)
          .values({ siteId, url: r.url, slug: slugOf(r.url), categoryId: categoryId!, ...values })
          .returning({ id: productGroups.id })
        id = row!.id
        created++
      }
      // The primary category lists the group (listing order: after what is there).
      if (categoryId !== undefined) {
        await tx
          .insert(categoryProducts)
          .values({ categoryId, groupId: id, position: 1_000_000 })
          .onConflictDoNothing()
      }
      touched.push(id)
    }
    // 'As low as' reads the group's lowest published price (none yet for a new group).
    await tx
      .update(productGroups)
      .set({
        minPrice: sql`coalesce((select min((b->>'price')::int) from ${products} p, jsonb_array_elements(p.price_list) b where p.group_id = ${productGroups.id} and p.published), 0)`,
      })
      .where(inArray(productGroups.id, touched))
    return { created, updated, groupIds: touched }
  })
}

// --- Promotions ----------------------------------------------------------------------------

/** A moment with its offset; PostgreSQL's timestamps start at year 1 (JavaScript also has a year 0). */
const isoDate = z.iso
  .datetime({ offset: true })
  .refine((d) => new Date(d).getUTCFullYear() >= 1, { message: 'must be in the year 1 or later' })
  .nullable()
  .optional()

export const promotionRow = z
  .object({
    code: field()
      .trim()
      .regex(/^[A-Za-z0-9_-]{2,40}$/, 'must be 2 to 40 letters, digits, - or _')
      .transform((c) => c.toUpperCase()),
    description: field().max(500).optional(),
    kind: z.enum(PROMOTION_KINDS),
    /** percentage: whole percent (1 to 100); fixed: minor units off the goods */
    value: int4({ min: 0 }).optional(),
    /** free_gift: the SKU given */
    giftSku: field().trim().min(1).max(100).nullable().optional(),
    minimumSpend: money('must be whole minor units').optional(),
    startsAt: isoDate,
    endsAt: isoDate,
    usageLimit: int4({ min: 1 }).nullable().optional(),
    active: z.boolean().optional(),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.kind === 'percentage' && (p.value === undefined || p.value < 1 || p.value > 100))
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'a percentage must be 1 to 100' })
    if (p.kind === 'fixed' && (p.value === undefined || p.value < 1))
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: 'a fixed discount must be at least 1 (minor units)',
      })
    if (p.kind === 'free_gift' && !p.giftSku)
      ctx.addIssue({ code: 'custom', path: ['giftSku'], message: 'required for a free gift' })
    if (p.startsAt && p.endsAt && new Date(p.endsAt) <= new Date(p.startsAt))
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'must be after startsAt' })
  })

export async function upsertPromotions(
  db: Executor,
  siteId: number,
  input: unknown[],
): Promise<UpsertResult> {
  const rows = checkRows(promotionRow, input, (r) => r.code)
  return db.transaction(async (tx) => {
    const giftSkus = [...new Set(rows.flatMap((r) => (r.giftSku ? [r.giftSku] : [])))]
    const gifts = giftSkus.length
      ? await tx
          .select({ id: products.id, sku: products.sku })
          .from(products)
          .where(and(eq(products.siteId, siteId), inArray(products.sku, giftSkus)))
      : []
    const giftBySku = new Map(gifts.map((g) => [g.sku, g.id]))
    const errors: RowError[] = []
    rows.forEach((r, i) => {
      if (r.giftSku && !giftBySku.has(r.giftSku))
        errors.push({ row: i, field: 'giftSku', message: 'no SKU has this code' })
    })
    if (errors.length) throw new ImportError(errors)
    const existing = await tx
      .select({ code: promotions.code })
      .from(promotions)
      .where(
        and(
          eq(promotions.siteId, siteId),
          inArray(
            promotions.code,
            rows.map((r) => r.code),
          ),
        ),
      )
      .for('update')
    const known = new Set(existing.map((e) => e.code))
    for (const r of rows) {
      const values = {
        kind: r.kind,
        ...(r.description !== undefined ? { description: r.description } : {}),
        ...(r.value !== undefined ? { value: r.value } : {}),
        ...(r.giftSku !== undefined ? { giftProductId: r.giftSku ? giftBySku.get(r.giftSku)! : null } : {}),
        ...(r.minimumSpend !== undefined ? { minimumSpend: r.minimumSpend } : {}),
        ...(r.startsAt !== undefined ? { startsAt: r.startsAt ? new Date(r.startsAt) : null } : {}),
        ...(r.endsAt !== undefined ? { endsAt: r.endsAt ? new Date(r.endsAt) : null } : {}),
        ...(r.usageLimit !== undefined ? { usageLimit: r.usageLimit } : {}),
        ...(r.active !== undefined ? { active: r.active } : {}),
      }
      await tx
        .insert(promotions)
        .values({ siteId, code: r.code, ...values })
        .onConflictDoUpdate({ target: [promotions.siteId, promotions.code], set: values })
    }
    return { created: rows.filter((r) => !known.has(r.code)).length, updated: known.size }
  })
}

/** Retires a promotion (kept for the orders that used it); false when there is no such code. */
export async function retirePromotion(db: Executor, siteId: number, code: string): Promise<boolean> {
  const rows = await db
    .update(promotions)
    .set({ active: false })
    .where(and(eq(promotions.siteId, siteId), eq(promotions.code, code.trim().toUpperCase())))
    .returning({ id: promotions.id })
  return rows.length > 0
}

// --- Delivery rates ------------------------------------------------------------------------

const zoneKey = field()
  .trim()
  .regex(/^[A-Za-z0-9 _-]{1,40}$/, 'must be 1 to 40 letters, digits, spaces, - or _')

export const deliveryRateRow = z
  .object({
    zone: zoneKey,
    despatchType: zoneKey,
    name: field().trim().min(1).max(100),
    price: money('must be whole minor units'),
    freeOver: money('must be whole minor units').nullable().optional(),
    position: int4({ min: 0, max: 1000 }).optional(),
  })
  .strict()

export async function upsertDeliveryRates(
  db: Executor,
  siteId: number,
  input: unknown[],
): Promise<UpsertResult> {
  const rows = checkRows(deliveryRateRow, input, (r) => `${r.zone}\u0000${r.despatchType}`)
  return db.transaction(async (tx) => {
    const existing = await tx
      .select({ zone: deliveryRates.zone, despatchType: deliveryRates.despatchType })
      .from(deliveryRates)
      .where(eq(deliveryRates.siteId, siteId))
      .for('update')
    const known = new Set(existing.map((e) => `${e.zone}\u0000${e.despatchType}`))
    for (const r of rows) {
      const values = {
        name: r.name,
        price: r.price,
        ...(r.freeOver !== undefined ? { freeOver: r.freeOver } : {}),
        ...(r.position !== undefined ? { position: r.position } : {}),
      }
      await tx
        .insert(deliveryRates)
        .values({ siteId, zone: r.zone, despatchType: r.despatchType, ...values })
        .onConflictDoUpdate({
          target: [deliveryRates.siteId, deliveryRates.zone, deliveryRates.despatchType],
          set: values,
        })
    }
    const updated = rows.filter((r) => known.has(`${r.zone}\u0000${r.despatchType}`)).length
    return { created: rows.length - updated, updated }
  })
}

/** Removes a delivery rate; false when the site has no such rate. */
/** DELETE /delivery-rates: the rate's key. */
export const deliveryRateKey = z.object({ zone: zoneKey, despatchType: zoneKey }).strict()

export async function retireDeliveryRate(
  db: Db,
  siteId: number,
  zone: string,
  despatchType: string,
): Promise<boolean> {
  const rows = await db
    .delete(deliveryRates)
    .where(
      and(
        eq(deliveryRates.siteId, siteId),
        eq(deliveryRates.zone, zone),
        eq(deliveryRates.despatchType, despatchType),
      ),
    )
    .returning({ id: deliveryRates.id })
  return rows.length > 0
}

// --- Search redirects ----------------------------------------------------------------------

/** PUT /search/redirects: a query and where it leads (the search service checks the URL's form). */
export const redirectRule = z
  .object({ query: field().trim().min(1).max(200), url: field().trim().min(1).max(2000) })
  .strict()

/** DELETE /search/redirects */
export const redirectKey = z.object({ query: field().trim().min(1).max(200) }).strict()

// --- Content -------------------------------------------------------------------------------

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*)*$/

export const storyRow = z
  .object({
    fullSlug: field().trim().regex(SLUG, 'must be a slug like about-us or blog/safety-week').max(300),
    name: field().trim().min(1).max(200),
    content: z
      .looseObject({ component: z.string().regex(/^[a-z][a-z0-9_]*$/, 'must be a block name') })
      .superRefine((content, ctx) => {
        // jsonb holds no NUL and no lone surrogate; deep nesting is refused before it is walked.
        const problem = jsonbProblem(content)
        if (problem) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message })
      }),
    /** true: the content goes live at once; false or omitted: saved as the draft only */
    publish: z.boolean().optional(),
    tagList: z.array(field().max(60)).max(50).optional(),
    position: int4().optional(),
    sortByDate: z.iso.date({ error: 'must be a date like 2026-03-31 (YYYY-MM-DD)' }).nullable().optional(),
  })
  .strict()

export async function importStories(db: Db, siteId: number, input: unknown[], now = new Date()) {
  const rows = checkRows(storyRow, input, (r) => r.fullSlug)
  return db.transaction(async (tx) => {
    let published = 0
    for (const r of rows) {
      const existing = await tx
        .select({ uuid: contentStories.uuid })
        .from(contentStories)
        .where(and(eq(contentStories.siteId, siteId), eq(contentStories.fullSlug, r.fullSlug)))
        .limit(1)
        .for('update')
      const uuid = existing[0]?.uuid ?? crypto.randomUUID()
      const content = withUids(r.content, `${uuid}.content`) as Blok
      const values = {
        name: r.name,
        draftContent: content,
        ...(r.publish ? { publishedContent: content, publishedAt: now } : {}),
        ...(r.tagList !== undefined ? { tagList: r.tagList } : {}),
        ...(r.position !== undefined ? { position: r.position } : {}),
        ...(r.sortByDate !== undefined ? { sortByDate: r.sortByDate } : {}),
      }
      await tx
        .insert(contentStories)
        .values({
          siteId,
          uuid,
          slug: r.fullSlug.split('/').at(-1)!,
          fullSlug: r.fullSlug,
          ...values,
          ...(r.publish ? { firstPublishedAt: now } : {}),
        })
        .onConflictDoUpdate({
          target: [contentStories.siteId, contentStories.fullSlug],
          set: {
            ...values,
            updatedAt: sql`now()`,
            ...(r.publish
              ? {
                  firstPublishedAt: sql`coalesce(${contentStories.firstPublishedAt}, ${now.toISOString()}::timestamptz)`,
                }
              : {}),
          },
        })
      if (r.publish) published++
    }
    const cv = await bumpCacheVersion(tx as unknown as Db, siteId, now)
    return { stories: rows.length, published, cv }
  })
}

export const MAX_PUBLISH = 500

/** POST /content/publish: the full slugs of the stories whose drafts go live. */
export const publishRequest = z
  .object({ slugs: z.array(field().trim().min(1).max(300)).min(1).max(MAX_PUBLISH) })
  .strict()

/** Publishes the drafts of the given stories; throws ImportError naming slugs that do not exist. */
export async function publishStories(db: Db, siteId: number, slugs: string[], now = new Date()) {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(contentStories)
      .set({
        publishedContent: sql`${contentStories.draftContent}`,
        publishedAt: now,
        firstPublishedAt: sql`coalesce(${contentStories.firstPublishedAt}, ${now.toISOString()}::timestamptz)`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(contentStories.siteId, siteId), inArray(contentStories.fullSlug, slugs)))
      .returning({ fullSlug: contentStories.fullSlug })
    const done = new Set(rows.map((r) => r.fullSlug))
    const missing = slugs.flatMap((s, i) =>
      done.has(s) ? [] : [{ row: i, field: 'slugs', message: 'no story has this slug' }],
    )
    // Throwing rolls the transaction back: nothing is published unless every slug exists.
    if (missing.length) throw new ImportError(missing)
    const cv = await bumpCacheVersion(tx as unknown as Db, siteId, now)
    return { published: rows.length, cv }
  })
}
