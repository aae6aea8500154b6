/**
 * The webhook tests' receiver and order: a local HTTP server that does what a consumer should
 * (verify with the `standardwebhooks` library, dedupe on webhook-id, answer 2xx) and can be told
 * to be down, gone, slow or to drop its answer; it records the order and overlap of what it got.
 */
import { randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import type { Db } from '../../src/server/db/client.ts'
import { orders } from '../../src/server/db/schema.ts'

type Mode = 'ok' | 'down' | 'drop' | 'gone'

/** A receiver as a consumer writes it: verify with the library, dedupe on webhook-id, answer 2xx. */
export class Receiver {
  server!: Server
  url = ''
  mode: Mode = 'ok'
  delayMs = 0
  secret = ''
  /** Every request, verified or not */
  requests: { id: string; type: string; orderNumber?: number; verified: boolean }[] = []
  /** Ids taken (2xx answered), in order, once each */
  accepted: string[] = []
  inFlight = 0
  maxInFlight = 0

  async start() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        this.inFlight++
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight)
        setTimeout(() => {
          this.inFlight--
          const body = Buffer.concat(chunks).toString('utf8')
          const id = String(req.headers['webhook-id'])
          let payload: { type: string; data: { orderNumber?: number } } | null = null
          try {
            payload = new Webhook(this.secret).verify(
              body,
              req.headers as Record<string, string>,
            ) as typeof payload
          } catch {
            this.requests.push({ id, type: '?', verified: false })
            return void res.writeHead(400).end('bad signature')
          }
          this.requests.push({
            id,
            type: payload!.type,
            orderNumber: payload!.data.orderNumber,
            verified: true,
          })
          if (this.mode === 'down') return void res.writeHead(503).end('down for maintenance')
          if (this.mode === 'gone') return void res.writeHead(410).end()
          if (!this.accepted.includes(id)) this.accepted.push(id)
          // The answer is lost: the receiver has the message, the sender never hears back.
          if (this.mode === 'drop') return void req.socket.destroy()
          res.writeHead(204).end()
        }, this.delayMs)
      })
    })
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`
  }

  reset() {
    Object.assign(this, { mode: 'ok', delayMs: 0, requests: [], accepted: [], inFlight: 0, maxInFlight: 0 })
  }

  stop() {
    return new Promise<void>((r) => this.server.close(() => r()))
  }
}

/** A placed order of the site (only what the outbox reads: its id, number and site). */
export async function insertOrder(db: Db, siteId: number): Promise<{ id: number; number: number }> {
  const address = {
    firstName: 'A',
    lastName: 'B',
    line1: '1 Road',
    city: 'Town',
    postcode: 'AB1 2CD',
    country: 'GB',
  }
  const [row] = await db
    .insert(orders)
    .values({
      siteId,
      cartRef: randomUUID(),
      status: 'placed',
      currency: 'GBP',
      paymentMethod: 'purchase_order',
      contact: { email: 'buyer@example.com' } as never,
      shippingAddress: address as never,
      billingAddress: address as never,
      goodsNet: 1000,
      shippingNet: 0,
      shippingVat: 0,
      vat: 200,
      discount: 0,
      totalIncVat: 1200,
    })
    .returning({ id: orders.id, number: orders.orderNumber })
  return row!
}
