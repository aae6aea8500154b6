/**
 * The back office's promotions (issue 34): list them on both sites with their uses, create one,
 * change one, retire one, and see which orders used it. Writes go through the integration API's
 * upsertPromotions and retirePromotion (promotionRow's rules) inside a transaction that also
 * writes the audit row. Promotions are read from the database on every basket change, so no
 * cache signal is needed (admin.operations.ts). Knows no HTTP.
 */
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm'
import type { Db, Executor } from '../../db/client.ts'
import { ImportError } from '../admin/admin.catalog.ts'
import { promotionRow, retirePromotion, upsertPromotions } from '../admin/admin.operations.ts'
import { promotions, PROMOTION_KINDS, type PromotionRow } from '../cart/cart.tables.ts'
import { products } from '../catalog/catalog.tables.ts'
import { orders, promotionRedemptions } from '../orders/orders.tables.ts'
import { sites } from '../sites/sites.tables.ts'
import { writeAudit, type Actor } from './staff.audit.ts'
import { fingerprint, parseAmount, type EditResult } from './staff.catalogue.ts'

/** How many of a promotion's latest orders its page lists. */
export const USES_SHOWN = 100

const editable = (p: PromotionRow, giftSku: string | null) => ({
  description: p.description,
  kind: p.kind,
  value: p.value,
  giftSku,
  minimumSpend: p.minimumSpend,
  startsAt: p.startsAt?.toISOString() ?? null,
  endsAt: p.endsAt?.toISOString() ?? null,
  usageLimit: p.usageLimit,
  active: p.active,
})

/** What a promotion is now, in the back office's words: retired, ended, not started, used up or active. */
export function stateOf(
  p: {
    active: boolean
    startsAt: Date | null
    endsAt: Date | null
    usageLimit: number | null
    timesUsed: number
  },
  now = new Date(),
): string {
  if (!p.active) return 'Retired'
  if (p.endsAt && p.endsAt <= now) return 'Ended'
  if (p.startsAt && p.startsAt > now) return 'Not started'
  if (p.usageLimit !== null && p.timesUsed >= p.usageLimit) return 'Used up'
  return 'Active'
}

export async function listPromotions(db: Executor, site?: number) {
  const where: SQL[] = site !== undefined ? [eq(promotions.siteId, site)] : []
  const rows = await db
    .select({
      id: promotions.id,
      site: sites.name,
      currency: sites.currency,
      code: promotions.code,
      description: promotions.description,
      kind: promotions.kind,
      value: promotions.value,
      minimumSpend: promotions.minimumSpend,
      startsAt: promotions.startsAt,
      endsAt: promotions.endsAt,
      usageLimit: promotions.usageLimit,
      timesUsed: promotions.timesUsed,
      active: promotions.active,
    })
    .from(promotions)
    .innerJoin(sites, eq(sites.id, promotions.siteId))
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(promotions.active), asc(promotions.siteId), asc(promotions.code))
  const used = rows.length
    ? await db
        .select({ id: promotionRedemptions.promotionId, orders: count() })
        .from(promotionRedemptions)
        .where(
          inArray(
            promotionRedemptions.promotionId,
            rows.map((r) => r.id),
          ),
        )
        .groupBy(promotionRedemptions.promotionId)
    : []
  const byId = new Map(used.map((u) => [u.id, u.orders]))
  return rows.map((r) => ({
    ...r,
    state: stateOf(r),
    startsAt: r.startsAt?.toISOString() ?? null,
    endsAt: r.endsAt?.toISOString() ?? null,
    orders: byId.get(r.id) ?? 0,
  }))
}

async function giftSkuOf(db: Executor, productId: number | null): Promise<string | null> {
  if (productId === null) return null
  const [p] = await db.select({ sku: products.sku }).from(products).where(eq(products.id, productId))
  return p?.sku ?? null
}

/** A promotion, its fingerprint and the orders that used it (newest first), or null. */
export async function promotionDetail(db: Executor, id: number) {
  const [row] = await db
    .select({ promotion: promotions, site: { id: sites.id, name: sites.name, currency: sites.currency } })
    .from(promotions)
    .innerJoin(sites, eq(sites.id, promotions.siteId))
    .where(eq(promotions.id, id))
  if (!row) return null
  const giftSku = await giftSkuOf(db, row.promotion.giftProductId)
  const [total] = await db
    .select({ n: count() })
    .from(promotionRedemptions)
    .where(eq(promotionRedemptions.promotionId, id))
  const uses = await db
    .select({
      number: orders.orderNumber,
      date: orders.orderDate,
      status: orders.status,
      total: orders.totalIncVat,
      currency: orders.currency,
    })
    .from(promotionRedemptions)
    .innerJoin(orders, eq(orders.id, promotionRedemptions.orderId))
    .where(eq(promotionRedemptions.promotionId, id))
    .orderBy(desc(promotionRedemptions.createdAt), desc(promotionRedemptions.id))
    .limit(USES_SHOWN)
  const fields = editable(row.promotion, giftSku)
  return {
    id: row.promotion.id,
    code: row.promotion.code,
    site: row.site,
    timesUsed: row.promotion.timesUsed,
    state: stateOf(row.promotion),
    ...fields,
    version: fingerprint(fields),
    orders: total?.n ?? 0,
    uses: uses.map((u) => ({ ...u, date: u.date.toISOString() })),
  }
}

/** The promotion form as typed: amounts in pounds (or dollars), dates as UTC date and time. */
export interface PromotionForm {
  code?: string
  description: string
  kind: string
  value: string
  giftSku: string
  minimumSpend: string
  startsAt: string
  endsAt: string
  usageLimit: string
  active: boolean
}

