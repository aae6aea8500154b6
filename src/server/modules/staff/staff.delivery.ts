/**
 * The back office's delivery rates (issue 34): every site's rates, and a change to one (or a new
 * zone and despatch type) through the integration API's upsertDeliveryRates (deliveryRateRow's
 * rules) in a transaction that writes the audit row; after it commits every instance's basket
 * rate cache is told, as the API does. Knows no HTTP.
 */
import { and, asc, eq, sql } from 'drizzle-orm'
import type { Db, Executor } from '../../db/client.ts'
import { ImportError } from '../admin/admin.catalog.ts'
import { deliveryRateRow, upsertDeliveryRates } from '../admin/admin.operations.ts'
import { deliveryRates, type DeliveryRateRow } from '../cart/cart.tables.ts'
import { sites } from '../sites/sites.tables.ts'
import { writeAudit, type Actor } from './staff.audit.ts'
import { fingerprint, parseAmount, type EditResult } from './staff.catalogue.ts'

const editable = (r: DeliveryRateRow) => ({
  name: r.name,
  price: r.price,
  freeOver: r.freeOver,
  position: r.position,
})

export async function listDeliveryRates(db: Executor) {
  const rows = await db
    .select({ rate: deliveryRates, site: sites.name, currency: sites.currency })
    .from(deliveryRates)
    .innerJoin(sites, eq(sites.id, deliveryRates.siteId))
    .orderBy(
      asc(deliveryRates.siteId),
      asc(deliveryRates.position),
      asc(deliveryRates.zone),
      asc(deliveryRates.despatchType),
    )
  return rows.map(({ rate, site, currency }) => ({
    id: rate.id,
    siteId: rate.siteId,
    site,
    currency,
    zone: rate.zone,
    despatchType: rate.despatchType,
    ...editable(rate),
    version: fingerprint(editable(rate)),
  }))
}

/** The rate form as typed: amounts in pounds (or dollars). */
export interface RateForm {
  zone: string
  despatchType: string
  name: string
  price: string
  freeOver: string
  position: string
}

/** The form as deliveryRateRow's fields; what cannot be read as a number is named here. */
export function rateFromForm(f: RateForm): { row: Record<string, unknown>; errors: Record<string, string> } {
  const errors: Record<string, string> = {}
  const price = parseAmount(f.price)
  if (price === null) errors.price = 'Enter an amount like 4.95.'
  const freeOver = f.freeOver.trim() === '' ? null : parseAmount(f.freeOver)
  if (freeOver === null && f.freeOver.trim() !== '')
    errors.freeOver = 'Enter an amount like 50.00, or leave it empty.'
  const position =
    f.position.trim() === '' ? 0 : /^\d{1,4}$/.test(f.position.trim()) ? Number(f.position) : null
  if (position === null) errors.position = 'Enter a whole number from 0 to 1000.'
  const row = { zone: f.zone, despatchType: f.despatchType, name: f.name, price, freeOver, position }
  if (Object.keys(errors).length) {
    // The API's rules name the other fields now too, so one answer lists every mistake.
    const checked = deliveryRateRow.safeParse({
      ...row,
      price: price ?? 0,
      freeOver,
      position: position ?? 0,
    })
    if (!checked.success)
      for (const i of checked.error.issues) {
        const key = String(i.path[0] ?? 'form')
        if (!(key in errors)) errors[key] = `${i.message[0]!.toUpperCase()}${i.message.slice(1)}.`
      }
  }
  return { row, errors }
}

/**
 * Saves one rate. With `version`, the rate must still be what the page showed (else stale);
 * without it, it is a new rate and its zone and despatch type must be new on the site.
 */
export async function saveDeliveryRate(
  db: Db,
  invalidateRates: () => void,
  actor: Actor,
  siteId: number,
  row: Record<string, unknown>,
  version: string | null,
): Promise<EditResult> {
  let result: EditResult
  try {
    result = await db.transaction(async (tx): Promise<EditResult> => {
      const zone = String(row.zone ?? '').trim()
      const despatchType = String(row.despatchType ?? '').trim()
      // One writer at a time per rate: a rate not there yet has no row to lock, and two creations
      // must not both pass the check below (the second would overwrite the first).
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtext(${`delivery-rate:${siteId}:${zone}:${despatchType}`}))`,
      )
      const [found] = await tx
        .select()
        .from(deliveryRates)
        .where(
          and(
            eq(deliveryRates.siteId, siteId),
            eq(deliveryRates.zone, zone),
            eq(deliveryRates.despatchType, despatchType),
          ),
        )
        .for('update')
      if (version !== null && (!found || fingerprint(editable(found)) !== version))
        return { ok: false, reason: 'stale' }
      if (version === null && found)
        return {
          ok: false,
          reason: 'invalid',
          errors: { despatchType: 'This site already has a rate for this zone and despatch type.' },
        }
      await upsertDeliveryRates(tx, siteId, [row])
      const [now] = await tx
        .select()
        .from(deliveryRates)
        .where(
          and(
            eq(deliveryRates.siteId, siteId),
            eq(deliveryRates.zone, zone),
            eq(deliveryRates.despatchType, despatchType),
          ),
        )
      await writeAudit(tx, actor, {
        action: found ? 'delivery.change' : 'delivery.create',
        targetType: 'delivery_rate',
        targetId: `${siteId}:${zone}:${despatchType}`,
        before: found ? editable(found) : null,
        after: now ? editable(now) : null,
      })
      return { ok: true }
    })
  } catch (err) {
    if (!(err instanceof ImportError)) throw err
    const errors: Record<string, string> = {}
    for (const e of err.errors)
      errors[e.field === 'row' ? 'form' : e.field] ??= `${e.message[0]!.toUpperCase()}${e.message.slice(1)}.`
    return { ok: false, reason: 'invalid', errors }
  }
  // Every instance's basket rate cache follows, as after the API's change (ADR 0081).
  if (result.ok) invalidateRates()
  return result
}
