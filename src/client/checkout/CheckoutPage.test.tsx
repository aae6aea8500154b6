// @vitest-environment happy-dom
import { router } from '@inertiajs/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { VAT_RELIEF_TEXT } from '../../shared/vat-relief.ts'
import { fieldOfError } from '../pages/Checkout.tsx'
import {
  answers,
  basket,
  byText,
  calls,
  click,
  container,
  open,
  props,
  render,
  settle,
  toStep3,
  type,
  setUpCheckoutPage,
} from './checkout-page.fixture.tsx'

setUpCheckoutPage()

describe('Checkout: VAT relief at step 3', () => {
  it('is not offered for a basket without eligible goods', async () => {
    const none = basket({ show_vat_relief: false })
    // The delivery the page asks for on load answers the same basket.
    answers['/checkout/update-delivery'] = () => ({ status: 200, body: { cart: none, shippingRates: [] } })
    await toStep3(props({ basket: none }))
    expect(container.querySelector('[data-testid="vat-relief"]')).toBeNull()
  })

  it('asks for the declaration, refuses it incomplete under the fields, and sends it with the delivery', async () => {
    answers['/cart/update-cart'] = () => ({
      status: 200,
      body: basket({
        ApplyVATRelief: true,
        vat_relief_declaration: { name: 'Ada Lovelace', condition: 'Arthritis' },
      }),
    })
    await toStep3()
    const box = container.querySelector<HTMLElement>('[data-testid="vat-relief"]')!
    expect(box.textContent).toContain(VAT_RELIEF_TEXT.limits)
    await click(byText('label', VAT_RELIEF_TEXT.claim)?.querySelector('input'))
    await click(byText('button', VAT_RELIEF_TEXT.apply))
    expect(box.querySelector('[data-testid="vat-relief-error-name"]')?.textContent).toBe(
      VAT_RELIEF_TEXT.nameRequired,
    )
    expect(box.querySelector('[data-testid="vat-relief-error-confirmed"]')?.textContent).toBe(
      VAT_RELIEF_TEXT.confirmRequired,
    )
    expect(document.activeElement?.id).toMatch(/-name$/)
    expect(calls.some((c) => c.url === '/cart/update-cart')).toBe(false)

    const inputs = [...box.querySelectorAll<HTMLInputElement>('input[type="text"], input:not([type])')]
    await type(inputs[0]!, 'Ada Lovelace')
    await type(inputs[1]!, 'Arthritis')
    await click(byText('label', VAT_RELIEF_TEXT.confirm)?.querySelector('input'))
    await click(byText('button', VAT_RELIEF_TEXT.apply))
    expect(calls.find((c) => c.url === '/cart/update-cart')?.body).toEqual({
      DeliveryOption: 'standard',
      country: 'GB',
      postcode: 'SW1A 1AA',
      vatRelief: { name: 'Ada Lovelace', condition: 'Arthritis', confirmed: true },
    })
  })

  it('shows the server’s refusal of the declaration', async () => {
    answers['/cart/update-cart'] = () => ({
      status: 422,
      body: {
        message: VAT_RELIEF_TEXT.overLimit('pads'),
        errors: { vatRelief: [VAT_RELIEF_TEXT.overLimit('pads')] },
      },
    })
    await toStep3()
    const box = container.querySelector<HTMLElement>('[data-testid="vat-relief"]')!
    await click(byText('label', VAT_RELIEF_TEXT.claim)?.querySelector('input'))
    const inputs = [...box.querySelectorAll<HTMLInputElement>('input[type="text"], input:not([type])')]
    await type(inputs[0]!, 'Ada Lovelace')
    await type(inputs[1]!, 'Arthritis')
    await click(byText('label', VAT_RELIEF_TEXT.confirm)?.querySelector('input'))
    await click(byText('button', VAT_RELIEF_TEXT.apply))
    await settle() // the server's answer
    expect(box.querySelector('[data-testid="vat-relief-error"]')?.textContent).toBe(
      'VAT relief covers at most 200 pads in one order.',
    )
  })
})

