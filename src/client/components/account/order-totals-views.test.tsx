// @vitest-environment happy-dom
/**
 * Issue 29 defect 11 where the browser shows an order's totals: the account's order page, the
 * invoice page and the printable acknowledgement on Order Complete show lines that add up to the
 * total (the issue: 'Goods (ex VAT) £31.74 / Delivery £7.14 / VAT £7.54 / Total £45.23').
 */
import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AccountOrder, InvoiceView } from '../../../shared/account.ts'
import type { OrderData } from '../../../shared/checkout.ts'
import { orderTotalLines } from '../../../shared/order-totals.ts'
import { makePage, mockMatchMedia, renderPage, type Rendered } from '../../test/render.tsx'
import CheckoutComplete from '../../pages/CheckoutComplete.tsx'
import Invoices from '../../pages/Customer/Invoices.tsx'
import Orders from '../../pages/Customer/Orders.tsx'

let rendered: Rendered | null = null
beforeEach(() => mockMatchMedia(() => false))
afterEach(() => {
  rendered?.unmount()
  rendered = null
  vi.restoreAllMocks()
})

const issue = { goodsNet: 3174, discount: 0, shippingNet: 595, tax: 754, total: 4523 }

/** Label and amount pairs of a definition list's rows */
function rows(dl: Element): string[] {
  const dts = [...dl.querySelectorAll('dt')]
  return dts.map((dt) => `${dt.textContent} ${dt.nextElementSibling?.textContent}`)
}

describe('order totals in the browser', () => {
  it("add up on the account's order page: delivery ex VAT beside goods ex VAT", async () => {
    const order: AccountOrder = {
      id: 1,
      OrderNumber: 100123,
      orderDate: '2026-11-27T10:00:00Z',
      maginus_status: null,
      statusText: 'BEING PROCESSED',
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
      totals: orderTotalLines(issue, { deliveryName: 'Standard' }),
      deliveryName: 'Standard',
      poNumber: null,
      paymentMethod: 'purchase_order',
      shippingAddress: {},
      billingAddress: {},
      contact: {},
      Notes: '',
      invoiceNumber: null,
    }
    rendered = await renderPage(
      Orders as never,
      makePage('Customer/Orders', { greeting: 'Hello, Dana', orders: [order], order }),
    )
    const dl = [...rendered.container.querySelectorAll('dl')].find((d) => d.textContent?.includes('Total'))!
    expect(rows(dl)).toEqual([
      'Goods (ex VAT) £31.74',
      'Delivery (Standard, ex VAT) £5.95',
      'VAT £7.54',
      'Total £45.23',
    ])
    expect(rendered.container.textContent).not.toContain('£7.14')
  })

  it('add up on the invoice page', async () => {
    const invoice: InvoiceView = {
      Invoice_Number: 700001,
      Invoice_Date: '2026-11-27T10:00:00Z',
      Invoice_Amount: 4523,
      OrderNumber: 100123,
      currency: 'GBP',
      lines: [],
      goodsNet: 3174,
      shippingNet: 595,
      vat: 754,
      totals: orderTotalLines(issue),
      billingAddress: {},
      pdfUrl: '/customer/invoices/700001/pdf',
    }
    rendered = await renderPage(
      Invoices as never,
      makePage('Customer/Invoices', { greeting: 'Hello, Dana', invoices: [invoice], invoice }),
    )
    const dl = [...rendered.container.querySelectorAll('dl')].find((d) => d.textContent?.includes('Total'))!
    expect(rows(dl)).toEqual([
      'Goods (ex VAT) £31.74',
      'Delivery (ex VAT) £5.95',
      'VAT £7.54',
      'Total £45.23',
    ])
  })

  it('add up on the printable order acknowledgement, a discount on a line of its own', async () => {
    window.print = () => {}
    // The page's own calls (the basket refresh) answer here, not on the network.
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{}', { status: 200 }))
    const order = {
      id: 1,
      OrderNumber: 100123,
      orderDate: '2026-11-27T10:00:00Z',
      OrderSource: 'Desktop',
      Notes: '',
      status: 'placed',
      maginus_status: null,
      currency: 'GBP',
      contactDetails: {
        first_name: 'Ann',
        last_name: 'Buyer',
        email: 'ann@example.com',
        phone: '',
        company: '',
      },
      shippingAddress: { address1: '5 Harbour Way', town: 'Plymouth', postcode: 'PL1 2AA' },
      billingAddress: {},
      VATNumber: null,
      transactions: [],
      items: [
        {
          sku: 'S1',
          name: 'Sign',
          quantity: 1,
          line_item_cost: 4000,
          line_total: 3174,
          line_total_ex_discount_ex_tax: 4000,
          line_vat: 635,
        },
      ],
      // Goods £40.00 less £8.26 = £31.74 ex VAT; delivery £7.14 inc VAT; VAT £7.54; £45.23 paid.
      totalCost: 3174,
      totalCostIncTax: 3174 + 635,
      totalShippingCost: 714,
      totalDiscountCost: 826,
      totalTax: 754,
      CustomisationCharge: 0,
      promotionCodes: [],
      deliveryName: 'Standard',
    } as unknown as OrderData
    rendered = await renderPage(
      CheckoutComplete as never,
      makePage('CheckoutComplete', {
        order,
        invoicingEntity: 'Harbour',
        sisterSites: [],
        deliveryWarnings: [],
        estimatedDelivery: '2026-11-28',
        showOptOut: false,
        forceLogout: false,
      }),
    )
    const button = [...rendered.container.querySelectorAll('button')].find((b) =>
      b.textContent?.includes('Print Order Acknowledgement'),
    )!
    await act(async () => {
      button.click()
      await new Promise((r) => setTimeout(r, 0))
    })
    const modal = document.querySelector('[data-testid="print-modal"]')!
    const text = [...modal.querySelectorAll('p')].map((p) => p.textContent)
    expect(text.filter((l) => /: -?£/.test(l ?? ''))).toEqual([
      'Goods (ex VAT): £40.00',
      'Discount (ex VAT): -£8.26',
      'Delivery (Standard, ex VAT): £5.95',
      'VAT: £7.54',
      'Total: £45.23',
    ])
    expect(modal.textContent).toContain('£40.00')
  })
})
