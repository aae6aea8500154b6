/**
 * The order state machine, pure (no clock, no database), beside the payment attempt's
 * (payments/attempt.state.ts). ADR 0200. An order is written `placed` when its payment is
 * confirmed for its amount, or `pending_payment` when the provider settles it later; after that
 * the lifecycle (order-lifecycle.ts) moves it by these events only:
 *
 *   pending_payment ─┬─ payment_confirmed ─> placed
 *                    └─ payment_failed ────> payment_failed (final)
 *   placed ──────────┬─ hold ──────> held ─── release ──> (held_from: placed | partially_shipped)
 *                    ├─ ship_part ─> partially_shipped ─┬─ ship_part (another parcel)
 *                    ├─ ship_all ──> shipped (final)    ├─ ship_all ──> shipped
 *                    └─ cancel ────> cancelled (final)  └─ hold ──────> held
 *   held ────────────── cancel ────> cancelled, only when nothing was shipped (held_from placed)
 *
 * Refunds never change the status (they change the payment status). `held` remembers where it
 * came from; a release returns there. A shipment is refused while held: release first. A cancel
 * is refused once anything was shipped: the rest is refunded instead (ADR 0200).
 *
 * `CUSTOMER_STATUS` derives the customer's status word (`maginus_status`, spec §4) from the
 * status; `checkOrderMachine()` proves at start-up (and in the unit test) that every target
 * exists, every state is reachable and every state has a customer word.
 */
import { ORDER_STATUSES, type OrderStatus } from './orders.tables.ts'

export const ORDER_EVENTS = [
  'payment_confirmed',
  'payment_failed',
  'hold',
  'release',
  'ship_part',
  'ship_all',
  'cancel',
] as const
export type OrderEvent = (typeof ORDER_EVENTS)[number]

/** A release's target: the state the order was held from. */
export const HELD_FROM = 'held_from' as const
type Target = OrderStatus | typeof HELD_FROM

export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, Readonly<Partial<Record<OrderEvent, Target>>>>> =
  {
    pending_payment: { payment_confirmed: 'placed', payment_failed: 'payment_failed' },
    payment_failed: {},
    placed: { hold: 'held', ship_part: 'partially_shipped', ship_all: 'shipped', cancel: 'cancelled' },
    held: { release: HELD_FROM, cancel: 'cancelled' },
    partially_shipped: { hold: 'held', ship_part: 'partially_shipped', ship_all: 'shipped' },
    shipped: {},
    cancelled: {},
  }

/** The states an order may be held from (and so released to). */
export const HOLDABLE: readonly OrderStatus[] = ORDER_STATUSES.filter((s) => ORDER_TRANSITIONS[s].hold)

/** The states an order is written in when it is placed. */
export const INITIAL_ORDER_STATES: readonly OrderStatus[] = ['pending_payment', 'placed']

/** The states of an order that was placed: what the customer's account lists. */
export const ACCOUNT_STATES: readonly OrderStatus[] = [
  'placed',
  'held',
  'partially_shipped',
  'shipped',
  'cancelled',
]

/** The states an invoice can be made in (placed and not cancelled). */
export const INVOICEABLE_STATES: readonly OrderStatus[] = ['placed', 'held', 'partially_shipped', 'shipped']

/** The customer's status word by status (maginus_status: null BEING PROCESSED, 1 held, 2 shipped, 3 cancelled). */
export const CUSTOMER_STATUS: Readonly<Record<OrderStatus, 1 | 2 | 3 | null>> = {
  pending_payment: null,
  payment_failed: 3,
  placed: null,
  held: 1,
  partially_shipped: null,
  shipped: 2,
  cancelled: 3,
}

/** How a status reads in a refusal: 'An order that is <words> cannot …'. */
const STATUS_WORDS: Readonly<Record<OrderStatus, string>> = {
  pending_payment: 'waiting for its payment',
  payment_failed: 'not paid (its payment failed)',
  placed: 'placed',
  held: 'held',
  partially_shipped: 'partially shipped',
  shipped: 'shipped',
  cancelled: 'cancelled',
}

