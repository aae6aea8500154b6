/**
 * The back office's payments that need attention: money taken with no order, payments in an
 * unknown state and refunds the provider has not confirmed, each with its action (the payments
 * and orders services' own), audited; a viewer sees them and is refused every action by the
 * server; the order list's 'needs attention' filter lists the same orders.
 */
import { randomUUID } from 'node:crypto'
import { desc, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orders } from '../../src/server/modules/orders/orders.tables.ts'
import { paymentAttempts, paymentRefunds } from '../../src/server/modules/payments/payments.tables.ts'
import type { AttemptState } from '../../src/server/modules/payments/payments.types.ts'
import { sites } from '../../src/server/modules/sites/sites.tables.ts'
import { staffAudit } from '../../src/server/modules/staff/staff.tables.ts'
import { startPaymentsHarness, type PaymentsHarness } from './payments/harness.ts'
import { makeStaff, signIn, type MadeStaff, type StaffBrowser } from './staff.fixture.ts'

let t: PaymentsHarness
let staffer: MadeStaff
let staff: StaffBrowser
let viewer: StaffBrowser
let attemptNo = 0

beforeAll(async () => {
  // The card simulator stands in for Opayo: the actions ask a provider that answers.
  t = await startPaymentsHarness()
  staffer = await makeStaff(t.app, 'staff')
  staff = await signIn(t.app, staffer)
  viewer = await signIn(t.app, await makeStaff(t.app, 'viewer'))
})
afterAll(() => t?.close())

/** A card attempt for a basket that has no order, as the reconciler would find it. */
async function makeAttempt(
  state: AttemptState,
  opts: { resolution?: 'needs_attention' | null; minutesAgo?: number } = {},
) {
  const [site] = await t.app.db.select({ id: sites.id }).from(sites).where(eq(sites.code, 'harbour'))
  const at = sql`now() - make_interval(mins => ${opts.minutesAgo ?? 60})`
  const [row] = await t.app.db
    .insert(paymentAttempts)
    .values({
      id: randomUUID(),
      siteId: site!.id,
      orderRef: `basket:${randomUUID()}`,
      attemptNo: ++attemptNo,
      method: 'sagepay',
      state,
      amountMinor: 4599,
      currency: 'GBP',
      reference: randomUUID(),
      resolution: opts.resolution ?? null,
      resolutionNote: opts.resolution ? 'the provider cannot void here' : null,
    })
    .returning()
  await t.app.db
    .update(paymentAttempts)
    .set({ createdAt: at, updatedAt: at })
    .where(eq(paymentAttempts.id, row!.id))
  return row!
}

/** A refund of a placed demo order, still pending (a credit note: no provider to ask). */
async function makePendingRefund() {
  const [order] = await t.app.db
    .select({ id: orders.id, number: orders.orderNumber, currency: orders.currency })
    .from(orders)
    .where(eq(orders.status, 'placed'))
    .orderBy(desc(orders.id))
    .limit(1)
  const [refund] = await t.app.db
    .insert(paymentRefunds)
    .values({
      id: randomUUID(),
      orderId: String(order!.id),
      method: 'purchase_order',
      amountMinor: 500,
      currency: order!.currency,
      status: 'pending',
      how: 'credit_note',
      idempotencyKey: randomUUID(),
      reason: 'damaged in transit',
      actorKind: 'staff',
      actorName: 'test',
    })
    .returning()
  return { order: order!, refund: refund! }
}

const page = async (who: StaffBrowser = viewer, query = '') => {
  const res = await who.visit(`/admin/payments${query}`)
  expect(res.statusCode).toBe(200)
  expect(res.json().component).toBe('admin/Attention')
  return res.json().props
}

const ids = (list: { rows: { id: string }[] }) => list.rows.map((r) => r.id)

