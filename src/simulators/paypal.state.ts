/** What the PayPal simulator's parts share: its orders and payments, and the helpers its routes use. */
import { randomBytes } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

export const PREFIX = '/paypal'

export interface Order {
  id: string
  body: Record<string, unknown>
  status: 'CREATED' | 'APPROVED' | 'COMPLETED' | 'PAYER_ACTION_REQUIRED' | 'VOIDED'
  approvedAmount: number | null
  declineNext: boolean
  returnUrl: string | null
  cancelUrl: string | null
  payments: Record<string, unknown> | null
  payer: Record<string, unknown> | null
  shipping: Record<string, unknown> | null
}

export function toMinor(v: unknown): number {
  return Math.round(Number((v as { value?: string } | undefined)?.value ?? NaN) * 100)
}

/** A 422 answer for an idempotent request: the issue, and its description when PayPal gives one. */
export function unprocessable(issue: string, description?: string): { status: number; body: unknown } {
  return {
    status: 422,
    body: {
      name: 'UNPROCESSABLE_ENTITY',
      debug_id: randomBytes(6).toString('hex'),
      details: [description === undefined ? { issue } : { issue, description }],
    },
  }
}

/** A capture with the refunds made against it (by id); `entry` is the one inside its order. */
export interface CaptureEntry {
  orderId: string
  entry: Record<string, unknown>
  refunds: string[]
}

export interface PaypalContext {
  app: FastifyInstance
  /** The simulator's own origin (links, the certificate URL, the SDK's popup) */
  origin: () => string
  clientId: string
  orders: Map<string, Order>
  captures: Map<string, CaptureEntry>
  authorizations: Map<string, { orderId: string; entry: Record<string, unknown> }>
  refunds: Map<string, { captureId: string; body: Record<string, unknown> }>
  /** What a test control set for the next refund */
  next: { refundPending: boolean }
  /** A PayPal error answer (name, optional issue) */
  error(reply: FastifyReply, status: number, name: string, issue?: string, description?: string): FastifyReply
  /** Whether the request carries a token this simulator issued */
  authed(req: FastifyRequest): boolean
  /** Runs a handler under the configured faults */
  run(req: FastifyRequest, reply: FastifyReply, fn: () => unknown): Promise<unknown>
  /** An order as the Orders API shows it */
  view(o: Order): Record<string, unknown>
  /** Replays the stored answer for a PayPal-Request-Id, else runs `fn` and keeps its answer */
  idempotent(
    req: FastifyRequest,
    reply: FastifyReply,
    scope: string,
    fn: () => { status: number; body: unknown },
    keepRefusals?: boolean,
  ): FastifyReply
  /** Signs and delivers a webhook event */
  emit(type: string, resource: Record<string, unknown>): Promise<void>
  amountOf(o: Order): number
  currencyOf(o: Order): string | undefined
}
