import { describe, expect, it } from 'vitest'
import type { OrderData } from '../../../shared/checkout.ts'
import type { Site } from '../sites/sites.service.ts'
import { siteSettingsSchema } from '../sites/sites.settings.ts'
import { acknowledgementMail, CONFIRM_OWNER_TEXT, notificationMail } from './orders.mail.ts'
import { presentOrder } from './orders.presenter.ts'
import type { OrderItemRow, OrderRow } from './orders.tables.ts'

function site(over: Partial<Site> = {}, settings: Record<string, unknown> = {}): Site {
  return {
    id: 1,
    host: 'localhost',
    code: 'harbour',
    name: 'Harbour Safety Supplies',
    currency: 'GBP',
    logo: null,
    settings: { ...siteSettingsSchema.parse(settings), headerMessage: null },
    ...over,
  } as Site
}

const address = {
  company: '',
  address1: '5 Harbour Way',
  address2: '',
  town: 'Plymouth',
  county: '',
  postcode: 'PL1 2AA',
  country: 'GB',
}

/** The order: goods £31.74 ex VAT, delivery £5.95 + £1.19 VAT, VAT £7.54, £45.23 charged. */
function order(over: Partial<OrderRow> = {}, items: Partial<OrderItemRow>[] = [{}]): OrderData {
  const row = {
    id: 7,
    orderNumber: 100123,
    orderDate: new Date('2026-11-27T10:00:00Z'),
    orderSource: 'Desktop',
    notes: '',
    status: 'placed',
    maginusStatus: null,
    currency: 'GBP',
    contact: { first_name: 'Ann', last_name: 'Buyer', email: 'ann@example.com', phone: '01632', company: '' },
    shippingAddress: address,
    billingAddress: address,
    vatNumber: null,
    goodsNet: 3174,
    shippingNet: 595,
    shippingVat: 119,
    vat: 754,
    discount: 0,
    customisationCharge: 0,
    totalIncVat: 4523,
    promotionCodes: [],
    deliveryName: 'Standard',
    ...over,
  } as unknown as OrderRow
  const lines = items.map(
    (i, n) =>
      ({
        id: n + 1,
        cartItemId: n + 1,
        parentCartItemId: null,
        sku: `SKU${n}`,
        name: `Sign ${n}`,
        product: {},
        quantity: 1,
        unitPrice: 3174,
        lineTotal: 3174,
        lineTotalExDiscountExTax: 3174,
        vatRate: 20,
        vat: 635,
        isFreeGift: false,
        builderId: null,
        sequenceId: null,
        options: [],
        ...i,
      }) as OrderItemRow,
  )
  return presentOrder(row, lines, [])
}

function totalsOf(text: string): string[] {
  return text.split('\n').filter((l) => /^(Goods|Discount|Delivery|VAT|Sales tax|Total)\b.*: -?[£$]/.test(l))
}

describe('order e-mails', () => {
  it('show every total ex VAT, then VAT, then a total the lines add up to', () => {
    const ack = acknowledgementMail(site(), order())
    expect(totalsOf(ack.text)).toEqual([
      'Goods (ex VAT): £31.74',
      'Delivery (Standard, ex VAT): £5.95',
      'VAT: £7.54',
      'Total: £45.23',
    ])
    expect(ack.html).toContain(
      '<th style="text-align:right">Delivery (Standard, ex VAT)</th><td style="text-align:right">£5.95</td>',
    )
    const note = notificationMail(site(), order(), 'sales@example.com')
    expect(totalsOf(note.text)).toEqual(totalsOf(ack.text))
  })

  it('show a discount as its own ex-VAT line after goods before discount, and the items before discount', () => {
    // £40.00 of goods (£8.00 of it customisation) less £8.26: £31.74 after discount.
    const o = order({ goodsNet: 3174, discount: 826, customisationCharge: 800 }, [
      { lineTotal: 3174, lineTotalExDiscountExTax: 4000 },
    ])
    const ack = acknowledgementMail(site(), o)
    expect(totalsOf(ack.text)).toEqual([
      'Goods (ex VAT): £40.00',
      'Discount (ex VAT): -£8.26',
      'Delivery (Standard, ex VAT): £5.95',
      'VAT: £7.54',
      'Total: £45.23',
    ])
    expect(ack.text).toContain('1 x Sign 0 (SKU0): £40.00')
  })

  it('date the order the site’s way: 11/27/2026 on a US site, 27/11/2026 on a UK one', () => {
    const us = site(
      { code: 'northgate', name: 'Northgate Workplace', currency: 'USD' },
      { locale: 'en-US', tax: { name: 'Sales tax', rate: 0 } },
    )
    const usOrder = order({ currency: 'USD', vat: 0, shippingVat: 0, totalIncVat: 3769 })
    for (const m of [acknowledgementMail(us, usOrder), notificationMail(us, usOrder, 'ops@example.com')]) {
      expect(m.text).toContain('Order date: 11/27/2026')
      expect(m.text).not.toContain('2026-11-27')
      // No tax charged there: no tax line, no '(ex …)'.
      expect(totalsOf(m.text)).toEqual(['Goods: $31.74', 'Delivery (Standard): $5.95', 'Total: $37.69'])
    }
    expect(acknowledgementMail(site(), order()).text).toContain('Order date: 27/11/2026')
  })

  it('name an invoicing entity that ends in a full stop without doubling it', () => {
    const inc = site({}, { invoicingEntity: 'Northgate Workplace Inc.' })
    const text = acknowledgementMail(inc, order()).text
    expect(text).toContain('Your invoice will come from Northgate Workplace Inc.')
    expect(text).not.toContain('Inc..')
    expect(acknowledgementMail(site({}, { invoicingEntity: 'Harbour Ltd' }), order()).text).toContain(
      'Your invoice will come from Harbour Ltd.',
    )
  })

  it('carry the account-owner confirmation link when placement gives one, and nothing about it otherwise', () => {
    const url = 'https://shop.example/customer/orders/100123/confirm?sig=abc'
    const withLink = acknowledgementMail(site(), order(), 'https://shop.example', { confirmOwnerUrl: url })
    expect(withLink.text).toContain(`${CONFIRM_OWNER_TEXT}\n${url}`)
    expect(withLink.html).toContain(`<a href="${url}">`)
    const without = acknowledgementMail(site(), order(), 'https://shop.example')
    expect(without.text).not.toContain(CONFIRM_OWNER_TEXT)
    expect(without.html).not.toContain('/confirm?')
  })
})
