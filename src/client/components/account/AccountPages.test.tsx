// @vitest-environment happy-dom
import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { CustomerData } from '../../../shared/customer.ts'
import Carts from '../../pages/Customer/Carts.tsx'
import EditYourDetails from '../../pages/Customer/EditYourDetails.tsx'
import Invoices from '../../pages/Customer/Invoices.tsx'
import MarketingPreferences from '../../pages/Customer/MarketingPreferences.tsx'
import Orders from '../../pages/Customer/Orders.tsx'
import { makePage, mockMatchMedia, renderPage, type Rendered } from '../../test/render.tsx'

let rendered: Rendered | null = null
const greeting = 'Hello, Dana'

beforeEach(() => mockMatchMedia(() => false))
afterEach(() => {
  rendered?.unmount()
  rendered = null
  vi.restoreAllMocks()
})

function answer(status: number, body: unknown) {
  vi.spyOn(globalThis, 'fetch').mockResolvedValue(
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  )
}

async function click(el: Element | null | undefined) {
  await act(async () => {
    ;(el as HTMLElement).click()
    await new Promise((r) => setTimeout(r, 0))
  })
}

const notice = () => rendered!.container.querySelector('[data-testid="account-notice"]')?.textContent
const byText = (tag: string, text: string) =>
  [...rendered!.container.querySelectorAll(tag)].find((b) => b.textContent?.trim() === text)

const user: CustomerData = {
  id: 1,
  username: 'dana@example.com',
  ExternalKey: null,
  created: '2026-01-01T00:00:00Z',
  RegisterDate: null,
  company: '',
  contacts: [
    {
      id: 1,
      firstName: 'Dana',
      lastName: 'Demo',
      email: 'dana@example.com',
      phone: '01632960555',
      company: '',
      primary: true,
    },
  ],
  primaryContact: null,
  addresses: [],
  shippingAddress: null,
  billingAddress: null,
}

