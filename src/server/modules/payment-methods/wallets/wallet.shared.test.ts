import { describe, expect, it } from 'vitest'
import type { OrderForm } from '../../../../shared/checkout.ts'
import type { Site } from '../../sites/sites.service.ts'
import { paypalCheckoutMethod } from '../paypal/paypal.method.ts'
import { formWithImported, isVerified, splitName, verifiedDetails } from './wallet.shared.ts'

const site = { settings: { countries: [{ code: 'GB', name: 'United Kingdom' }] } } as unknown as Site
const form = {
  payment_method: 'paypal',
  customer_contact_id: 7,
  customer_shipping_address_id: 8,
  customer_billing_address_id: null,
  contact: { firstName: 'Mallory' },
  shipping_address: {},
  billing_address: {},
  showingBillingAddress: true,
  VATNumber: 'IE123',
  transactions: [{ amount: 100, paymentDetails: {}, paymentProvider: 'paypal' }],
  delivery_option: 1,
  Notes: '',
} as unknown as OrderForm
const imported = {
  contact: {
    firstName: 'Sam',
    lastName: 'Buyer',
    email: 'sam@example.com',
    phone: '07700900123',
    company: '',
  },
  shipping: {
    company: '',
    address1: '1 Harbour Street',
    address2: '',
    town: 'Bristol',
    county: '',
    postcode: 'BS1 4AA',
    country: 'GB',
  },
}

describe('the provider’s details replace the browser’s', () => {
  it('drops address-book ids, the VAT number and a separate billing address', () => {
    const r = formWithImported(form, site, imported, { orderID: 'X' })
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.form).toMatchObject({
      customer_contact_id: null,
      customer_shipping_address_id: null,
      contact: imported.contact,
      shipping_address: imported.shipping,
      billing_address: imported.shipping,
      showingBillingAddress: false,
      VATNumber: null,
    })
    expect(r.form.transactions[0]!.paymentDetails).toEqual({ orderID: 'X' })
  })

  it('answers field errors for a provider address the checkout would refuse', () => {
    const r = formWithImported(
      form,
      site,
      { ...imported, shipping: { ...imported.shipping, country: 'US', town: '' } },
      {},
    )
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.errors['shipping_address.country']).toEqual(['Please choose a country from the list.'])
    expect(r.errors['shipping_address.town']).toBeDefined()
  })

  it('splits a full name into first and last names', () => {
    expect(splitName('Sam  de la Buyer')).toEqual({ firstName: 'Sam de la', lastName: 'Buyer' })
    expect(splitName('Cher')).toEqual({ firstName: 'Cher', lastName: 'Cher' })
  })
})

describe('verified payment details', () => {
  it('are only the objects the server made, never a copy from JSON', () => {
    const d = verifiedDetails({ attemptState: 'captured' })
    expect(isVerified(d)).toBe(true)
    expect(isVerified(JSON.parse(JSON.stringify(d)))).toBe(false)
    expect(isVerified({ ...d })).toBe(false)
  })

  it('a browser’s paymentDetails claiming a capture are refused by parseDetails', () => {
    const app = {
      payments: { adapters: { paypal: { config: { sdkUrl: 'https://www.paypal.com/sdk/js' } } } },
    } as never
    const method = paypalCheckoutMethod(app)!
    const ctx = { site, customerId: null, contact: { firstName: 'a', lastName: 'b' } }
    expect(method.parseDetails({ paymentDetails: { attemptState: 'captured' } }, ctx).ok).toBe(false)
    const mine = verifiedDetails({ attemptState: 'captured' })
    expect(method.parseDetails({ paymentDetails: mine }, ctx)).toEqual({ ok: true, details: mine })
  })
})
