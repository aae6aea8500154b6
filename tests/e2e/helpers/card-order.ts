/**
 * A card-paid order of two lines on the Harbour demo shop, placed through the shop's own HTTP
 * calls (basket, the card pre-order, the Opayo simulator's card tokenising as the drop-in does,
 * checkout complete) rather than through the checkout's pages: the back-office specs need a real
 * captured card payment to refund, not another walk through the checkout.
 */
import { expect, type APIRequestContext, type BrowserContext } from '@playwright/test'
import { plainProduct } from '../../support/demo-catalog.ts'

const APPROVE = '4929000000006'

/** The listing id of a SKU, from its product page's Inertia props. */
async function listingId(request: APIRequestContext, url: string, sku: string): Promise<number> {
  const html = await (await request.get(url)).text()
  const json = /<script[^>]*data-page[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '{}'
  const match = new RegExp(`"productId":\\s*(\\d+),\\s*"sku":\\s*"${sku}"`).exec(json)
  if (!match) throw new Error(`no listing for ${sku} on ${url}`)
  return Number(match[1])
}

export async function placeCardOrder(context: BrowserContext, postcode: string): Promise<number> {
  const request = context.request
  const first = plainProduct('harbour')
  const second = plainProduct('harbour', (s) => s.groupUrl !== first.sku.groupUrl)
  const ids = [
    await listingId(request, first.url, first.sku.sku),
    await listingId(request, second.url, second.sku.sku),
  ]
  const xsrf = async () =>
    decodeURIComponent((await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '')
  const post = async (url: string, data: unknown) =>
    request.post(url, { data, headers: { accept: 'application/json', 'x-xsrf-token': await xsrf() } })
  const added = await post('/cart/add', { items: ids.map((listing_id) => ({ listing_id, quantity: 2 })) })
  expect(added.status()).toBe(200)
  const cart = (await added.json()) as {
    id: string
    cart_total_price_inc_tax: number
    shippingRates: { id: number; selected: boolean }[]
  }
  const body = {
    cart_id: cart.id,
    payment_method: 'sagepay',
    contact: {
      firstName: 'Carla',
      lastName: 'Card',
      email: `carla.${Date.now()}@example.com`,
      phone: '01632 960 902',
      company: '',
    },
    shipping_address: {
      company: '',
      address1: '88 Quay Street',
      address2: '',
      town: 'Bristol',
      county: '',
      postcode,
      country: 'GB',
    },
    showingBillingAddress: false,
    transactions: [{ amount: cart.cart_total_price_inc_tax, paymentDetails: {}, paymentProvider: 'sagepay' }],
    delivery_option: cart.shippingRates.find((r) => r.selected)?.id ?? 1,
    challengeWindowSize: 'Medium',
  }
  const session = await post('/checkout/sagepay/create-preorder-and-sagepay-session', body)
  expect(session.status()).toBe(200)
  const { merchantSessionKey } = (await session.json()) as { merchantSessionKey: string }
  // The simulator's address is the one provider origin of the checkout page's CSP (test mode).
  const checkout = await request.get('/checkout')
  const csp = checkout.headers()['content-security-policy'] ?? ''
  const simulator = /https?:\/\/127\.0\.0\.1:\d+/.exec(csp)?.[0]
  if (!simulator) throw new Error(`no simulator in the checkout's CSP: ${csp}`)
  const tokenised = await request.post(`${simulator}/opayo/api/v1/card-identifiers`, {
    headers: { authorization: `Bearer ${merchantSessionKey}` },
    data: {
      cardDetails: {
        cardholderName: 'SUCCESSFUL',
        cardNumber: APPROVE,
        expiryDate: '1230',
        securityCode: '123',
      },
    },
  })
  expect(tokenised.status()).toBe(201)
  const { cardIdentifier } = (await tokenised.json()) as { cardIdentifier: string }
  const placed = await post('/checkout/complete', {
    ...body,
    card_identifier: cardIdentifier,
    sagePayMerchantSessionKey: merchantSessionKey,
  })
  expect(placed.status(), await placed.text()).toBe(200)
  const { order } = (await placed.json()) as { order: { OrderNumber: number; status: string } }
  expect(order.status).toBe('placed')
  return Number(order.OrderNumber)
}
