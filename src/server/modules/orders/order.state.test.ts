import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  checkOrderMachine,
  CUSTOMER_STATUS,
  FINAL_ORDER_STATES,
  HOLDABLE,
  ORDER_EVENTS,
  ORDER_TRANSITIONS,
  orderTransition,
  type OrderEvent,
  type OrderPosition,
} from './order.state.ts'
import { ORDER_STATUSES, type OrderStatus } from './orders.tables.ts'

/** Runs events from a position, refused ones changing nothing; every position seen. */
const run = (events: OrderEvent[], from: OrderPosition = { status: 'pending_payment', heldFrom: null }) => {
  const seen: OrderPosition[] = [from]
  let at = from
  for (const e of events) {
    const t = orderTransition(at, e)
    if (t.ok) at = { status: t.to, heldFrom: t.heldFrom }
    seen.push(at)
  }
  return seen
}
const anyEvents = fc.array(fc.constantFrom(...ORDER_EVENTS), { maxLength: 25 })
const anyStart = fc.constantFrom<OrderStatus>('pending_payment', 'placed')

describe('order state machine', () => {
  it('moves a pending order to placed when its payment is confirmed', () => {
    expect(orderTransition('pending_payment', 'payment_confirmed')).toEqual({
      ok: true,
      from: 'pending_payment',
      to: 'placed',
      heldFrom: null,
    })
  })

  it('moves a pending order to payment_failed when its payment fails', () => {
    expect(orderTransition('pending_payment', 'payment_failed')).toMatchObject({
      ok: true,
      to: 'payment_failed',
    })
  })

  it('holds a placed order and releases it back to placed', () => {
    const held = orderTransition('placed', 'hold')
    expect(held).toEqual({ ok: true, from: 'placed', to: 'held', heldFrom: 'placed' })
    expect(orderTransition({ status: 'held', heldFrom: 'placed' }, 'release')).toEqual({
      ok: true,
      from: 'held',
      to: 'placed',
      heldFrom: null,
    })
  })

  it('releases an order held while partially shipped back to partially shipped', () => {
    const held = orderTransition('partially_shipped', 'hold')
    expect(held).toMatchObject({ ok: true, to: 'held', heldFrom: 'partially_shipped' })
    expect(orderTransition({ status: 'held', heldFrom: 'partially_shipped' }, 'release')).toMatchObject({
      ok: true,
      to: 'partially_shipped',
    })
  })

  it('refuses to ship a held order, saying to release it first', () => {
    for (const e of ['ship_part', 'ship_all'] as const)
      expect(orderTransition({ status: 'held', heldFrom: 'placed' }, e)).toEqual({
        ok: false,
        reason: 'An order that is held cannot be shipped: release it first.',
      })
  })

  it('refuses to hold a shipped order with a sentence that says why', () => {
    expect(orderTransition('shipped', 'hold')).toEqual({
      ok: false,
      reason: 'An order that is shipped cannot be held.',
    })
  })

  it('cancels only orders nothing of which was shipped', () => {
    expect(orderTransition('placed', 'cancel')).toMatchObject({ ok: true, to: 'cancelled' })
    expect(orderTransition({ status: 'held', heldFrom: 'placed' }, 'cancel')).toMatchObject({
      ok: true,
      to: 'cancelled',
    })
    expect(orderTransition('partially_shipped', 'cancel')).toMatchObject({ ok: false })
    expect(orderTransition({ status: 'held', heldFrom: 'partially_shipped' }, 'cancel')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('refund the rest instead'),
    })
    expect(orderTransition('shipped', 'cancel')).toMatchObject({ ok: false })
    expect(orderTransition('pending_payment', 'cancel')).toMatchObject({ ok: false })
  })

  it('refuses a release that does not know where the order was held from', () => {
    expect(orderTransition({ status: 'held', heldFrom: null }, 'release')).toMatchObject({ ok: false })
  })

  it('never leaves a final state, whatever events arrive in whatever order', () => {
    fc.assert(
      fc.property(anyStart, anyEvents, (start, events) => {
        const seen = run(events, { status: start, heldFrom: null }).map((p) => p.status)
        const firstFinal = seen.findIndex((s) => FINAL_ORDER_STATES.has(s))
        if (firstFinal >= 0) expect(new Set(seen.slice(firstFinal)).size).toBe(1)
      }),
    )
  })

  it('is held exactly when it remembers a state to return to, and that state can be held', () => {
    fc.assert(
      fc.property(anyStart, anyEvents, (start, events) => {
        for (const p of run(events, { status: start, heldFrom: null })) {
          if (p.status === 'held') expect(HOLDABLE).toContain(p.heldFrom)
          else expect(p.heldFrom).toBeNull()
        }
      }),
    )
  })

  it('never reaches cancelled after anything was shipped', () => {
    fc.assert(
      fc.property(anyStart, anyEvents, (start, events) => {
        const seen = run(events, { status: start, heldFrom: null }).map((p) => p.status)
        const shipped = seen.findIndex((s) => s === 'partially_shipped' || s === 'shipped')
        if (shipped >= 0) expect(seen.slice(shipped)).not.toContain('cancelled')
      }),
    )
  })

  it('answers every refusal with a sentence and never a target outside the statuses', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ORDER_STATUSES),
        fc.constantFrom<OrderStatus | null>(null, ...HOLDABLE),
        fc.constantFrom(...ORDER_EVENTS),
        (status, heldFrom, event) => {
          const t = orderTransition({ status, heldFrom }, event)
          if (t.ok) expect(ORDER_STATUSES).toContain(t.to)
          else expect(t.reason).toMatch(/^An order that is .+ cannot be .+\.$/)
        },
      ),
    )
  })

  it('declares a transition table and a customer word for every order status, all reachable', () => {
    expect(Object.keys(ORDER_TRANSITIONS).sort()).toEqual([...ORDER_STATUSES].sort())
    expect(Object.keys(CUSTOMER_STATUS).sort()).toEqual([...ORDER_STATUSES].sort())
    expect(() => checkOrderMachine()).not.toThrow()
  })

  it('maps the statuses to the customer words of the spec', () => {
    expect(CUSTOMER_STATUS).toMatchObject({
      placed: null,
      partially_shipped: null,
      held: 1,
      shipped: 2,
      cancelled: 3,
    })
  })

  it('rejects a machine with a target that does not exist, an unreachable state or a state without a customer word', () => {
    const broken = { ...ORDER_TRANSITIONS, placed: { ...ORDER_TRANSITIONS.placed, hold: 'frozen' } }
    expect(() => checkOrderMachine(broken as never)).toThrow(/unknown frozen/)
    const noShipping = {
      ...ORDER_TRANSITIONS,
      placed: { hold: 'held', cancel: 'cancelled' },
      partially_shipped: {},
    }
    expect(() => checkOrderMachine(noShipping as never)).toThrow(/unreachable partially_shipped, shipped/)
    const { held: _held, ...words } = CUSTOMER_STATUS
    expect(() => checkOrderMachine(ORDER_TRANSITIONS, words)).toThrow(/held has no customer status/)
  })
})
