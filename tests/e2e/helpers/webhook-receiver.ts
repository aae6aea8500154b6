/**
 * A webhook consumer for browser tests: a local HTTP server that checks every delivery with the
 * `standardwebhooks` library (not the shop's code), keeps what it got in arrival order, and
 * answers 204 to a verified message, 400 to anything else.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

export interface Received {
  id: string
  verified: boolean
  type: string
  orderNumber: number | null
  version: number | null
}

export class WebhookReceiver {
  private server: Server | null = null
  /** Set once the endpoint is registered (the secret is in the registration's answer only). */
  secret = ''
  readonly received: Received[] = []

  /** Listens on a free port of 127.0.0.1; resolves with the URL to register. */
  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const id = String(req.headers['webhook-id'] ?? '')
        try {
          const payload = new Webhook(this.secret).verify(
            Buffer.concat(chunks).toString('utf8'),
            req.headers as Record<string, string>,
          ) as { type: string; data: { orderNumber?: number; version?: number } }
          this.received.push({
            id,
            verified: true,
            type: payload.type,
            orderNumber: payload.data.orderNumber ?? null,
            version: payload.data.version ?? null,
          })
          res.writeHead(204).end()
        } catch {
          this.received.push({ id, verified: false, type: '?', orderNumber: null, version: null })
          res.writeHead(400).end('bad signature')
        }
      })
    })
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`
  }

  /** The verified messages about one order, in the order they arrived. */
  about(orderNumber: number): Received[] {
    return this.received.filter((r) => r.verified && r.orderNumber === orderNumber)
  }

  async stop(): Promise<void> {
    const server = this.server
    if (!server) return
    this.server = null
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
}