describe('the payments that need attention', () => {
  it('lists money taken with no order once its grace period is over, and not before', async () => {
    const late = await makeAttempt('captured', { minutesAgo: 60 })
    const fresh = await makeAttempt('captured', { minutesAgo: 1 })
    const held = await makeAttempt('captured', { resolution: 'needs_attention' })
    const props = await page()
    expect(ids(props.paid)).toEqual(expect.arrayContaining([late.id, held.id]))
    expect(ids(props.paid)).not.toContain(fresh.id)
    const row = props.paid.rows.find((r: { id: string }) => r.id === held.id)
    expect(row).toMatchObject({ amount: 4599, currency: 'GBP', actions: ['place'] })
  })

  it('lists payments in an unknown state and unconfirmed refunds, and the order list’s filter shows the refund’s order', async () => {
    const unknown = await makeAttempt('unknown')
    const { order, refund } = await makePendingRefund()
    const props = await page()
    expect(ids(props.unknown)).toContain(unknown.id)
    expect(props.unknown.rows.find((r: { id: string }) => r.id === unknown.id).actions).toEqual(['reconcile'])
    expect(props.refunds.rows.find((r: { id: string }) => r.id === refund.id)).toMatchObject({
      orderNumber: order.number,
      status: 'pending',
      amount: 500,
    })
    const list = (await viewer.visit('/admin/orders?attention=1')).json().props.orders as { number: number }[]
    expect(list.map((o) => o.number)).toContain(order.number)
    const all = (await viewer.visit('/admin/orders')).json().props.orders as { number: number }[]
    expect(all.length).toBeGreaterThan(list.length)
  })

  it('pages a list with a cursor that repeats no row, and names a bad page link', async () => {
    for (let i = 0; i < 26; i++) await makeAttempt('unknown', { minutesAgo: 100 + i })
    const first = (await page()).unknown
    expect(first.rows).toHaveLength(25)
    expect(first.next).toMatch(/^\d+\.[0-9a-f-]{36}$/)
    const second = (await page(viewer, `?unknown=${first.next}`)).unknown
    expect(second.rows.length).toBeGreaterThan(0)
    expect(second.rows.some((r: { id: string }) => ids(first).includes(r.id))).toBe(false)
    expect(second.rows[0].createdAt <= first.rows.at(-1).createdAt).toBe(true)
    const bad = await page(viewer, '?paid=not-a-cursor')
    expect(bad.errors.paid).toBe('The page link is not valid.')
    expect((await page(viewer, '?refunds=a&refunds=b')).errors.refunds).toBeDefined()
  })
})

