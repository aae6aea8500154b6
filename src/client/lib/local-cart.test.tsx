// @vitest-environment happy-dom
import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { makePage, mockMatchMedia, renderPage, type Rendered } from '../test/render.tsx'
import { forgetLocalSession } from './local-cart.ts'

const customer = { id: 7, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' }
const serverCart = { id: 'c-1', items: [], cart_total_items: 3, cart_total_price_inc_tax: 4200 }

let rendered: Rendered | undefined
let calls: { url: string; method: string }[]

function Page() {
  return <h1>Page</h1>
}

async function render(props: Record<string, unknown> = {}) {
  rendered = await renderPage(Page, makePage('Page', props), { storedCart: false })
  // Let the effect's /cart/init call settle.
  await act(async () => {
    await new Promise((r) => setTimeout(r, 0))
  })
}

const stored = (key: string) => JSON.parse(window.sessionStorage.getItem(key) ?? 'null') as unknown

beforeEach(() => {
  mockMatchMedia(() => false)
  window.sessionStorage.clear()
  calls = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, method: init.method ?? 'GET' })
      return new Response(JSON.stringify(serverCart), { headers: { 'content-type': 'application/json' } })
    }),
  )
})
afterEach(() => {
  rendered?.unmount()
  rendered = undefined
  vi.unstubAllGlobals()
})

describe('the cart kept in session storage', () => {
  it('initialises the cart with POST /cart/init when none is stored, and stores it', async () => {
    await render()
    expect(calls).toEqual([{ url: '/cart/init', method: 'POST' }])
    expect(stored('cart')).toEqual({ id: 'c-1', count: 3, total: 4200 })
  })

  it('records the page’s cart over a stored one without calling the server', async () => {
    window.sessionStorage.setItem('cart', JSON.stringify({ id: 'c-1', count: 1, total: 100 }))
    await render({ cart: { count: 5, total: 900 } })
    expect(calls).toEqual([])
    expect(stored('cart')).toEqual({ id: 'c-1', count: 5, total: 900 })
  })

  it('remembers the logged-in customer, and forgets customer and cart once a page shows them logged out', async () => {
    window.sessionStorage.setItem('cart', JSON.stringify({ id: 'c-1', count: 1, total: 100 }))
    await render({ auth: { customer } })
    expect(stored('customer')).toEqual(customer)
    rendered?.unmount()
    calls = []
    await render({ auth: { customer: null } })
    expect(stored('customer')).toBeNull()
    // The forgotten cart is initialised again from the server.
    expect(calls).toEqual([{ url: '/cart/init', method: 'POST' }])
  })

  it('forgets the local cart and customer on logout', () => {
    window.sessionStorage.setItem('cart', '{"id":"c-1","count":1,"total":1}')
    window.sessionStorage.setItem('customer', JSON.stringify(customer))
    forgetLocalSession()
    expect(window.sessionStorage.getItem('cart')).toBeNull()
    expect(window.sessionStorage.getItem('customer')).toBeNull()
  })
})
