// @vitest-environment happy-dom
import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { CheckoutCompletePageProps, OrderData } from '../../shared/checkout.ts'
import CheckoutComplete from '../pages/CheckoutComplete.tsx'
import { makePage, mockMatchMedia, renderPage, type Rendered } from '../test/render.tsx'
import { tagManagerPhone } from './tag-manager.ts'

const address = {
  company: '',
  address1: '7 Mill Lane',
  address2: '',
  town: 'Leeds',
  county: '',
  postcode: 'LS1 4AP',
  country: 'GB',
}
const order = {
  id: 1,
  OrderNumber: 100077,
  orderDate: '2026-11-27T10:00:00Z',
  OrderSource: 'Desktop',
  Notes: '',
  status: 'placed',
  maginus_status: null,
  currency: 'GBP',
  contactDetails: {
    first_name: 'Kay',
    last_name: 'Board',
    email: 'kay@example.com',
    phone: '01632 960 444',
    company: '',
  },
  shippingAddress: address,
  billingAddress: address,
  VATNumber: null,
  transactions: [],
  items: [],
  totalCost: 1000,
  totalCostIncTax: 1200,
  totalShippingCost: 0,
  totalDiscountCost: 0,
  totalTax: 200,
  CustomisationCharge: 0,
  promotionCodes: [],
  deliveryName: 'Standard',
} satisfies OrderData
const props: CheckoutCompletePageProps = {
  order,
  invoicingEntity: 'Harbour Safety Supplies Ltd',
  sisterSites: [],
  deliveryWarnings: [],
  estimatedDelivery: '2026-11-28',
  showOptOut: false,
  forceLogout: true,
}

let rendered: Rendered | undefined
let container: HTMLElement
let feedbackAnswer: { status: number; body: unknown }
beforeEach(() => {
  mockMatchMedia(() => true)
  sessionStorage.clear()
  ;(window as unknown as { dataLayer?: unknown[] }).dataLayer = []
  feedbackAnswer = { status: 200, body: { message: 'ok' } }
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(feedbackAnswer.body), { status: feedbackAnswer.status })),
  )
})
afterEach(() => {
  rendered?.unmount()
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

async function render() {
  rendered = await renderPage(CheckoutComplete as never, makePage('CheckoutComplete', { ...props }))
  container = rendered.container
}
const textarea = () => container.querySelector<HTMLTextAreaElement>('#feedback')!
const type = async (value: string) => {
  await act(async () => {
    const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!
    setter.call(textarea(), value)
    textarea().dispatchEvent(new Event('input', { bubbles: true }))
  })
}
const send = async () => {
  await act(async () => {
    container
      .querySelector<HTMLFormElement>('section[aria-labelledby="feedback-heading"] form')!
      .requestSubmit()
    await new Promise((r) => setTimeout(r, 0))
  })
}
const message = () => container.querySelector('[data-testid="feedback-message"]')?.textContent ?? ''

describe('Order Complete: landmarks and text', () => {
  it('names the order section by the page heading, and every section has a name', async () => {
    await render()
    const sections = [...container.querySelectorAll('section')]
    expect(sections.length).toBeGreaterThan(0)
    for (const section of sections) {
      const by = section.getAttribute('aria-labelledby')
      expect(
        by && container.querySelector(`#${by}`)?.textContent?.trim(),
        section.outerHTML.slice(0, 80),
      ).toBeTruthy()
    }
    const order = container.querySelector('[data-testid="order-confirmation"]')!
    expect(container.querySelector(`#${order.getAttribute('aria-labelledby')}`)!.tagName).toBe('H1')
  })

  it('does not double the full stop after an invoicing entity that ends in one', async () => {
    rendered = await renderPage(
      CheckoutComplete as never,
      makePage('CheckoutComplete', { ...props, invoicingEntity: 'Northgate Workplace Inc.' }),
    )
    container = rendered.container
    expect(container.textContent).toContain('from Northgate Workplace Inc.')
    expect(container.textContent).not.toContain('Inc..')
  })
})

describe('Order Complete: the feedback form', () => {
  it('says ‘The feedback box is empty.’ on an empty send and drops it as soon as text is typed', async () => {
    await render()
    await send()
    expect(message()).toBe('The feedback box is empty.')
    await type('Q')
    expect(message()).toBe('')
  })

  it('says ‘Too many characters used! Maximum is 2000 characters.’ as soon as the text is over 2,000 characters', async () => {
    await render()
    await type('x'.repeat(2001))
    expect(message()).toBe('Too many characters used! Maximum is 2000 characters.')
    expect(textarea().getAttribute('aria-invalid')).toBe('true')
    expect(
      container.querySelector<HTMLButtonElement>(
        'section[aria-labelledby="feedback-heading"] button[type="submit"]',
      )!.disabled,
    ).toBe(true)
    await type('x'.repeat(2000))
    expect(message()).toBe('')
  })

  it('shows the thanks for 2 seconds', async () => {
    await render()
    await type('Quick delivery, thanks.')
    await send()
    expect(message()).toBe('Thank you! Your feedback has been received.')
    await act(async () => new Promise((r) => setTimeout(r, 1700)))
    expect(message()).toBe('Thank you! Your feedback has been received.')
    await act(async () => new Promise((r) => setTimeout(r, 500)))
    expect(message()).toBe('')
  })
})

describe('Order Complete: the tag manager', () => {
  it('gets the buyer’s phone number with a leading 0 turned into +44', async () => {
    await render()
    const purchase = (window as unknown as { dataLayer: Record<string, unknown>[] }).dataLayer.find(
      (e) => e.event === 'purchase',
    )
    expect(purchase?.user_data).toEqual({ phone_number: '+441632960444' })
  })

  it('turns only a leading 0 into +44', () => {
    expect(tagManagerPhone('01632 960 444')).toBe('+441632960444')
    expect(tagManagerPhone('(555) 010-9999')).toBe('5550109999')
    expect(tagManagerPhone('+44 1632 960444')).toBe('+441632960444')
  })
})
