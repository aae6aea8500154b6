// @vitest-environment happy-dom
import { act } from 'react'
import { router } from '@inertiajs/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Cart } from '../../shared/cart.ts'
import type { CheckoutPageProps } from '../../shared/checkout.ts'
import type { CustomerData } from '../../shared/customer.ts'
import { VAT_RELIEF_TEXT } from '../../shared/vat-relief.ts'
import { makePage, mockMatchMedia, renderPage, type Rendered } from '../test/render.tsx'
import Checkout, { fieldOfError } from '../pages/Checkout.tsx'

function basket(over: Partial<Cart> = {}): Cart {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    items: [
      {
        id: 1,
        quantity: 1,
        minimumOrder: 1,
        parent: null,
        is_isolated_from_parent: false,
        IsFreeGift: false,
        sequence_id: null,
        printable_sign: null,
        unit_price: 10000,
        unit_price_inc_tax: 12000,
        line_total: 10000,
        line_total_inc_tax: 12000,
        line_tax: 2000,
        line_total_ex_discount_ex_tax: 10000,
        vat_rate: 20,
        options: { price_ex_tax: 0, items: [] },
        product: {
          id: 5,
          sku: 'W-1',
          product_code: 'W-1',
          name: 'Transit wheelchair',
          url: '/w',
          price: 10000,
          details: '',
          media: null,
          category: null,
        },
        FullURL: 'https://shop.example/w',
        category: null,
        work_wear_session: null,
        edit_url: null,
        work_wear_url: null,
      },
    ],
    promotionCodes: [],
    errors: { promotionCodes: [] },
    despatch_types: ['standard'],
    despatch_type: 'standard',
    cart_total_price: 10595,
    cart_total_price_inc_tax: 12714,
    cart_total_tax: 2119,
    cart_total_shipping: 595,
    cart_total_shipping_inc_tax: 714,
    cart_total_discount: 0,
    cart_total_discount_inc_tax: 0,
    cart_total_items: 1,
    customer_id: 7,
    shippingZone: 'UK Mainland',
    shippingRates: [{ id: 3, name: 'Standard', price: 714, selected: true, despatch_type: 'standard' }],
    shortForFreeShipping: null,
    short_for_minimum_order_value: 0,
    minimum_order_value: 0,
    items_total: 10000,
    items_count: 1,
    vat_items: [],
    customisation_total: 0,
    ApplyVATRelief: false,
    show_vat_relief: true,
    vat_relief_declaration: null,
    shared: false,
    ...over,
  }
}

const customer: CustomerData = {
  id: 7,
  username: 'ada@example.com',
  ExternalKey: null,
  created: '2026-01-01',
  RegisterDate: '2026-01-01',
  company: '',
  contacts: [],
  primaryContact: {
    id: 11,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '01632 960 111',
    company: '',
    primary: true,
  },
  addresses: [],
  shippingAddress: {
    id: 21,
    type: 'shipping',
    company: '',
    address1: '1 Analytical Row',
    address2: '',
    town: 'London',
    county: '',
    postcode: 'SW1A 1AA',
    country: 'GB',
    primary: true,
  },
  billingAddress: null,
}

const props = (over: Partial<CheckoutPageProps> = {}): CheckoutPageProps => ({
  basket: basket(),
  customer,
  paymentMethods: [{ id: 'purchase_order', label: 'Purchase Order', img: '', detail: '' }],
  countries: [{ code: 'GB', name: 'United Kingdom' }],
  freephoneNumber: '0800 000 0000',
  botCheck: null,
  addressSearchUrl: '/checkout/address-search',
  paymentConfig: {},
  testMode: false,
  ...over,
})

type Answer = { status: number; body: unknown }
let answers: Record<string, (body: unknown) => Answer>
let calls: { url: string; body: unknown }[]
let rendered: Rendered | undefined
let container: HTMLElement

