// @vitest-environment happy-dom
/**
 * Issue 33 on the account's order page in the browser: the parcels sent, with a tracking link
 * only when the server gave one, and the refunds, done or pending.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AccountOrder } from '../../../shared/account.ts'
import { orderTotalLines } from '../../../shared/order-totals.ts'
import { makePage, mockMatchMedia, renderPage, type Rendered } from '../../test/render.tsx'
import Orders from '../../pages/Customer/Orders.tsx'

let rendered: Rendered | null = null
beforeEach(() => mockMatchMedia(() => false))
afterEach(() => {
  rendered?.unmount()
  rendered = null
})

function order(over: Partial<AccountOrder>): AccountOrder {
  return {
    id: 1,
    OrderNumber: 100123,
    orderDate: '2026-11-27T10:00:00Z',
    maginus_status: 2,
    statusText: 'COMPLETED/SHIPPED',
    total: 4523,
    itemCount: 1,
    currency: 'GBP',
    lines: [],
    shipments: [],
    refunds: [],
    goodsNet: 3174,
    shipping: 714,
    vat: 754,
    discount: 0,
    totals: orderTotalLines({ goodsNet: 3174, discount: 0, shippingNet: 595, tax: 754, total: 4523 }),
    deliveryName: 'Standard',
    poNumber: null,
    paymentMethod: 'sagepay',
    shippingAddress: {},
    billingAddress: {},
    contact: {},
    Notes: '',
    invoiceNumber: null,
    ...over,
  }
}

async function render(o: AccountOrder) {
  rendered = await renderPage(
    Orders as never,
    makePage('Customer/Orders', { greeting: 'Hello, Dana', orders: [o], order: o }),
  )
  return rendered.container
}

describe("the account's order page after the order", () => {
  it('lists each parcel with carrier and tracking number, linking only the one the server gave a link for', async () => {
    const page = await render(
      order({
        shipments: [
          {
            carrier: 'DPD',
            trackingNumber: 'DPD123',
            trackingUrl: 'https://track.example/DPD123',
            shippedAt: '2026-11-28T09:00:00Z',
            lines: [{ sku: 'FX-1', name: 'Fire exit sign', quantity: 2 }],
          },
          {
            carrier: 'Royal Mail',
            trackingNumber: 'RM9',
            trackingUrl: null,
            shippedAt: '2026-11-29T09:00:00Z',
            lines: [{ sku: 'FX-2', name: 'Exit arrow', quantity: 1 }],
          },
        ],
      }),
    )
    const parcels = [...page.querySelectorAll('[data-testid="order-shipment"]')]
    expect(parcels).toHaveLength(2)
    expect(parcels[0]!.textContent).toContain('by DPD, tracking number DPD123')
    expect(parcels[0]!.textContent).toContain('2 × Fire exit sign (FX-1)')
    expect(parcels[0]!.querySelector('a')?.getAttribute('href')).toBe('https://track.example/DPD123')
    expect(parcels[0]!.querySelector('a')?.getAttribute('rel')).toBe('noopener noreferrer')
    expect(parcels[1]!.querySelector('a')).toBeNull()
    expect(page.querySelector('[data-testid="order-status"]')?.textContent).toBe('COMPLETED/SHIPPED')
  })

  it('lists refunds with their amount and whether they are done or pending', async () => {
    const page = await render(
      order({
        refunds: [
          { amount: 1250, date: '2026-11-28T09:00:00Z', status: 'done' },
          { amount: 500, date: '2026-11-29T09:00:00Z', status: 'pending' },
        ],
      }),
    )
    const refunds = [...page.querySelectorAll('[data-testid="order-refund"]')].map((r) => r.textContent)
    expect(refunds[0]).toMatch(/^£12\.50 on .*: refunded$/)
    expect(refunds[1]).toMatch(/^£5\.00 on .*: refund pending/)
  })

  it('shows neither section for an order with no parcel and no refund', async () => {
    const page = await render(order({ maginus_status: null, statusText: 'BEING PROCESSED' }))
    expect(page.querySelector('[data-testid="order-shipments"]')).toBeNull()
    expect(page.querySelector('[data-testid="order-refunds"]')).toBeNull()
  })
})
