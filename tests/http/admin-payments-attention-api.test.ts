/**
 * The payments that need a person, from the integration API (issue 34: nothing only the back
 * office can do): the back office's lists on the token's site, keyset-paged, and each action
 * through the back office's own service (the card and Paya simulators answer), audited with the
 * token's name; a repeat with the same Idempotency-Key answers the first answer; another site's
 * row is 404, an action the row does not offer is 409, bad input is 4xx, and none changes a thing.
 */
import { randomUUID } from 'node:crypto'
import { and, desc, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AdminTokens } from '../../src/server/modules/admin/admin.tokens.ts'
import { executeAttentionCommand } from '../../src/server/modules/staff/cli.attention.ts'
import { orders } from '../../src/server/modules/orders/orders.tables.ts'
import { paymentAttempts, paymentRefunds } from '../../src/server/modules/payments/payments.tables.ts'
import type { AttemptState } from '../../src/server/modules/payments/payments.types.ts'
import { staffAudit } from '../../src/server/modules/staff/staff.tables.ts'
import { startPaymentsHarness, type PaymentsHarness } from './payments/harness.ts'

let t: PaymentsHarness
/** The GBP site's token (localhost) and the USD site's (127.0.0.1), where Paya takes payments. */
const tokens = { harbour: '', northgate: '' }
const HOSTS = { harbour: 'localhost', northgate: '127.0.0.1' } as const
type Site = keyof typeof HOSTS
let attemptNo = 0

beforeAll(async () => {
  t = await startPaymentsHarness()
  const admin = new AdminTokens(t.app.db)
  tokens.harbour = (await admin.create('localhost', 'erp-harbour')).token
  tokens.northgate = (await admin.create('127.0.0.1', 'erp-northgate')).token
})
afterAll(() => t?.close())

const call = (site: Site, method: 'GET' | 'POST', path: string, key: string | null = randomUUID()) =>
  t.app.inject({
    method,
    url: `/api/admin/v1${path}`,
    headers: {
      host: HOSTS[site],
      authorization: `Bearer ${tokens[site]}`,
      ...(method === 'POST' && key !== null ? { 'idempotency-key': key } : {}),
    },
  })

