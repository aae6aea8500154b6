/**
 * The ERP's side of the back-office API for browser tests (ADR 0220): the token the web server
 * command made (helpers/admin-token.ts), the orders feed, and writes with an Idempotency-Key and
 * If-Match that can be sent again with the same key.
 */
import { readFileSync } from 'node:fs'
import { expect, type APIRequestContext } from '@playwright/test'
import { ADMIN_TOKEN_FILE } from './paths.ts'

const API = '/api/admin/v1'

export interface Answer {
  status: number
  body: Record<string, unknown>
  etag: string | undefined
  /** The stored answer to an earlier request with the same Idempotency-Key */
  replayed: boolean
}

export interface Write {
  method: 'POST' | 'PUT' | 'DELETE'
  path: string
  body?: unknown
  key: string
  ifMatch?: string
}

export class Erp {
  private readonly token = readFileSync(ADMIN_TOKEN_FILE, 'utf8').trim()

  constructor(private readonly request: APIRequestContext) {}

  private headers(extra: Record<string, string> = {}) {
    return { authorization: `Bearer ${this.token}`, ...extra }
  }

  async get(path: string): Promise<Answer> {
    const res = await this.request.get(`${API}${path}`, { headers: this.headers() })
    return {
      status: res.status(),
      body: (await res.json()) as Record<string, unknown>,
      etag: res.headers().etag,
      replayed: res.headers()['idempotent-replayed'] === 'true',
    }
  }

  /** One order as the ERP reads it (its ETag is the version for If-Match). */
  async order(number: number) {
    const answer = await this.get(`/orders/${number}`)
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    return { ...(answer.body as unknown as OrderDetail), etag: answer.etag! }
  }

  /** Every order the feed serves after `cursor`, page by page, and the cursor to resume from. */
  async feed(cursor: string | null): Promise<{ numbers: number[]; cursor: string | null }> {
    const numbers: number[] = []
    for (;;) {
      const answer = await this.get(`/orders?limit=200${cursor ? `&after=${cursor}` : ''}`)
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      const page = answer.body as {
        orders: { number: number }[]
        next_cursor: string | null
        has_more: boolean
      }
      numbers.push(...page.orders.map((o) => o.number))
      cursor = page.next_cursor ?? cursor
      if (!page.has_more) return { numbers, cursor }
    }
  }

  async write(w: Write): Promise<Answer> {
    const res = await this.request.fetch(`${API}${w.path}`, {
      method: w.method,
      headers: this.headers({
        'idempotency-key': w.key,
        ...(w.ifMatch ? { 'if-match': w.ifMatch } : {}),
      }),
      ...(w.body === undefined ? {} : { data: w.body }),
    })
    const text = await res.text()
    return {
      status: res.status(),
      body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
      etag: res.headers().etag,
      replayed: res.headers()['idempotent-replayed'] === 'true',
    }
  }
}

export interface OrderDetail {
  number: number
  status: string
  version: number
  paymentStatus: string
  fulfilmentStatus: string
  maginusStatus: number | null
  erpRef: string | null
  paymentMethod: string
  contact: { email: string }
  totals: { totalIncVatMinor: number; refundedMinor: number }
  lines: { lineId: number; sku: string; quantity: number }[]
  shipments: { shipmentRef: string; trackingNumber: string }[]
  invoice: { invoiceNumber: number; amountMinor: number } | null
}
