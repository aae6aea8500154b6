import { describe, expect, it } from 'vitest'
import type { OrderData } from '../../../shared/checkout.ts'
import type { Site } from '../sites/sites.service.ts'
import { siteSettingsSchema } from '../sites/sites.settings.ts'
import { cancelledMail, heldMail, refundedMail, shippedMail, trackingLink } from './orders.lifecycle-mail.ts'

const site = {
  id: 1,
  host: 'localhost',
  code: 'harbour',
  name: 'Harbour Safety Supplies',
  currency: 'GBP',
  logo: null,
  settings: { ...siteSettingsSchema.parse({ contactNumber: '0800 000 000' }), headerMessage: null },
} as unknown as Site

const order = {
  OrderNumber: 100123,
  currency: 'GBP',
  contactDetails: {
    first_name: 'Dana',
    last_name: '<Scully>',
    email: 'dana@example.com',
    phone: '',
    company: '',
  },
} as OrderData

const shipment = (trackingUrl: string | null, complete = false) => ({
  carrier: 'DPD',
  trackingNumber: 'DPD123',
  trackingUrl,
  shippedAt: new Date('2026-11-28T09:00:00Z'),
  lines: [{ name: 'Fire exit sign', sku: 'FX-1', quantity: 2 }],
  complete,
})

describe("the customer's e-mails after the order", () => {
  it('links only an https tracking URL with a host and no credentials', () => {
    expect(trackingLink('https://track.example/a?b=1')).toBe('https://track.example/a?b=1')
    for (const bad of [
      'http://track.example/a',
      'javascript:alert(1)',
      '/track/1',
      'https://user:pw@track.example/',
      '',
      null,
      undefined,
    ])
      expect(trackingLink(bad), String(bad)).toBeNull()
  })

  it('tells of a parcel with its carrier, tracking number, lines and link, in text and HTML', () => {
    const mail = shippedMail(site, order, shipment('https://track.example/DPD123'), 'https://shop.example/')
    expect(mail.to).toEqual(['dana@example.com'])
    expect(mail.subject).toBe('Harbour Safety Supplies: order 100123 is partly sent')
    expect(mail.text).toContain('Carrier: DPD\nTracking number: DPD123')
    expect(mail.text).toContain('2 x Fire exit sign (FX-1)')
    expect(mail.text).toContain('Track your parcel: https://track.example/DPD123')
    expect(mail.html).toContain('<a href="https://track.example/DPD123">')
    expect(mail.text).toContain('https://shop.example/customer/orders')
  })

  it('gives no link for a tracking URL that is not https, and says when the rest was sent', () => {
    const mail = shippedMail(site, order, shipment('http://track.example/DPD123', true))
    expect(mail.subject).toContain('has been sent')
    expect(mail.text).not.toContain('track.example')
    expect(mail.html).not.toContain('<a ')
  })

  it('escapes the customer’s own words in HTML', () => {
    expect(heldMail(site, order).html).toContain('Dear Dana &lt;Scully&gt;')
  })

  it('says the order is held, cancelled, and what was refunded, in the order’s currency', () => {
    expect(heldMail(site, order).text).toContain('Your order 100123 is on hold')
    expect(cancelledMail(site, order).text).toContain('has been cancelled and nothing will be sent')
    const refund = refundedMail(site, order, 1250)
    expect(refund.subject).toBe('Harbour Safety Supplies: refund of £12.50 for order 100123')
    expect(refund.text).toContain('We have refunded £12.50')
    expect(refund.text).toContain('Questions? Call us on 0800 000 000.')
  })
})
