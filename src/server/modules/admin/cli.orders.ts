/**
 * `npm run admin -- orders …`: the order lifecycle from a shell, for a shop with no ERP yet
 * (issue 33). Each write goes through the same lifecycle as the integration API, as the staff
 * actor `cli:<OS user>`; `--version <n>` refuses the change if the order moved on meanwhile.
 *
 *   orders list [--status <status>] [--limit <n>]         newest first
 *   orders show <number>                                  lines, shipments and the timeline
 *   orders ack <number> --erp-ref <ref>
 *   orders hold <number> --reason <text>
 *   orders release <number>
 *   orders ship <number> --ref <shipment ref> --carrier <name> --tracking <number>
 *                        [--url <https tracking URL>] [--line <lineId>:<qty>]...   (no --line: all that remains)
 *   orders cancel <number> --reason <text>
 *   orders refund <number> --reason <text> [--amount <minor units>] [--line <lineId>:<qty>]...
 *                        [--key <idempotency key>] [--quote]
 */
import { userInfo } from 'node:os'
import { parseArgs } from 'node:util'
import { asc, desc, eq } from 'drizzle-orm'
import { buildApp } from '../../app.ts'
import { loadConfig } from '../../config.ts'
import type { Db } from '../../db/client.ts'
import { DomainError } from '../../lib/domain-error.ts'
import type { Actor, OrderLifecycle } from '../orders/order-lifecycle.ts'
import { shippableLines } from '../orders/order-lifecycle.shipments.ts'
import { ORDER_STATUSES, orderEvents, orders, shipments, type OrderStatus } from '../orders/orders.tables.ts'

export class UsageError extends Error {}

export type OrdersCommand =
  | { kind: 'list'; status?: OrderStatus; limit: number }
  | { kind: 'show'; orderNumber: number }
  | { kind: 'ack'; orderNumber: number; erpRef: string; expectVersion?: number }
  | { kind: 'hold'; orderNumber: number; reason: string; expectVersion?: number }
  | { kind: 'release'; orderNumber: number; expectVersion?: number }
  | {
      kind: 'ship'
      orderNumber: number
      shipmentRef: string
      carrier: string
      trackingNumber: string
      trackingUrl?: string
      lines?: { lineId: number; quantity: number }[]
      expectVersion?: number
    }
  | { kind: 'cancel'; orderNumber: number; reason: string; expectVersion?: number }
  | {
      kind: 'refund'
      orderNumber: number
      reason: string
      amountMinor?: number
      lines?: { lineId: number; quantity: number }[]
      idempotencyKey?: string
      quote: boolean
      expectVersion?: number
    }

const USAGE =
  'usage: npm run admin -- orders list [--status s] [--limit n] | show <n> | ack <n> --erp-ref r | hold <n> --reason r | release <n> | ship <n> --ref r --carrier c --tracking t [--url u] [--line id:qty]... | cancel <n> --reason r | refund <n> --reason r [--amount minor] [--line id:qty]... [--key k] [--quote]; writes take --version v'

function whole(value: string | undefined, what: string): number {
  const n = Number(value)
  if (value === undefined || !/^\d+$/.test(value) || !Number.isSafeInteger(n) || n <= 0)
    throw new UsageError(`${what} must be a positive whole number`)
  return n
}

function required(value: string | undefined, option: string): string {
  if (!value?.trim()) throw new UsageError(`--${option} is required`)
  return value
}

function linesOf(values: string[] | undefined) {
  if (!values?.length) return undefined
  return values.map((v) => {
    const m = /^(\d+):(\d+)$/.exec(v)
    if (!m) throw new UsageError(`--line takes <lineId>:<quantity>, not '${v}'`)
    return { lineId: whole(m[1], 'a line id'), quantity: whole(m[2], 'a quantity') }
  })
}