/** The form as promotionRow's fields (its rules then apply); what cannot be read is named here. */
export function promotionFromForm(f: PromotionForm): {
  row: Record<string, unknown>
  errors: Record<string, string>
} {
  const errors: Record<string, string> = {}
  const row: Record<string, unknown> = {
    description: f.description,
    kind: (PROMOTION_KINDS as readonly string[]).includes(f.kind) ? f.kind : f.kind || undefined,
    giftSku: f.kind === 'free_gift' ? f.giftSku.trim() || null : null,
    active: f.active,
  }
  if (f.code !== undefined) row.code = f.code
  if (f.kind === 'percentage' || f.kind === 'fixed') {
    const v =
      f.kind === 'fixed' ? parseAmount(f.value) : /^\s*\d{1,3}\s*$/.test(f.value) ? Number(f.value) : null
    if (v === null)
      errors.value =
        f.kind === 'fixed' ? 'Enter an amount like 5.00.' : 'Enter a whole percentage from 1 to 100.'
    else row.value = v
  } else row.value = 0
  const spend = f.minimumSpend.trim() === '' ? 0 : parseAmount(f.minimumSpend)
  if (spend === null) errors.minimumSpend = 'Enter an amount like 50.00, or leave it empty.'
  else row.minimumSpend = spend
  for (const key of ['startsAt', 'endsAt'] as const) {
    const t = f[key].trim()
    if (t === '') row[key] = null
    else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(t) && !Number.isNaN(Date.parse(`${t}:00Z`)))
      row[key] = `${t}:00Z`
    else errors[key] = 'Enter a date and time, or leave it empty.'
  }
  const limit = f.usageLimit.trim()
  if (limit === '') row.usageLimit = null
  else if (/^\d{1,9}$/.test(limit)) row.usageLimit = Number(limit)
  else errors.usageLimit = 'Enter a whole number, or leave it empty for no limit.'
  if (Object.keys(errors).length) {
    // The API's rules name the other fields now too, so one answer lists every mistake.
    const checked = promotionRow.safeParse({
      code: 'XX',
      value: 1,
      ...row,
      ...Object.fromEntries(Object.keys(errors).map((k) => [k, undefined])),
    })
    if (!checked.success)
      for (const i of checked.error.issues) {
        const key = String(i.path[0] ?? 'form')
        if (!(key in errors)) errors[key] = messageFor(i.message)
      }
  }
  return { row, errors }
}

const MESSAGES: Record<string, string> = {
  'must be after startsAt': 'Must be after the start.',
  'required for a free gift': 'Enter the SKU given as the gift.',
  'no SKU has this code': 'No SKU on this site has this code.',
}

const messageFor = (m: string) =>
  MESSAGES[m] ?? `${m[0]!.toUpperCase()}${m.slice(1)}${m.endsWith('.') ? '' : '.'}`

function invalid(err: ImportError): EditResult {
  const errors: Record<string, string> = {}
  for (const e of err.errors) errors[e.field === 'row' ? 'form' : e.field] ??= messageFor(e.message)
  return { ok: false, reason: 'invalid', errors }
}

async function attempt(work: () => Promise<EditResult>): Promise<EditResult> {
  try {
    return await work()
  } catch (err) {
    if (err instanceof ImportError) return invalid(err)
    throw err
  }
}

/** Creates a promotion on a site; a code the site already has is refused (change that one instead). */
export async function createPromotion(
  db: Db,
  actor: Actor,
  siteId: number,
  row: Record<string, unknown>,
): Promise<EditResult & { id?: number }> {
  return attempt(() =>
    db.transaction(async (tx) => {
      const code = typeof row.code === 'string' ? row.code.trim().toUpperCase() : ''
      // One creator at a time per site and code, so two creations cannot both pass the check.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`promotion:${siteId}:${code}`}))`)
      const [taken] = await tx
        .select({ id: promotions.id })
        .from(promotions)
        .where(and(eq(promotions.siteId, siteId), eq(promotions.code, code)))
      if (taken)
        return {
          ok: false,
          reason: 'invalid',
          errors: { code: 'This site already has a promotion with this code.' },
        }
      await upsertPromotions(tx, siteId, [row])
      const [made] = await tx
        .select()
        .from(promotions)
        .where(and(eq(promotions.siteId, siteId), eq(promotions.code, code)))
      await writeAudit(tx, actor, {
        action: 'promotion.create',
        targetType: 'promotion',
        targetId: `${siteId}:${code}`,
        after: made ? editable(made, (row.giftSku as string | null) ?? null) : null,
      })
      return { ok: true, ...(made ? { id: made.id } : {}) }
    }),
  )
}

/** Changes a promotion (not its code or site); refused when it changed since the page showed it. */
export async function changePromotion(
  db: Db,
  actor: Actor,
  id: number,
  version: string,
  change: { row: Record<string, unknown> } | { retire: true },
): Promise<EditResult> {
  return attempt(() =>
    db.transaction(async (tx) => {
      const [p] = await tx.select().from(promotions).where(eq(promotions.id, id)).for('update')
      if (!p) return { ok: false, reason: 'missing' }
      const before = editable(p, await giftSkuOf(tx, p.giftProductId))
      if (fingerprint(before) !== version) return { ok: false, reason: 'stale' }
      if ('retire' in change) await retirePromotion(tx, p.siteId, p.code)
      else await upsertPromotions(tx, p.siteId, [{ ...change.row, code: p.code }])
      const [now] = await tx.select().from(promotions).where(eq(promotions.id, id))
      await writeAudit(tx, actor, {
        action: 'retire' in change ? 'promotion.retire' : 'promotion.change',
        targetType: 'promotion',
        targetId: `${p.siteId}:${p.code}`,
        before,
        after: now ? editable(now, await giftSkuOf(tx, now.giftProductId)) : null,
      })
      return { ok: true }
    }),
  )
}
