/**
 * Refunds asked for by order lines (issue 33, ADR 0200): each line gives back at most its own
 * amount less what earlier refunds of that line gave, whatever is sent twice or at once, as well
 * as the order-wide cap. The quote refuses the same way, naming the line.
 */
import { describe, expect, it } from 'vitest'
import { executeOrdersCommand, parseOrdersArgs } from '../../src/server/modules/admin/cli.orders.ts'
import {
  answerNext,
  current,
  ERP,
  lifecycle,
  newOrder,
  refusal,
  t,
  timeline,
  useLifecycleFixture,
} from './order-lifecycle.fixture.ts'

useLifecycleFixture()

const refundLines = (orderNumber: number, lineId: number, quantity: number, key: string) =>
  lifecycle.refundOrder(t.app.db, {
    orderNumber,
    lines: [{ lineId, quantity }],
    reason: 'Damaged',
    idempotencyKey: key,
    actor: ERP,
  })

describe('refunding an order by its lines', () => {
  it('refuses a line refunded a second time beyond its quantity, naming the line, and gives back nothing more', async () => {
    const { order, lines } = await newOrder([2, 1])
    const line = lines[0]!
    await refundLines(order.orderNumber, line.id, 2, 'line-all')
    const refunded = (await current(order.id)).refundedMinor
    expect(refunded).toBe(line.lineTotal + line.vat)
    const e = await refusal(refundLines(order.orderNumber, line.id, 1, 'line-again'))
    expect(e.code).toBe('refund_exceeds_refundable')
    expect(e.message).toContain(`Line ${line.id} (${line.sku})`)
    expect(e.fields).toHaveProperty(['lines.0.quantity'])
    expect(e.answer).toMatchObject({ lineId: line.id, lineRefundableQuantity: 0, lineRefundableMinor: 0 })
    expect((await current(order.id)).refundedMinor).toBe(refunded)
    const quoted = await refusal(
      lifecycle.quoteRefund(t.app.db, {
        orderNumber: order.orderNumber,
        lines: [{ lineId: line.id, quantity: 1 }],
      }),
    )
    expect(quoted.message).toContain(`Line ${line.id} (${line.sku})`)
  })

  it('counts a line named twice in one refund as one quantity', async () => {
    const { order, lines } = await newOrder([2])
    const line = lines[0]!
    const e = await refusal(
      lifecycle.refundOrder(t.app.db, {
        orderNumber: order.orderNumber,
        lines: [
          { lineId: line.id, quantity: 2 },
          { lineId: line.id, quantity: 1 },
        ],
        reason: 'r',
        idempotencyKey: 'dup-line',
        actor: ERP,
      }),
    )
    expect(e.message).toContain(`Line ${line.id}`)
    expect((await current(order.id)).refundedMinor).toBe(0)
  })

  it('gives back exactly the line amount when it is refunded one unit at a time', async () => {
    const { order, lines } = await newOrder([3])
    const line = lines[0]!
    for (const key of ['u1', 'u2', 'u3']) await refundLines(order.orderNumber, line.id, 1, key)
    expect((await current(order.id)).refundedMinor).toBe(line.lineTotal + line.vat)
    await refusal(refundLines(order.orderNumber, line.id, 1, 'u4'))
  })

  it('frees the quantity of a refund the provider refused', async () => {
    const { order, lines } = await newOrder([1])
    const line = lines[0]!
    let calls = 0
    answerNext((input) =>
      calls++ === 0
        ? { refundId: 'x', status: 'failed', amountMinor: 0, how: 'refund', message: 'Declined' }
        : { refundId: 'y', status: 'succeeded', amountMinor: input.amountMinor!, how: 'refund' },
    )
    await refundLines(order.orderNumber, line.id, 1, 'refused')
    await refundLines(order.orderNumber, line.id, 1, 'retried')
    expect((await current(order.id)).refundedMinor).toBe(line.lineTotal + line.vat)
  })

  it('holds a line while its refund is pending, and frees it when the refund settles as failed', async () => {
    const { order, lines } = await newOrder([1, 1])
    const line = lines[0]!
    let calls = 0
    answerNext((input) =>
      calls++ === 0
        ? { refundId: 'line-pending', status: 'pending', amountMinor: input.amountMinor!, how: 'refund' }
        : { refundId: 'line-again', status: 'succeeded', amountMinor: input.amountMinor!, how: 'refund' },
    )
    await refundLines(order.orderNumber, line.id, 1, 'pending-line')
    await refusal(refundLines(order.orderNumber, line.id, 1, 'while-pending'))
    await t.app.db.transaction((tx) =>
      lifecycle.onRefundSettled(tx, {
        refundId: 'line-pending',
        orderId: String(order.id),
        status: 'failed',
        amountMinor: line.lineTotal + line.vat,
      }),
    )
    await refundLines(order.orderNumber, line.id, 1, 'after-failed')
    expect((await current(order.id)).refundedMinor).toBe(line.lineTotal + line.vat)
  })

  it('lets one of two refunds of the same line sent at once through, and the other is refused', async () => {
    const { order, lines } = await newOrder([2, 1])
    const line = lines[0]!
    const results = await Promise.allSettled([
      refundLines(order.orderNumber, line.id, 2, 'at-once-a'),
      refundLines(order.orderNumber, line.id, 2, 'at-once-b'),
    ])
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    for (const r of results.filter((r) => r.status === 'rejected'))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'refund_exceeds_refundable' })
    expect((await current(order.id)).refundedMinor).toBe(line.lineTotal + line.vat)
    const requested = (await timeline(order.id)).filter((e) => e.type === 'refund_requested')
    expect(requested).toHaveLength(1)
    expect(requested[0]!.data).toMatchObject({
      lines: [{ lineId: line.id, quantity: 2, amountMinor: line.lineTotal + line.vat }],
    })
  })

  it('refuses the same line refund run again from the CLI, naming the line, and refunds it once', async () => {
    const { order, lines } = await newOrder([2, 1])
    const line = lines[0]!
    const out: string[] = []
    const run = () =>
      executeOrdersCommand(
        { db: t.app.db, lifecycle, actor: ERP, out: (l) => void out.push(l) },
        parseOrdersArgs([
          'refund',
          String(order.orderNumber),
          '--reason',
          'Damaged',
          '--line',
          `${line.id}:2`,
        ]),
      )
    await run()
    expect(out.at(-1)).toContain('partially_refunded')
    const e = await refusal(run())
    expect(e.message).toContain(`Line ${line.id} (${line.sku}) has been refunded in full already`)
    expect((await current(order.id)).refundedMinor).toBe(line.lineTotal + line.vat)
  })
})