/** The command the arguments (after `orders`) ask for; a UsageError says what is wrong. */
export function parseOrdersArgs(argv: string[]): OrdersCommand {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        status: { type: 'string' },
        limit: { type: 'string' },
        'erp-ref': { type: 'string' },
        reason: { type: 'string' },
        ref: { type: 'string' },
        carrier: { type: 'string' },
        tracking: { type: 'string' },
        url: { type: 'string' },
        line: { type: 'string', multiple: true },
        amount: { type: 'string' },
        key: { type: 'string' },
        quote: { type: 'boolean' },
        version: { type: 'string' },
      },
    })
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err))
  }
  const { positionals, values: v } = parsed
  const [command, number] = positionals
  if (command === 'list') {
    if (v.status !== undefined && !(ORDER_STATUSES as readonly string[]).includes(v.status))
      throw new UsageError(`--status must be one of ${ORDER_STATUSES.join(', ')}`)
    return {
      kind: 'list',
      ...(v.status ? { status: v.status as OrderStatus } : {}),
      limit: v.limit === undefined ? 50 : Math.min(whole(v.limit, '--limit'), 1000),
    }
  }
  if (!command) throw new UsageError('a command is required')
  const orderNumber = whole(number, 'the order number')
  const version = v.version === undefined ? {} : { expectVersion: whole(v.version, '--version') }
  switch (command) {
    case 'show':
      return { kind: 'show', orderNumber }
    case 'ack':
      return { kind: 'ack', orderNumber, erpRef: required(v['erp-ref'], 'erp-ref'), ...version }
    case 'hold':
      return { kind: 'hold', orderNumber, reason: required(v.reason, 'reason'), ...version }
    case 'release':
      return { kind: 'release', orderNumber, ...version }
    case 'cancel':
      return { kind: 'cancel', orderNumber, reason: required(v.reason, 'reason'), ...version }
    case 'ship': {
      const lines = linesOf(v.line)
      return {
        kind: 'ship',
        orderNumber,
        shipmentRef: required(v.ref, 'ref'),
        carrier: required(v.carrier, 'carrier'),
        trackingNumber: required(v.tracking, 'tracking'),
        ...(v.url ? { trackingUrl: v.url } : {}),
        ...(lines ? { lines } : {}),
        ...version,
      }
    }
    case 'refund': {
      const lines = linesOf(v.line)
      return {
        kind: 'refund',
        orderNumber,
        reason: v.quote ? (v.reason ?? '') : required(v.reason, 'reason'),
        ...(v.amount !== undefined ? { amountMinor: whole(v.amount, '--amount (minor units)') } : {}),
        ...(lines ? { lines } : {}),
        ...(v.key ? { idempotencyKey: v.key } : {}),
        quote: v.quote ?? false,
        ...version,
      }
    }
    default:
      throw new UsageError(`unknown orders command '${command}'`)
  }
}

export interface OrdersCliDeps {
  db: Db
  lifecycle: OrderLifecycle
  actor: Actor
  out: (line: string) => void
}

