// @vitest-environment happy-dom
import { act } from 'react'
import { describe, expect, it } from 'vitest'
import type { CheckoutPageProps } from '../../shared/checkout.ts'
import {
  answers,
  basket,
  byText,
  calls,
  click,
  container,
  customer,
  open,
  props,
  render,
  settle,
  toStep3,
  type,
  setUpCheckoutPage,
} from './checkout-page.fixture.tsx'

setUpCheckoutPage()

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