beforeEach(() => {
  mockMatchMedia(() => true)
  calls = []
  answers = {
    '/checkout/update-delivery': () => ({ status: 200, body: { cart: basket(), shippingRates: [] } }),
  }
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input).replace(/^https?:\/\/[^/]+/, '')
      const body = init?.body ? JSON.parse(String(init.body)) : undefined
      calls.push({ url, body })
      const answer = answers[url.split('?')[0]!]
      // Page visits (Inertia) never answer in these tests: the page stays as it is.
      if (!answer) return new Promise<Response>(() => {})
      const a = answer(body)
      return new Response(JSON.stringify(a.body), {
        status: a.status,
        headers: { 'content-type': 'application/json' },
      })
    }),
  )
})
afterEach(() => {
  rendered?.unmount()
  rendered = undefined
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

const auth = {
  auth: { customer: { id: 7, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' } },
}

async function render(p: CheckoutPageProps, shared: Record<string, unknown> = auth) {
  rendered = await renderPage(Checkout as never, makePage('Checkout', { ...p, ...shared }))
  container = rendered.container
}
const byText = (tag: string, text: string | RegExp) =>
  [...container.querySelectorAll<HTMLElement>(tag)].find((e) =>
    typeof text === 'string' ? e.textContent?.trim() === text : text.test(e.textContent ?? ''),
  )
const click = async (el: HTMLElement | undefined | null) => {
  expect(el).toBeTruthy()
  await act(async () => {
    el!.click()
  })
}
const type = async (el: HTMLInputElement, value: string) => {
  await act(async () => {
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!
    setter.call(el, value)
    el.dispatchEvent(new Event('input', { bubbles: true }))
  })
}
const settle = () => act(async () => new Promise((r) => setTimeout(r, 250)))
const open = (n: number) =>
  container.querySelector(`[data-testid="step-${n}"] h2 button`)?.getAttribute('aria-expanded') === 'true'

async function toStep3(p = props()) {
  await render(p)
  await settle() // the 200 ms jump: a logged-in purchase-order customer is taken to step 2
  expect(open(2)).toBe(true)
  await click(container.querySelector<HTMLElement>('[data-testid="continue"]'))
  expect(open(3)).toBe(true)
}

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

const guest = { auth: { customer: null } }
const input = (id: string) => document.getElementById(id) as HTMLInputElement
const blur = async (el: HTMLElement) => {
  await act(async () => {
    el.focus()
    el.blur()
  })
}
const message = (id: string) => document.getElementById(`${id}-error`)?.textContent ?? null

/** A guest on step 2 (purchase order): Continue from step 1, as the buyer does. */
async function guestAtStep2(over: Partial<CheckoutPageProps> = {}) {
  await render(props({ customer: null, ...over }), guest)
  await settle()
  expect(open(1)).toBe(true)
  await click(container.querySelector<HTMLElement>('[data-testid="continue"]'))
  expect(open(2)).toBe(true)
}

describe('Checkout: messages where the buyer is (step 2)', () => {
  it('shows a mistyped e-mail’s and phone’s messages on leaving each field, and drops them as they are corrected', async () => {
    await guestAtStep2()
    await type(input('contact-email'), 'kay.example.com')
    // Nothing while typing for the first time…
    expect(message('contact-email')).toBeNull()
    await blur(input('contact-email'))
    // …the §5 message as soon as the field is left, without leaving the step.
    expect(message('contact-email')).toBe('This email provided is invalid.')
    expect(input('contact-email').getAttribute('aria-invalid')).toBe('true')
    await type(input('contact-phone'), '01632')
    await blur(input('contact-phone'))
    expect(message('contact-phone')).toBe('Please enter at least 10 characters.')
    expect(open(2)).toBe(true)
    // Corrected: each message goes with the keystroke that makes the value valid.
    await type(input('contact-email'), 'kay@example.com')
    expect(message('contact-email')).toBeNull()
    await type(input('contact-phone'), '01632 960 444')
    expect(message('contact-phone')).toBeNull()
    // A field never visited shows nothing yet.
    expect(message('contact-firstName')).toBeNull()
  })

  it('keeps Continue focusable on an invalid form; pressing it shows every message and focuses the first invalid field', async () => {
    await guestAtStep2()
    const cont = container.querySelector<HTMLButtonElement>('[data-testid="continue"]')!
    expect(cont.disabled).toBe(false)
    expect(cont.getAttribute('aria-disabled')).toBe('true')
    expect(document.getElementById('continue-help')?.textContent).toBe(
      'Required address field is empty or invalid.',
    )
    await click(cont)
    await settle()
    expect(open(2)).toBe(true)
    expect(message('contact-firstName')).toBe('This field is required.')
    expect(message('shipping-town')).toBe('This field is required.')
    expect(document.activeElement?.id).toBe('contact-firstName')
  })

  it('says at the top that fields marked * are required', async () => {
    await guestAtStep2()
    expect(container.querySelector('[data-testid="required-note"]')?.textContent).toBe(
      'Fields marked * are required.',
    )
  })
})

describe('Checkout: the focus follows the steps', () => {
  it('moves to the new step’s heading after Continue and after Edit', async () => {
    await toStep3()
    await settle()
    expect(document.activeElement?.id).toBe('step-3-heading')
    const edit = container.querySelector<HTMLElement>('[aria-label="Edit Delivery Address"]')
    await click(edit)
    await settle()
    expect(open(2)).toBe(true)
    expect(document.activeElement?.id).toBe('step-2-heading')
    await click(container.querySelector<HTMLElement>('[data-testid="step-1"] h2 button'))
    await settle()
    expect(document.activeElement?.id).toBe('step-1-heading')
  })
})

describe('Checkout: the order summary', () => {
  it('joins only the filled parts (no stray commas) and names the country', async () => {
    await toStep3(
      props({
        customer: {
          ...customer,
          primaryContact: { ...customer.primaryContact!, firstName: 'Alice', lastName: 'Shopper' },
        },
      }),
    )
    const summary = container.querySelector('[data-testid="order-summary"]')!.textContent ?? ''
    expect(summary).toContain('Alice Shopper, ada@example.com, 01632 960 111')
    expect(summary).not.toContain('Alice, Shopper')
    expect(summary).not.toMatch(/,\s*,|,\s*$/m)
    expect(summary).toContain('1 Analytical Row, London, SW1A 1AA, United Kingdom')
    expect(summary).not.toMatch(/\bGB\b/)
  })
})

describe('Checkout: the processing dialog', () => {
  it('blocks while the order is placed: no close button, the text is its description, Escape is refused', async () => {
    // No answer: /checkout/complete stays under way.
    await toStep3()
    await click(container.querySelector<HTMLElement>('[data-testid="complete-order"]'))
    await settle()
    const dialog = document.querySelector<HTMLDialogElement>('[data-testid="processing-modal"]')!
    expect(dialog.open).toBe(true)
    expect(dialog.querySelector('button')).toBeNull()
    const described = document.getElementById(dialog.getAttribute('aria-describedby')!)
    expect(described?.textContent).toBe('Please wait, we are currently processing your order.')
    const cancel = new Event('cancel', { cancelable: true })
    dialog.dispatchEvent(cancel)
    expect(cancel.defaultPrevented).toBe(true)
    const escape = new KeyboardEvent('keydown', { key: 'Escape', cancelable: true, bubbles: true })
    dialog.dispatchEvent(escape)
    expect(escape.defaultPrevented).toBe(true)
    expect(dialog.open).toBe(true)
  })
})

describe('Checkout: what is sent (§7)', () => {
  it('sends force_logout for a guest’s order and not for a customer’s', async () => {
    answers['/checkout/complete'] = () => ({ status: 500, body: { message: 'No.' } })
    await toStep3()
    await click(container.querySelector<HTMLElement>('[data-testid="complete-order"]'))
    await settle()
    expect(
      (calls.find((c) => c.url === '/checkout/complete')?.body as Record<string, unknown>).force_logout,
    ).toBe(false)
  })

  it('asks /checkout/update-delivery with null country and region for Amazon Pay', async () => {
    answers['/checkout/amazon/get-session-information'] = () => ({ status: 404, body: { message: 'x' } })
    answers['/checkout/amazon/create-amazon-session'] = () => ({ status: 503, body: { message: 'No.' } })
    await render(
      props({
        paymentMethods: [{ id: 'amazon', label: 'Amazon Pay', img: '', detail: '' }],
        paymentConfig: { amazon: {} },
      }),
    )
    await settle()
    const delivery = calls.filter((c) => c.url === '/checkout/update-delivery')
    expect(delivery.length).toBeGreaterThan(0)
    expect(delivery.at(-1)!.body).toEqual({ countryCode: null, regionCode: null })
  })
})

describe('Checkout: Back from Order Complete', () => {
  it('says the order was placed and links to it instead of showing the paid basket’s checkout', async () => {
    sessionStorage.setItem(
      'checkout.placed',
      JSON.stringify({ cartId: basket().id, url: '/checkout/complete/100042', orderNumber: 100042 }),
    )
    try {
      await render(props())
      await settle()
      const notice = container.querySelector('[data-testid="order-placed"]')
      expect(notice?.textContent).toContain('Your order has been placed')
      expect(notice?.textContent).toContain('100042')
      expect(notice?.querySelector('a')?.getAttribute('href')).toBe('/checkout/complete/100042')
      expect(container.querySelector('[data-testid="payment-box"]')).toBeNull()
      expect(container.querySelector('[data-testid="continue"]')).toBeNull()
    } finally {
      sessionStorage.removeItem('checkout.placed')
    }
  })
})

describe('Checkout: Add New Contact', () => {
  it('shows ‘This field is required.’ only for a field left empty or once Add was tried', async () => {
    await render(props())
    await settle()
    await click(byText('button', 'Add New Contact'))
    const dialog = [...document.querySelectorAll('dialog')].find((d) => d.open)!
    expect(dialog.textContent).not.toContain('This field is required.')
    await blur(input('new-contact-firstName'))
    expect(message('new-contact-firstName')).toBe('This field is required.')
    expect(message('new-contact-lastName')).toBeNull()
    const add = [...dialog.querySelectorAll('button')].find((b) => b.textContent === 'Add')!
    expect(add.getAttribute('aria-disabled')).toBe('true')
    await click(add)
    await settle()
    expect(message('new-contact-lastName')).toBe('This field is required.')
    expect(document.activeElement?.id).toBe('new-contact-firstName')
    expect(calls.some((c) => c.url === '/customer/update-contact')).toBe(false)
  })
})