/** Runs one command, writing what happened as lines of text. DomainErrors are the caller's to print. */
export async function executeOrdersCommand(deps: OrdersCliDeps, cmd: OrdersCommand): Promise<void> {
  const { db, lifecycle, actor, out } = deps
  const done = (s: {
    number: number
    status: string
    version: number
    paymentStatus: string
    fulfilmentStatus: string
  }) =>
    out(
      `order ${s.number}: ${s.status}, payment ${s.paymentStatus}, ${s.fulfilmentStatus}, version ${s.version}`,
    )
  switch (cmd.kind) {
    case 'list': {
      const rows = await db
        .select()
        .from(orders)
        .where(cmd.status ? eq(orders.status, cmd.status) : undefined)
        .orderBy(desc(orders.orderDate), desc(orders.id))
        .limit(cmd.limit)
      for (const r of rows)
        out(
          `${r.orderNumber}\t${r.orderDate.toISOString().slice(0, 10)}\t${r.status}\t${r.paymentStatus}\t${r.fulfilmentStatus}\tv${r.version}\t${r.totalIncVat} ${r.currency}`,
        )
      if (rows.length === 0) out('no orders')
      return
    }
    case 'show': {
      const [order] = await db.select().from(orders).where(eq(orders.orderNumber, cmd.orderNumber))
      if (!order) throw new DomainError('order_not_found', `There is no order ${cmd.orderNumber}.`)
      out(
        `order ${order.orderNumber} (${order.contact.email}): ${order.status}, payment ${order.paymentStatus}, ${order.fulfilmentStatus}, version ${order.version}, total ${order.totalIncVat} ${order.currency}, refunded ${order.refundedMinor}`,
      )
      if (order.holdReason) out(`held: ${order.holdReason}`)
      if (order.erpRef) out(`ERP reference: ${order.erpRef}`)
      out('lines (id, sku, ordered, shipped):')
      for (const l of await shippableLines(db, order.id))
        out(`  ${l.item.id}\t${l.item.sku}\t${l.ordered}\t${l.shipped}`)
      const parcels = await db
        .select()
        .from(shipments)
        .where(eq(shipments.orderId, order.id))
        .orderBy(asc(shipments.id))
      for (const p of parcels)
        out(
          `shipment ${p.shipmentRef}: ${p.carrier} ${p.trackingNumber ?? '(no tracking number)'} on ${p.shippedAt.toISOString()}`,
        )
      out('timeline:')
      const rows = await db
        .select()
        .from(orderEvents)
        .where(eq(orderEvents.orderId, order.id))
        .orderBy(asc(orderEvents.id))
      for (const e of rows)
        out(
          `  ${e.createdAt.toISOString()}\t${e.type}\t${e.actorKind}:${e.actorName}\t${JSON.stringify(e.data)}`,
        )
      return
    }
    case 'ack':
      return done(await lifecycle.acknowledgeOrder(db, { ...cmd, actor }))
    case 'hold':
      return done(await lifecycle.holdOrder(db, { ...cmd, actor }))
    case 'release':
      return done(await lifecycle.releaseOrder(db, { ...cmd, actor }))
    case 'cancel':
      return done(await lifecycle.cancelOrder(db, { ...cmd, actor }))
    case 'ship':
      return done(await lifecycle.shipOrder(db, { ...cmd, actor }))
    case 'refund': {
      const { quote: onlyQuote, idempotencyKey, ...rest } = cmd
      const q = await lifecycle.quoteRefund(db, rest)
      out(`refundable ${q.refundableMinor} ${q.currency}; this refund ${q.amountMinor} ${q.currency}`)
      if (onlyQuote) return
      // Without --key, one key per order and amount: the same command run twice refunds once.
      const key = idempotencyKey ?? `cli:${cmd.orderNumber}:${q.amountMinor}:${q.refundableMinor}`
      return done(await lifecycle.refundOrder(db, { ...rest, idempotencyKey: key, actor }))
    }
  }
}

/** `npm run admin -- orders …`: the exit code (0 done, 1 refused, 2 usage). */
export async function runOrdersCli(argv: string[]): Promise<number> {
  let cmd: OrdersCommand
  try {
    cmd = parseOrdersArgs(argv)
  } catch (err) {
    if (!(err instanceof UsageError)) throw err
    console.error(`${err.message}\n${USAGE}`)
    return 2
  }
  // The shop itself, without its background work: the same lifecycle, refund ledger and
  // webhooks outbox as the integration API (a change's e-mails and webhooks are queued in its
  // transaction; the running instances send them).
  const app = await buildApp(loadConfig(), { startJobs: false })
  try {
    await app.ready()
    const lifecycle = app.orderLifecycle
    const actor: Actor = { kind: 'staff', name: `cli:${userInfo().username}` }
    await executeOrdersCommand({ db: app.db, lifecycle, actor, out: (l) => console.log(l) }, cmd)
    return 0
  } catch (err) {
    if (!(err instanceof DomainError)) throw err
    console.error(err.message)
    for (const [field, messages] of Object.entries(err.fields))
      console.error(`  ${field}: ${messages.join(' ')}`)
    return 1
  } finally {
    await app.close()
  }
}