/** A card attempt for a basket that has no order, as the reconciler would find it. */
async function makeAttempt(
  state: AttemptState,
  opts: { resolution?: 'needs_attention' | null; minutesAgo?: number; site?: Site } = {},
) {
  const siteId = await t.siteId(opts.site ?? 'harbour')
  const at = sql`now() - make_interval(mins => ${opts.minutesAgo ?? 60})`
  const [row] = await t.app.db
    .insert(paymentAttempts)
    .values({
      id: randomUUID(),
      siteId,
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

/** A refund of a placed order of the site, still pending (a credit note: no provider to ask). */
async function makePendingRefund(site: Site = 'harbour') {
  const [order] = await t.app.db
    .select({ id: orders.id, number: orders.orderNumber, currency: orders.currency })
    .from(orders)
    .where(and(eq(orders.status, 'placed'), eq(orders.siteId, await t.siteId(site))))
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

const rowOf = async (id: string) =>
  (await t.app.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, id)))[0]!
const auditOf = (id: string) =>
  t.app.db.select().from(staffAudit).where(eq(staffAudit.targetId, id)).orderBy(staffAudit.id)
const ids = (rows: { id: string }[]) => rows.map((r) => r.id)

describe('the lists of payments that need a person', () => {
  it("lists the site's money taken with no order once its grace period is over, and none of another site", async () => {
    const late = await makeAttempt('captured', { minutesAgo: 60 })
    const fresh = await makeAttempt('captured', { minutesAgo: 1 })
    const held = await makeAttempt('captured', { resolution: 'needs_attention' })
    const theirs = await makeAttempt('captured', { site: 'northgate' })
    const res = await call('harbour', 'GET', '/payments/attention')
    expect(res.statusCode, res.body).toBe(200)
    const rows = res.json().payments as { id: string; actions: string[] }[]
    expect(ids(rows)).toEqual(expect.arrayContaining([late.id, held.id]))
    expect(ids(rows)).not.toContain(fresh.id)
    expect(ids(rows)).not.toContain(theirs.id)
    expect(rows.find((r) => r.id === held.id)).toMatchObject({
      amount: 4599,
      currency: 'GBP',
      actions: ['place'],
    })
    expect(ids((await call('northgate', 'GET', '/payments/attention')).json().payments)).toContain(theirs.id)
  })

  it("lists the site's unconfirmed refunds and the orders that need attention, and none of another site's", async () => {
    const { order, refund } = await makePendingRefund('harbour')
    const res = await call('harbour', 'GET', '/refunds/attention')
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().refunds.find((r: { id: string }) => r.id === refund.id)).toMatchObject({
      orderNumber: order.number,
      status: 'pending',
      amount: 500,
      actions: [],
    })
    expect(ids((await call('northgate', 'GET', '/refunds/attention')).json().refunds)).not.toContain(
      refund.id,
    )
    // The refund's order needs attention too (the order list's filter), on its own site only.
    const numbers = async (site: Site) => {
      const listed = await call(site, 'GET', '/orders/attention')
      expect(listed.statusCode, listed.body).toBe(200)
      return (listed.json().orders as { number: number }[]).map((o) => o.number)
    }
    expect(await numbers('harbour')).toContain(order.number)
    expect(await numbers('northgate')).not.toContain(order.number)
    expect((await call('harbour', 'GET', '/orders/attention?after=x.1')).statusCode).toBe(422)
  })

  it('pages the unknown payments with a cursor that repeats no row, and refuses a bad cursor or list', async () => {
    for (let i = 0; i < 26; i++) await makeAttempt('unknown', { minutesAgo: 100 + i })
    const first = (await call('harbour', 'GET', '/payments/attention?list=unknown')).json()
    expect(first.payments).toHaveLength(25)
    expect(first.next).toMatch(/^\d+\.[0-9a-f-]{36}$/)
    const second = (
      await call('harbour', 'GET', `/payments/attention?list=unknown&after=${first.next}`)
    ).json()
    expect(second.payments.length).toBeGreaterThan(0)
    expect(second.payments.some((r: { id: string }) => ids(first.payments).includes(r.id))).toBe(false)
    const bad = await call('harbour', 'GET', '/payments/attention?after=not-a-cursor')
    expect(bad.statusCode).toBe(422)
    expect(bad.json().errors[0]).toMatchObject({ field: 'after' })
    expect((await call('harbour', 'GET', '/payments/attention?list=lost')).statusCode).toBe(422)
  })
})

describe('the actions on a payment that needs a person', () => {
  it('asks the provider now about a lost payment, audits it with the token’s name, and answers a repeat with the first answer', async () => {
    const lost = await lostPayaPayment()
    const key = randomUUID()
    const res = await call('northgate', 'POST', `/payments/${lost.id}/reconcile`, key)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({
      message: 'The provider says the payment is captured.',
      payment: { id: lost.id, state: 'captured', resolution: null },
    })
    const replay = await call('northgate', 'POST', `/payments/${lost.id}/reconcile`, key)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json()).toEqual(res.json())
    const audit = await auditOf(lost.id)
    expect(audit.map((a) => [a.action, a.actorEmail, a.before])).toEqual([
      ['payment.reconcile', 'token:erp-northgate', { state: 'unknown', resolution: null }],
    ])
    // Captured now, it no longer needs asking: refused, nothing written.
    const again = await call('northgate', 'POST', `/payments/${lost.id}/reconcile`)
    expect(again.statusCode).toBe(409)
    expect(again.json().message).toBe('This payment no longer needs that: the page shows it as it is now.')
    expect(await auditOf(lost.id)).toHaveLength(1)
  })

  it('gives taken money back through the provider without trying to place the order', async () => {
    const lost = await lostPayaPayment()
    await t.app.payments.reconcile(lost.id)
    await t.app.db
      .update(paymentAttempts)
      .set({ updatedAt: sql`now() - interval '1 hour'` })
      .where(eq(paymentAttempts.id, lost.id))
    const res = await call('northgate', 'POST', `/payments/${lost.id}/give-back`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({
      message: 'The money was given back to the shopper.',
      payment: { state: 'voided', resolution: 'voided' },
    })
    expect(await rowOf(lost.id)).toMatchObject({ state: 'voided', resolution: 'voided' })
    expect((await auditOf(lost.id)).at(-1)).toMatchObject({
      action: 'payment.give_back',
      actorEmail: 'token:erp-northgate',
    })
  })

  it('resolves money taken with no order as the reconciler would: no form was kept and the card provider cannot void, so a person holds it', async () => {
    const late = await makeAttempt('captured', { minutesAgo: 60 })
    const res = await call('harbour', 'POST', `/payments/${late.id}/resolve`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().message).toMatch(
      /^The money could not be given back here .*refund it with the provider\.$/,
    )
    expect(res.json().payment).toMatchObject({ state: 'captured', resolution: 'needs_attention' })
  })

  it('refuses to place an order when no order form was kept, with 409 and nothing changed', async () => {
    const held = await makeAttempt('captured', { resolution: 'needs_attention' })
    const res = await call('harbour', 'POST', `/payments/${held.id}/place`)
    expect(res.statusCode).toBe(409)
    expect(res.json().message).toBe('The order could not be placed: no order form was kept with the payment.')
    expect(await rowOf(held.id)).toMatchObject({ state: 'captured', resolution: 'needs_attention' })
  })

  it("refuses another site's payment or refund, and an unknown one, with 404 and no audit row", async () => {
    const theirs = await makeAttempt('unknown', { site: 'northgate' })
    const res = await call('harbour', 'POST', `/payments/${theirs.id}/reconcile`)
    expect(res.statusCode).toBe(404)
    expect(res.json().message).toBe('There is no payment with this reference.')
    expect((await call('harbour', 'POST', `/payments/${randomUUID()}/place`)).statusCode).toBe(404)
    const { refund } = await makePendingRefund('harbour')
    const other = await call('northgate', 'POST', `/refunds/${refund.id}/reconcile`)
    expect(other.statusCode).toBe(404)
    expect(other.json().message).toBe('There is no refund with this reference.')
    expect(await auditOf(theirs.id)).toEqual([])
    expect(await auditOf(refund.id)).toEqual([])
  })

  it('refuses an action the row does not offer with 409, and bad input with 4xx, changing nothing', async () => {
    const unknown = await makeAttempt('unknown')
    const wrong = await call('harbour', 'POST', `/payments/${unknown.id}/give-back`)
    expect(wrong.statusCode).toBe(409)
    // A credit note's refund has no provider to ask.
    const { refund } = await makePendingRefund('harbour')
    const noProvider = await call('harbour', 'POST', `/refunds/${refund.id}/reconcile`)
    expect(noProvider.statusCode).toBe(409)
    expect(noProvider.json().message).toBe(
      'This refund no longer needs that: the page shows it as it is now.',
    )
    const noKey = await call('harbour', 'POST', `/payments/${unknown.id}/reconcile`, null)
    expect(noKey.statusCode).toBe(400)
    const badId = await call('harbour', 'POST', '/payments/not-a-reference/reconcile')
    expect(badId.statusCode).toBe(422)
    expect(badId.json().errors[0]).toMatchObject({ field: 'id' })
    expect(await rowOf(unknown.id)).toMatchObject({ state: 'unknown', resolution: null })
    expect(await auditOf(unknown.id)).toEqual([])
  })
})

describe('the payments that need a person from the CLI (npm run admin -- payments …)', () => {
  const run = async (cmd: Parameters<typeof executeAttentionCommand>[1]) => {
    const lines: string[] = []
    const actor = { id: null, email: 'cli:tester', ip: '' }
    const ok = await executeAttentionCommand({ app: t.app, actor, out: (l) => lines.push(l) }, cmd)
    return { ok, lines }
  }

  it("lists a site's held payment with its action, and says why its order cannot be placed", async () => {
    const held = await makeAttempt('captured', { resolution: 'needs_attention', minutesAgo: 0 })
    const listed = await run({ kind: 'list', list: 'paid', site: 'localhost' })
    expect(listed.lines.find((l) => l.startsWith(held.id))).toMatch(
      /\tcaptured\/needs_attention\t4599 GBP\t-\tplace$/,
    )
    expect((await run({ kind: 'list', list: 'paid', site: 'northgate' })).lines.join('\n')).not.toContain(
      held.id,
    )
    const placed = await run({ kind: 'act', intent: 'place', id: held.id })
    expect(placed).toEqual({
      ok: false,
      lines: ['The order could not be placed: no order form was kept with the payment.'],
    })
    expect((await auditOf(held.id))[0]).toMatchObject({ action: 'payment.place', actorEmail: 'cli:tester' })
  })

  it('lists the orders that need attention, and asks about a refund when reconcile is given a refund’s reference', async () => {
    const { refund } = await makePendingRefund('harbour')
    const { order } = await makePendingRefund('harbour')
    const listed = await run({ kind: 'list', list: 'orders', site: 'localhost' })
    expect(listed.lines.some((l) => l.startsWith(`${order.number}\t`))).toBe(true)
    const asked = await run({ kind: 'act', intent: 'reconcile', id: refund.id })
    // A credit note has no provider to ask: refused as the back office refuses it.
    expect(asked).toEqual({
      ok: false,
      lines: ['This refund no longer needs that: the page shows it as it is now.'],
    })
  })
})