describe('Checkout: server field errors on Complete Order', () => {
  it('opens the step holding the first error, shows the message under the field and focuses it', async () => {
    answers['/checkout/complete'] = () => ({
      status: 422,
      body: {
        message: 'This email provided is invalid.',
        errors: {
          PONumber: ['Please enter no more than 50 characters.'],
          'contact.email': ['This email provided is invalid.'],
        },
      },
    })
    await toStep3()
    await click(container.querySelector<HTMLElement>('[data-testid="complete-order"]'))
    await settle()
    expect(open(2)).toBe(true)
    expect(container.querySelector('[data-testid="error-contact-email"]')?.textContent).toBe(
      'This email provided is invalid.',
    )
    expect(document.activeElement?.id).toBe('contact-email')
    // Typing in the section clears the server's message.
    await type(document.getElementById('contact-email') as HTMLInputElement, 'ada@example.org')
    expect(container.querySelector('[data-testid="error-contact-email"]')).toBeNull()
  })

  it('puts a country the site does not deliver to under the Country field', async () => {
    answers['/checkout/update-delivery'] = () => ({
      status: 422,
      body: {
        message: 'We do not deliver to this country.',
        errors: { countryCode: ['We do not deliver to this country.'] },
      },
    })
    await render(props())
    await settle()
    expect(open(2)).toBe(true)
    expect(container.querySelector('[data-testid="error-shipping-country"]')?.textContent).toBe(
      'We do not deliver to this country.',
    )
  })

  it('maps the order form’s keys onto the steps and fields', () => {
    expect(fieldOfError('shipping_address.postcode')).toEqual({
      step: 2,
      id: 'shipping-postcode',
      key: 'shipping.postcode',
    })
    expect(fieldOfError('billing_address.town')).toEqual({ step: 2, id: 'billing-town', key: 'billing.town' })
    expect(fieldOfError('Notes')).toEqual({ step: 3, id: 'notes', key: 'Notes' })
    expect(fieldOfError('payment_method')?.step).toBe(1)
    expect(fieldOfError('cart')).toBeNull()
  })
})

describe('Checkout: Not you? Log Out', () => {
  it('logs out without a redirect, resets the steps and forgets the customer’s details', async () => {
    answers['/logout'] = () => ({ status: 200, body: {} })
    const reload = vi.spyOn(router, 'reload').mockImplementation(() => {})
    await toStep3()
    await click(container.querySelector<HTMLElement>('[data-testid="step-2"] h2 button'))
    await click(byText('button', 'Not you? Log Out'))
    await settle() // the server's answer to /logout
    expect(calls.find((c) => c.url === '/logout')?.body).toEqual({ redirect: false })
    // The header's shared props follow the logout (no visit that would leave the page).
    expect(reload).toHaveBeenCalledWith({ only: ['auth', 'cart'] })
    reload.mockRestore()
    expect(open(1)).toBe(true)
    expect(open(2)).toBe(false)
    // Step 2 cannot be opened again until step 1 is completed.
    expect(container.querySelector<HTMLButtonElement>('[data-testid="step-3"] h2 button')?.disabled).toBe(
      true,
    )
    await click(container.querySelector<HTMLElement>('[data-testid="continue"]'))
    expect(open(2)).toBe(true)
    expect(container.textContent).not.toContain('Logged in as')
    expect(container.textContent).toContain('Checkout as New Customer')
    expect((document.getElementById('contact-email') as HTMLInputElement).value).toBe('')
    expect((document.getElementById('shipping-town') as HTMLInputElement).value).toBe('')
    expect(container.textContent).not.toContain('Add New Contact')
  })
})