const EVENT_WORDS: Readonly<Record<OrderEvent, string>> = {
  payment_confirmed: 'confirmed as paid',
  payment_failed: 'marked as unpaid',
  hold: 'held',
  release: 'released',
  ship_part: 'shipped',
  ship_all: 'shipped',
  cancel: 'cancelled',
}

export type OrderTransition =
  | { ok: true; from: OrderStatus; to: OrderStatus; heldFrom: OrderStatus | null }
  | { ok: false; reason: string }

/** What the order is now, beyond its status: where a held order came from. */
export interface OrderPosition {
  status: OrderStatus
  heldFrom?: OrderStatus | null
}

function refuse(from: OrderStatus, event: OrderEvent, why = ''): OrderTransition {
  return {
    ok: false,
    reason: `An order that is ${STATUS_WORDS[from]} cannot be ${EVENT_WORDS[event]}${why}.`,
  }
}

/**
 * The order's state after `event`, and what `held_from` becomes (set by hold, cleared by
 * release and cancel), or why the event is refused (a sentence for the caller).
 */
export function orderTransition(position: OrderStatus | OrderPosition, event: OrderEvent): OrderTransition {
  const { status: from, heldFrom = null } = typeof position === 'string' ? { status: position } : position
  const target = ORDER_TRANSITIONS[from][event]
  if (!target) {
    if (from === 'held' && (event === 'ship_part' || event === 'ship_all'))
      return refuse(from, event, ': release it first')
    if (from === 'partially_shipped' && event === 'cancel')
      return refuse(from, event, ': part of it was sent, refund the rest instead')
    return refuse(from, event)
  }
  if (from === 'held' && event === 'cancel' && heldFrom !== 'placed')
    return refuse(from, event, ': part of it was sent, refund the rest instead')
  if (target === HELD_FROM) {
    if (!heldFrom || !HOLDABLE.includes(heldFrom))
      return refuse(from, event, ': it does not say where it was held from')
    return { ok: true, from, to: heldFrom, heldFrom: null }
  }
  return { ok: true, from, to: target, heldFrom: target === 'held' ? from : null }
}

/** States no event leaves. */
export const FINAL_ORDER_STATES: ReadonlySet<OrderStatus> = new Set(
  ORDER_STATUSES.filter((s) => Object.keys(ORDER_TRANSITIONS[s]).length === 0),
)

/**
 * The machine's own proof, run at start-up (orders.plugin.ts) and in its unit test, as Vendure
 * checks its merged process at boot: every target exists, every state is reachable from the
 * states an order is placed in, and every state has a customer status word. Throws on the first
 * fault, naming it.
 */
export function checkOrderMachine(
  transitions: typeof ORDER_TRANSITIONS = ORDER_TRANSITIONS,
  customer: Readonly<Record<string, unknown>> = CUSTOMER_STATUS,
): void {
  const states = new Set<string>(ORDER_STATUSES)
  for (const [from, events] of Object.entries(transitions)) {
    if (!states.has(from)) throw new Error(`order machine: unknown state ${from}`)
    for (const [event, to] of Object.entries(events))
      if (to !== HELD_FROM && !states.has(to!))
        throw new Error(`order machine: ${from} --${event}--> unknown ${to}`)
  }
  for (const s of ORDER_STATUSES) {
    if (!(s in transitions)) throw new Error(`order machine: no transitions declared for ${s}`)
    if (!(s in customer)) throw new Error(`order machine: ${s} has no customer status`)
  }
  const seen = new Set<OrderStatus>(INITIAL_ORDER_STATES)
  const queue = [...INITIAL_ORDER_STATES]
  while (queue.length > 0) {
    const from = queue.shift()!
    const holdable = ORDER_STATUSES.filter((s) => transitions[s]?.hold)
    for (const to of Object.values(transitions[from] ?? {})) {
      // A release goes back to any state an order can be held from.
      for (const next of to === HELD_FROM ? holdable : [to!])
        if (!seen.has(next)) {
          seen.add(next)
          queue.push(next)
        }
    }
  }
  const unreachable = ORDER_STATUSES.filter((s) => !seen.has(s))
  if (unreachable.length > 0) throw new Error(`order machine: unreachable ${unreachable.join(', ')}`)
}