describe('account pages', () => {
  it('show the greeting, Log Out, the breadcrumb and the empty orders text', async () => {
    rendered = await renderPage(
      Orders as never,
      makePage('Customer/Orders', { greeting, orders: [], order: null }),
    )
    const text = rendered.container.textContent ?? ''
    expect(text).toContain('Hello, Dana')
    expect(text).toContain('My Account Home')
    expect(text).toContain('You have no recent orders.')
    expect(byText('button', 'Log Out')).toBeTruthy()
    expect(
      rendered.container.querySelector('nav[aria-label="Your account"] a[href="/customer/two-factor"]'),
    ).not.toBeNull()
  })

  it('say when there are no invoices', async () => {
    rendered = await renderPage(
      Invoices as never,
      makePage('Customer/Invoices', { greeting, invoices: [], invoice: null }),
    )
    expect(rendered.container.textContent).toContain('You have no invoices.')
  })

  it('say when there are no saved cards and show a refused card removal', async () => {
    const cards = [{ id: 4, last4Digits: '0006', cardType: 'Visa', expiry: '1229' }]
    rendered = await renderPage(
      EditYourDetails as never,
      makePage('Customer/EditYourDetails', { greeting, user, countries: [], club: false, cards }),
    )
    answer(404, { message: 'Not Found' })
    await click(rendered.container.querySelector('[data-testid="saved-card"] button'))
    expect(notice()).toBe('There was a problem deleting your card')
    rendered.unmount()
    rendered = await renderPage(
      EditYourDetails as never,
      makePage('Customer/EditYourDetails', { greeting, user, countries: [], club: false, cards: [] }),
    )
    expect(rendered.container.textContent).toContain('No saved cards.')
  })

  it('show a refused contact with the failure text and the server’s message under the form', async () => {
    rendered = await renderPage(
      EditYourDetails as never,
      makePage('Customer/EditYourDetails', { greeting, user, countries: [], club: false, cards: [] }),
    )
    await click(byText('button', 'Add New Contact'))
    const set = async (name: string, value: string) => {
      const input = rendered!.container.querySelector<HTMLInputElement>(`form input[name="${name}"]`)!
      await act(async () => {
        const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!
        setter.call(input, value)
        input.dispatchEvent(new Event('input', { bubbles: true }))
      })
    }
    await set('firstName', 'Dana')
    await set('lastName', 'Demo')
    await set('email', 'dana@example.com')
    await set('phone', '01632960555')
    answer(422, { message: 'Contact already exists', errors: { form: ['Contact already exists'] } })
    const submit = [...rendered.container.querySelectorAll('form button')].find(
      (b) => b.textContent === 'Add New Contact',
    )
    expect((submit as HTMLButtonElement).disabled).toBe(false)
    await click(submit)
    expect(notice()).toBe('Errors occurred when submitting your details: Contact already exists')
    expect(rendered.container.querySelector('form [role="alert"]')?.textContent).toBe(
      'Contact already exists',
    )
  })

  it('ask before deleting a contact, change nothing on Keep, and say what was deleted', async () => {
    const second = { ...user.contacts[0]!, id: 2, firstName: 'Sam', email: 'sam@example.com', primary: false }
    rendered = await renderPage(
      EditYourDetails as never,
      makePage('Customer/EditYourDetails', {
        greeting,
        user: { ...user, contacts: [...user.contacts, second] },
        countries: [],
        club: false,
        cards: [],
      }),
    )
    const fetchSpy = vi.spyOn(globalThis, 'fetch')
    const del = () =>
      rendered!.container.querySelector<HTMLButtonElement>('button[aria-label^="Delete contact: Sam Demo"]')!
    await click(del())
    // Nothing is sent yet: a question naming the contact, with the focus on Keep.
    expect(fetchSpy).not.toHaveBeenCalled()
    const ask = rendered.container.querySelector('[data-testid="confirm-delete"]')!
    expect(ask.textContent).toContain('Delete this contact? Sam Demo, sam@example.com, 01632960555')
    expect(document.activeElement?.textContent).toBe('Keep')
    await click(byText('button', 'Keep'))
    await act(async () => new Promise((r) => setTimeout(r, 0)))
    expect(rendered.container.querySelector('[data-testid="confirm-delete"]')).toBeNull()
    expect(fetchSpy).not.toHaveBeenCalled()
    expect(document.activeElement).toBe(del())

    await click(del())
    fetchSpy.mockResolvedValue(
      new Response(JSON.stringify({}), { status: 200, headers: { 'content-type': 'application/json' } }),
    )
    await click(byText('button', 'Delete contact'))
    expect(fetchSpy).toHaveBeenCalledTimes(1)
    expect(JSON.parse(String(fetchSpy.mock.calls[0]![1]!.body))).toEqual({
      type: 'delete',
      section: 'contact',
      data: [{ id: 2, delete: true }],
    })
    expect(notice()).toBe('Deleted the contact: Sam Demo, sam@example.com, 01632960555.')
    expect(notice()).not.toContain('Details edited!')
  })

  it('show the basket and preference failure texts', async () => {
    rendered = await renderPage(
      Carts as never,
      makePage('Customer/Carts', {
        greeting,
        baskets: [
          {
            id: 'b1',
            basketName: 'Kit',
            created: '2026-01-01T00:00:00Z',
            items: [],
            itemCount: 0,
            total: 0,
            totalIncTax: 0,
          },
        ],
      }),
    )
    expect(rendered.container.textContent).toContain('No items in your basket')
    await click(byText('button', 'Rename'))
    answer(422, { message: 'Please enter a name.', errors: { basketName: ['Please enter a name.'] } })
    await click(byText('button', 'Save name'))
    expect(notice()).toBe('Errors occurred when updating your cart')
    rendered.unmount()
    rendered = await renderPage(
      MarketingPreferences as never,
      makePage('Customer/MarketingPreferences', {
        greeting,
        preferences: [{ name: 'email', label: 'Email', description: 'News', status: false, updatedAt: null }],
      }),
    )
    answer(500, { message: 'Server Error' })
    await click(byText('button', 'Save preferences'))
    expect(notice()).toBe('Errors occurred when updating your preferences: Server Error')
  })
})