describe('Checkout: Amazon Pay on step 2', () => {
  const session = 'amz-session-0001'
  const amazonProps = () =>
    props({
      paymentMethods: [
        { id: 'purchase_order', label: 'Purchase Order', img: '', detail: '' },
        { id: 'amazon', label: 'Amazon Pay', img: '', detail: '' },
      ],
    })
  beforeEach(() => {
    window.history.replaceState({}, '', `/checkout?amazonCheckoutSessionId=${session}`)
    document.cookie = 'payment_method=amazon; path=/'
  })
  afterEach(() => {
    window.history.replaceState({}, '', '/')
    document.cookie = 'payment_method=; max-age=0; path=/'
  })

  it('imports the buyer’s details read-only, tells the server the delivery options were viewed and orders with the session', async () => {
    answers['/checkout/amazon/get-session-information'] = () => ({
      status: 200,
      body: {
        amazonOrderData: {
          amazonCheckoutSessionId: session,
          paymentDescriptor: 'Visa ****1111',
          hasViewedDeliveryOptions: false,
        },
        contact: { firstName: 'Sam', lastName: 'Buyer', email: 'sam@example.com', phone: '07700900456' },
        shipping_address: {
          address1: '1 Harbour Street',
          town: 'Poole',
          postcode: 'BH15 1HJ',
          country: 'GB',
        },
      },
    })
    answers['/checkout/amazon/delivery-viewed'] = () => ({
      status: 200,
      body: { hasViewedDeliveryOptions: true },
    })
    answers['/checkout/complete'] = () => ({ status: 422, body: { message: 'Refused.' } })
    await render(amazonProps())
    await settle() // the 200 ms jump: Amazon goes to step 2
    await settle()
    expect(open(2)).toBe(true)
    expect(calls.some((c) => c.url === '/checkout/amazon/delivery-viewed')).toBe(true)
    // The logged-in customer's stored details give way to Amazon's, read-only.
    const address1 = document.getElementById('shipping-address1') as HTMLInputElement
    expect(address1.value).toBe('1 Harbour Street')
    expect(address1.readOnly).toBe(true)
    expect((document.getElementById('contact-firstName') as HTMLInputElement).value).toBe('Sam')
    expect((document.getElementById('shipping-country') as HTMLSelectElement).disabled).toBe(true)
    expect(container.querySelector('[data-testid="amazon-descriptor"]')?.textContent).toBe(
      'Paying with Amazon Pay: Visa ****1111',
    )
    const next = container.querySelector<HTMLButtonElement>('[data-testid="continue"]')!
    expect(next.disabled).toBe(false)
    await click(next)
    expect(open(3)).toBe(true)
    await click(container.querySelector<HTMLElement>('[data-testid="complete-order"]'))
    await settle()
    const sent = calls.find((c) => c.url === '/checkout/complete')?.body as Record<string, unknown>
    expect(sent.amazonCheckoutSessionId).toBe(session)
    expect(sent.customer_contact_id).toBeNull()
    expect(sent.customer_shipping_address_id).toBeNull()
    const tx = (sent.transactions as { paymentDetails: Record<string, unknown> }[])[0]!
    expect((tx.paymentDetails.amazonOrderData as Record<string, unknown>).amazonCheckoutSessionId).toBe(
      session,
    )
  })

  it('keeps step 2 closed to Continue until Amazon’s order data exists', async () => {
    answers['/checkout/amazon/get-session-information'] = () => ({
      status: 404,
      body: { message: 'Your Amazon Pay session has expired.' },
    })
    answers['/checkout/amazon/create-amazon-session'] = () => ({ status: 503, body: { message: 'No.' } })
    await render(amazonProps())
    await settle()
    await settle()
    expect(open(2)).toBe(true)
    const cont = container.querySelector<HTMLButtonElement>('[data-testid="continue"]')!
    // Not enabled (§4), yet focusable and explained; pressing it keeps the buyer on step 2.
    expect(cont.getAttribute('aria-disabled')).toBe('true')
    expect(document.getElementById('continue-help')?.textContent).toContain('Amazon Pay button')
    await click(cont)
    expect(open(2)).toBe(true)
    expect(open(3)).toBe(false)
    expect(document.getElementById('shipping-address1')).toBeNull()
  })
})
