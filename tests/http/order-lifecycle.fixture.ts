/**
 * The order lifecycle tests' shop (order-lifecycle*.test.ts): the real app on a real database, a
 * lifecycle with a recording money seam (it remembers each key's first answer, as the payments
 * ledger does) and a recording webhook sink, and orders made for each test.
 * `useLifecycleFixture()` builds it before the file's tests; the bindings are filled in by then.
 */
import { randomUUID } from 'node:crypto'
import { and, asc, eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, expect } from 'vitest'
import { customers, mailJobs, orderEvents, orderItems, orders } from '../../src/server/db/schema.ts'
import { DomainError } from '../../src/server/lib/domain-error.ts'
import {
  createOrderLifecycle,
  type Actor,
  type OrderEventRecord,
  type OrderLifecycle,
  type OrderMoney,
  type RefundOutcome,
} from '../../src/server/modules/orders/order-lifecycle.ts'
import type { OrderRow } from '../../src/server/modules/orders/orders.tables.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'

export const ERP: Actor = { kind: 'token', name: 'erp' }
export const STAFF: Actor = { kind: 'staff', name: 'dana' }

export let t: TestApp
let template: OrderRow
export let lifecycle: OrderLifecycle
export const events: OrderEventRecord[] = []
export const moneyCalls: { op: 'refund' | 'giveBackAll'; input: Record<string, unknown> }[] = []
/** What the fake ledger answers next (by default: succeeded for what was asked). */
let nextOutcome: ((input: { amountMinor?: number }) => RefundOutcome) | null = null

/** A recording money seam: remembers each key's first answer, as the real ledger does. */
const answered = new Map<string, RefundOutcome>()
const money: OrderMoney = {
  async refund(input) {
    moneyCalls.push({ op: 'refund', input })
    const seen = answered.get(input.idempotencyKey)
    if (seen) return seen
    const outcome = nextOutcome?.(input) ?? {
      refundId: `r-${answered.size + 1}`,
      status: 'succeeded',
      amountMinor: input.amountMinor,
      how: 'refund',
    }
    answered.set(input.idempotencyKey, outcome)
    return outcome
  },
  async giveBackAll(input) {
    moneyCalls.push({ op: 'giveBackAll', input })
    const [order] = await t.app.db
      .select()
      .from(orders)
      .where(eq(orders.id, Number(input.orderId)))
    const outcome = nextOutcome?.({}) ?? {
      refundId: `r-${answered.size + 1}`,
      status: 'succeeded',
      amountMinor: order!.totalIncVat - order!.refundedMinor,
      how: 'refund',
    }
    answered.set(input.idempotencyKey, outcome)
    return outcome
  },
}

export function useLifecycleFixture() {
  beforeAll(async () => {
    t = await buildTestApp()
    const [demo] = await t.app.db
      .select()
      .from(customers)
      .where(eq(customers.email, 'demo@harbour-safety.example'))
    const [row] = await t.app.db
      .select()
      .from(orders)
      .where(and(eq(orders.customerId, demo!.id), eq(orders.status, 'placed')))
      .limit(1)
    template = row!
    lifecycle = createOrderLifecycle({
      db: t.app.db,
      money,
      events: async (_tx, e) => void events.push(e),
      mail: { site: (id) => t.app.sites.byId(id), present: (ex, r) => t.app.orders.present(ex, r) },
    })
  })
  afterAll(() => t?.close())
  beforeEach(() => {
    events.length = 0
    moneyCalls.length = 0
    nextOutcome = null
  })
}

/** What the money seam answers next (by default: succeeded for what was asked). */
export function answerNext(outcome: (input: { amountMinor?: number }) => RefundOutcome) {
  nextOutcome = outcome
}

/** A placed, paid order of the demo customer with lines of these quantities. */
export async function newOrder(
  quantities: number[] = [3, 1],
  paymentStatus: OrderRow['paymentStatus'] = 'paid',
) {
  const { id: _id, orderNumber: _n, changeSeq: _s, changeXid: _x, ...rest } = template
  const [order] = await t.app.db
    .insert(orders)
    .values({
      ...rest,
      cartRef: randomUUID(),
      idempotencyKey: null,
      paymentStatus,
      version: 1,
      refundedMinor: 0,
    })
    .returning()
  const [item] = await t.app.db.select().from(orderItems).where(eq(orderItems.orderId, template.id)).limit(1)
  const { id: _i, orderId: _o, ...line } = item!
  const lines = await t.app.db
    .insert(orderItems)
    .values(
      quantities.map((quantity, i) => ({ ...line, orderId: order!.id, quantity, sku: `${line.sku}-${i}` })),
    )
    .returning()
  return { order: order!, lines }
}

export const current = async (id: number) =>
  (await t.app.db.select().from(orders).where(eq(orders.id, id)))[0]!
export const timeline = (id: number) =>
  t.app.db.select().from(orderEvents).where(eq(orderEvents.orderId, id)).orderBy(asc(orderEvents.id))
export const mails = (id: number) =>
  t.app.db
    .select()
    .from(mailJobs)
    .where(like(mailJobs.dedupeKey, `order:${id}:v%`))
    .orderBy(asc(mailJobs.id))

export async function refusal(p: Promise<unknown>): Promise<DomainError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(DomainError)
  return e as DomainError
}
