/**
 * Writes of the account area that are not the basket's or the address book's: the password
 * change (ending the account's other sessions), marketing preferences with their consent
 * evidence, and which lines a reorder adds. Knows nothing of HTTP.
 */
import { and, desc, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import {
  ACCOUNT_TEXT,
  MARKETING_PREFERENCES,
  type MarketingPreference,
  type MarketingPreferenceName,
} from '../../../shared/account.ts'
import type { AddLine } from '../cart/cart.service.ts'
import type { OrderItemRow } from '../orders/orders.tables.ts'
import type { ReorderInfo } from '../orders/orders.queries.ts'
import { customers, rememberTokens } from '../auth/auth.tables.ts'
import { hashPassword } from '../auth/auth.crypto.ts'
import { customerMarketing } from '../customers/customers.tables.ts'
import { sessions } from '../../plugins/session.tables.ts'
import { marketingConsents } from './account.tables.ts'

/**
 * Sets a new password. Every other session of the account ends: database sessions other than
 * `keepSessionId` are deleted, remember-me tokens are revoked, and the account's session
 * generation moves on (sessions in Redis carry the old one and are logged out on their next
 * request). Returns the new generation, for the session that made the change.
 */
export async function changePassword(
  db: Db,
  customerId: number,
  password: string,
  keepSessionId: string | null,
): Promise<number> {
  const passwordHash = await hashPassword(password)
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(customers)
      .set({
        passwordHash,
        sessionGeneration: sql`${customers.sessionGeneration} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(customers.id, customerId))
      .returning({ generation: customers.sessionGeneration })
    await tx.delete(rememberTokens).where(eq(rememberTokens.customerId, customerId))
    await tx
      .delete(sessions)
      .where(
        and(
          sql`${sessions.data}->>'customerId' = ${String(customerId)}`,
          keepSessionId ? sql`${sessions.id} <> ${keepSessionId}` : sql`true`,
        ),
      )
    return row!.generation
  })
}

function wordingOf(name: MarketingPreferenceName, status: boolean): string {
  const p = MARKETING_PREFERENCES.find((x) => x.name === name)!
  return `${p.label}: ${p.description} [${status ? 'Yes' : 'No'}]`
}

/**
 * The customer's preferences: each one's latest recorded choice; e-mail falls back to the
 * checkout's opt-out choice (customer_marketing) when never chosen here. Unchosen: off.
 */
export async function marketingPreferences(db: Db, customerId: number): Promise<MarketingPreference[]> {
  const rows = await db
    .select()
    .from(marketingConsents)
    .where(eq(marketingConsents.customerId, customerId))
    .orderBy(desc(marketingConsents.id))
  const [checkout] = await db
    .select()
    .from(customerMarketing)
    .where(eq(customerMarketing.customerId, customerId))
  return MARKETING_PREFERENCES.map((p) => {
    const latest = rows.find((r) => r.preference === p.name)
    const fallback = p.name === 'email' && checkout ? checkout : null
    const useFallback = fallback && (!latest || fallback.updatedAt > latest.createdAt)
    return {
      name: p.name,
      label: p.label,
      description: p.description,
      status: useFallback ? fallback.optedIn : (latest?.status ?? false),
      updatedAt: useFallback ? fallback.updatedAt.toISOString() : (latest?.createdAt.toISOString() ?? null),
    }
  })
}

/**
 * Records the changed preferences (one evidence row each, with the wording shown) in one
 * transaction; unchanged ones write nothing. The e-mail choice also updates the checkout's
 * opt-out record, so both places agree. Returns the number of changes.
 */
export async function updateMarketing(
  db: Db,
  customerId: number,
  choices: { name: MarketingPreferenceName; status: boolean }[],
  ip: string | null,
): Promise<number> {
  const current = await marketingPreferences(db, customerId)
  const changed = choices.filter((c) => current.find((p) => p.name === c.name)?.status !== c.status)
  if (changed.length === 0) return 0
  await db.transaction(async (tx) => {
    await tx.insert(marketingConsents).values(
      changed.map((c) => ({
        customerId,
        preference: c.name,
        status: c.status,
        wording: wordingOf(c.name, c.status),
        source: 'account',
        ip,
      })),
    )
    const email = changed.find((c) => c.name === 'email')
    if (email) {
      await tx
        .insert(customerMarketing)
        .values({ customerId, optedIn: email.status, source: 'account' })
        .onConflictDoUpdate({
          target: customerMarketing.customerId,
          set: { optedIn: email.status, source: 'account', updatedAt: new Date() },
        })
    }
  })
  return changed.length
}

/**
 * The basket lines a reorder adds (spec §4, §5): the chosen lines (each must be an available line
 * of this order; quantity as chosen, at least 1) or, without a choice, every available line with
 * its ordered quantity raised to today's minimum order. A line id not of this order: notFound;
 * an unavailable line, or a whole order with nothing available: field errors.
 */
export function reorderLines(
  items: OrderItemRow[],
  info: Map<number, ReorderInfo>,
  chosen: { id: number; quantity: number }[] | undefined,
): { lines: AddLine[] } | { notFound: true } | { errors: Record<string, string[]> } {
  const lines: AddLine[] = []
  if (chosen) {
    for (const [index, c] of chosen.entries()) {
      const r = info.get(c.id)
      if (!r) return { notFound: true }
      if (r.state !== 'available') return { errors: { [`items.${index}.id`]: [ACCOUNT_TEXT.unavailable] } }
      lines.push({ listing_id: r.productId, quantity: c.quantity, category_id: r.categoryId })
    }
    return { lines }
  }
  for (const item of items) {
    const r = info.get(item.id)
    if (r?.state !== 'available') continue
    lines.push({
      listing_id: r.productId,
      quantity: Math.max(item.quantity, r.minimumOrder),
      category_id: r.categoryId,
    })
  }
  return lines.length ? { lines } : { errors: { order: [ACCOUNT_TEXT.reorderNothing] } }
}
