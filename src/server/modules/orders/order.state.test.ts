import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FINAL_ORDER_STATES, ORDER_TRANSITIONS, orderTransition, type OrderEvent } from './order.state.ts'
import { ORDER_STATUSES, type OrderStatus } from './orders.tables.ts'

const EVENTS: OrderEvent[] = ['payment_confirmed', 'payment_failed']
const run = (events: OrderEvent[], from: OrderStatus = 'pending_payment') => {
  const seen: OrderStatus[] = [from]
  let state = from
  for (const e of events) {
    const t = orderTransition(state, e)
    if (t.ok) state = t.to
    seen.push(state)
  }
  return seen
}

describe('order state machine', () => {
  it('moves a pending order to placed when its payment is confirmed', () => {
    expect(orderTransition('pending_payment', 'payment_confirmed')).toEqual({
      ok: true,
      from: 'pending_payment',
      to: 'placed',
    })
  })

  it('moves a pending order to payment_failed when its payment fails', () => {
    expect(orderTransition('pending_payment', 'payment_failed')).toMatchObject({
      ok: true,
      to: 'payment_failed',
    })
  })

  it('never leaves placed or payment_failed, whatever events arrive in whatever order', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...EVENTS), { maxLength: 10 }), (events) => {
        const seen = run(events)
        const firstFinal = seen.findIndex((s) => FINAL_ORDER_STATES.has(s))
        if (firstFinal >= 0) expect(new Set(seen.slice(firstFinal)).size).toBe(1)
      }),
    )
  })

  it('changes state at most once for any sequence of events (a replayed notification changes nothing)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...EVENTS), { maxLength: 10 }), (events) => {
        const seen = run(events)
        const changes = seen.slice(1).filter((s, i) => s !== seen[i]).length
        expect(changes).toBeLessThanOrEqual(1)
      }),
    )
  })

  it('declares a transition table for every order status', () => {
    expect(Object.keys(ORDER_TRANSITIONS).sort()).toEqual([...ORDER_STATUSES].sort())
    for (const s of ORDER_STATUSES)
      for (const e of EVENTS) {
        const t = orderTransition(s, e)
        if (t.ok) expect(ORDER_STATUSES).toContain(t.to)
      }
  })
})
