/**
 * The Checkout page's component tests' set-up: a basket, a customer, the page's props, a fetch
 * stand-in that answers the page's JSON calls from `answers` and records them in `calls`, and
 * helpers to render, click, type and move through the steps.
 */
import { act } from 'react'
import { afterEach, beforeEach, expect, vi } from 'vitest'
import type { Cart } from '../../shared/cart.ts'
import type { CheckoutPageProps } from '../../shared/checkout.ts'
import type { CustomerData } from '../../shared/customer.ts'
import { makePage, mockMatchMedia, renderPage, type Rendered } from '../test/render.tsx'
import Checkout from '../pages/Checkout.tsx'
export function basket(over: Partial<Cart> = {}): Cart {
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

export const customer: CustomerData = {
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

export const props = (over: Partial<CheckoutPageProps> = {}): CheckoutPageProps => ({
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

export type Answer = { status: number; body: unknown }
export let answers: Record<string, (body: unknown) => Answer>
export let calls: { url: string; body: unknown }[]
export let rendered: Rendered | undefined
export let container: HTMLElement

/** Registers the file's hooks: a fresh fetch stand-in before each test, the page unmounted after. */
export function setUpCheckoutPage(): void {
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
}

export const auth = {
  auth: { customer: { id: 7, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' } },
}

export async function render(p: CheckoutPageProps, shared: Record<string, unknown> = auth) {
  rendered = await renderPage(Checkout as never, makePage('Checkout', { ...p, ...shared }))
  container = rendered.container
}
export const byText = (tag: string, text: string | RegExp) =>
  [...container.querySelectorAll<HTMLElement>(tag)].find((e) =>
    typeof text === 'string' ? e.textContent?.trim() === text : text.test(e.textContent ?? ''),
  )
export const click = async (el: HTMLElement | undefined | null) => {
  expect(el).toBeTruthy()
  await act(async () => {
    el!.click()
  })
}
export const type = async (el: HTMLInputElement, value: string) => {
  await act(async () => {
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!
    setter.call(el, value)
    el.dispatchEvent(new Event('input', { bubbles: true }))
  })
}
export const settle = () => act(async () => new Promise((r) => setTimeout(r, 250)))
export const open = (n: number) =>
  container.querySelector(`[data-testid="step-${n}"] h2 button`)?.getAttribute('aria-expanded') === 'true'

export async function toStep3(p = props()) {
  await render(p)
  await settle() // the 200 ms jump: a logged-in purchase-order customer is taken to step 2
  expect(open(2)).toBe(true)
  await click(container.querySelector<HTMLElement>('[data-testid="continue"]'))
  expect(open(3)).toBe(true)
}