/** A Paya payment taken on the hosted form whose confirmation was lost (a 5xx): unknown. */
async function lostPayaPayment() {
  const p = t.app.payments
  const attempt = await p.createAttempt({
    siteId: await t.siteId('northgate'),
    orderRef: `basket:${randomUUID()}`,
    method: 'paya',
    amountMinor: 4200,
    currency: 'USD',
  })
  const form = await p.payaForm(attempt.id, { orderNumber: attempt.orderRef, billingZip: '32606' })
  const html = await (await fetch(form.iframeUrl)).text()
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)![1]!
  await fetch(`${t.sims.origin}/paya/v2/payform/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      hash: field('hash'),
      data: field('data'),
      account_number: '4111111111111111',
      exp_date: '1230',
      cvv: '999',
      billing_zip: '32606',
    }),
  })
  t.sims.faults.add({ provider: 'paya', match: 'GET /v2/transactions', kind: 'error500' })
  const lost = await p.payaConfirm(attempt.id)
  expect(lost.state).toBe('unknown')
  return lost
}

describe('the actions', () => {
  it('learns from the provider that a lost payment was taken, then gives the money back through it when no order can be placed', async () => {
    const lost = await lostPayaPayment()
    const asked = await staff.post('/admin/payments', { intent: 'reconcile', id: lost.id })
    expect(asked.json().props.notice).toBe('The provider says the payment is captured.')
    // Its grace period over, it is money taken with no order, and the basket is gone.
    await t.app.db
      .update(paymentAttempts)
      .set({ updatedAt: sql`now() - interval '1 hour'` })
      .where(eq(paymentAttempts.id, lost.id))
    const listed = (await page(staff)).paid.rows.find((r: { id: string }) => r.id === lost.id)
    expect(listed).toMatchObject({ state: 'captured', actions: ['resolve', 'give_back'] })
    const resolved = await staff.post('/admin/payments', { intent: 'resolve', id: lost.id })
    expect(resolved.json().props.notice).toBe('The money was given back to the shopper.')
    const [row] = await t.app.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, lost.id))
    expect(row).toMatchObject({ state: 'voided', resolution: 'voided' })
    const audit = await t.app.db
      .select()
      .from(staffAudit)
      .where(eq(staffAudit.targetId, lost.id))
      .orderBy(staffAudit.id)
    expect(audit.map((a) => [a.action, a.before, a.after?.state])).toEqual([
      ['payment.reconcile', { state: 'unknown', resolution: null }, 'captured'],
      ['payment.resolve', { state: 'captured', resolution: null }, 'voided'],
    ])
  })

  it('asks the provider now about a payment in an unknown state, and audits it', async () => {
    const unknown = await makeAttempt('unknown')
    const res = await staff.post('/admin/payments', { intent: 'reconcile', id: unknown.id })
    expect(res.json().props.errors).toEqual({})
    expect(res.statusCode).toBe(200)
    expect(res.json().props.notice).toBe('The provider has no news yet: the payment is still unknown.')
    const [audit] = await t.app.db.select().from(staffAudit).where(eq(staffAudit.targetId, unknown.id))
    expect(audit).toMatchObject({
      action: 'payment.reconcile',
      actorId: staffer.id,
      targetType: 'payment_attempt',
      before: { state: 'unknown' },
    })
  })

  it('resolves money taken with no order: no order form was kept, and the provider cannot give it back, so it is handed to a person', async () => {
    const late = await makeAttempt('captured', { minutesAgo: 60 })
    const res = await staff.post('/admin/payments', { intent: 'resolve', id: late.id })
    expect(res.statusCode).toBe(200)
    expect(res.json().props.notice).toMatch(
      /^The money could not be given back here .*refund it with the provider\.$/,
    )
    const [row] = await t.app.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, late.id))
    expect(row!.resolution).toBe('needs_attention')
    const moved = res.json().props.paid.rows.find((r: { id: string }) => r.id === late.id)
    expect(moved.actions).toEqual(['place'])
  })

  it('gives taken money back through the provider when a person asks, without trying to place the order', async () => {
    const lost = await lostPayaPayment()
    await t.app.payments.reconcile(lost.id)
    await t.app.db
      .update(paymentAttempts)
      .set({ updatedAt: sql`now() - interval '1 hour'` })
      .where(eq(paymentAttempts.id, lost.id))
    const res = await staff.post('/admin/payments', { intent: 'give_back', id: lost.id })
    expect(res.json().props.notice).toBe('The money was given back to the shopper.')
    const [row] = await t.app.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, lost.id))
    expect(row).toMatchObject({ state: 'voided', resolution: 'voided' })
    expect(res.json().props.paid.rows.map((r: { id: string }) => r.id)).not.toContain(lost.id)
  })

  it('says why an order cannot be placed from a held payment, and changes nothing', async () => {
    const held = await makeAttempt('captured', { resolution: 'needs_attention' })
    const res = await staff.post('/admin/payments', { intent: 'place', id: held.id })
    expect(res.statusCode).toBe(422)
    expect(res.json().props.errors.form).toBe(
      'The order could not be placed: no order form was kept with the payment.',
    )
    const [row] = await t.app.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, held.id))
    expect(row).toMatchObject({ state: 'captured', resolution: 'needs_attention' })
  })

  it('refuses an action the row does not offer, an unknown reference or intent, with a message and no audit row', async () => {
    const unknown = await makeAttempt('unknown')
    const wrong = await staff.post('/admin/payments', { intent: 'place', id: unknown.id })
    expect(wrong.statusCode).toBe(422)
    expect(wrong.json().props.errors.form).toBe(
      'This payment no longer needs that: the page shows it as it is now.',
    )
    const missing = await staff.post('/admin/payments', { intent: 'reconcile', id: randomUUID() })
    expect(missing.json().props.errors.form).toBe('There is no payment with this reference.')
    const bad = await staff.post('/admin/payments', { intent: 'explode', id: 'x' })
    expect(bad.statusCode).toBe(422)
    expect(bad.json().props.errors).toMatchObject({
      intent: 'Please choose an action.',
      id: 'That is not a payment or refund reference.',
    })
    const { refund } = await makePendingRefund()
    const noProvider = await staff.post('/admin/payments', { intent: 'refund_status', id: refund.id })
    expect(noProvider.statusCode).toBe(422)
    expect(await t.app.db.select().from(staffAudit).where(eq(staffAudit.targetId, unknown.id))).toEqual([])
  })

  it('refuses a viewer every action on the server, with a valid session and CSRF token', async () => {
    const unknown = await makeAttempt('unknown')
    const res = await viewer.post('/admin/payments', { intent: 'reconcile', id: unknown.id })
    expect(res.statusCode).toBe(403)
    expect(await t.app.db.select().from(staffAudit).where(eq(staffAudit.targetId, unknown.id))).toEqual([])
  })
})
