/**
 * Placing a purchase-order order (issue 13's target: p95 under 60 ms at 20 orders/s on
 * PostgreSQL). Every order needs a basket of its own: the bench first fills one basket per order
 * the way a browser does (a page view for the session and CSRF cookies, then `/cart/add`), then
 * sends `POST /checkout/complete` for each at a fixed rate (open loop, latency from the moment each
 * order was due). Each shopper comes from its own address (X-Forwarded-For, the server runs with
 * TRUST_PROXY) so the per-address limit on placing orders counts shoppers, not the bench. The
 * guests are new e-mail addresses: each order also creates a guest customer and two e-mail jobs.
 */
import { call } from './http.ts'
import { rateLoad, type LoadResult } from './load.ts'

let shopperSeq = 0

/** One shopper with a filled basket, and the order form its Complete Order would send. */
async function shopper(
  base: string,
  skus: { id: number; categoryId: number }[],
  run: string,
): Promise<{ headers: Record<string, string>; body: string }> {
  const n = ++shopperSeq
  const address = `10.13.${(n >> 8) & 255}.${n & 255}`
  const jar = new Map<string, string>()
  const keep = (cookies: string[]) => {
    for (const c of cookies) {
      const [pair] = c.split(';')
      const i = pair!.indexOf('=')
      jar.set(pair!.slice(0, i), pair!.slice(i + 1))
    }
  }
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
  const base_headers = { host: 'localhost', 'x-forwarded-for': address }
  keep((await call(`${base}/`, 'GET', { ...base_headers, accept: 'text/html' })).cookies)
  const xsrf = decodeURIComponent(jar.get('XSRF-TOKEN') ?? '')
  const res = await call(
    `${base}/cart/add`,
    'POST',
    { ...base_headers, accept: 'application/json', cookie: cookie(), 'x-xsrf-token': xsrf },
    // Enough of each line for the minimum order value; three lines like a typical trade order.
    JSON.stringify({
      items: skus.slice(0, 3).map((s) => ({ listing_id: s.id, quantity: 10, category_id: s.categoryId })),
    }),
  )
  if (res.status !== 200) throw new Error(`filling an order bench basket failed: ${res.status} ${res.text}`)
  keep(res.cookies)
  const cart = JSON.parse(res.text) as {
    id: string
    cart_total_price_inc_tax: number
    shippingRates: { id: number; selected: boolean }[]
  }
  const form = {
    cart_id: cart.id,
    payment_method: 'purchase_order',
    contact: {
      firstName: 'Bench',
      lastName: `Buyer ${n}`,
      email: `bench-${run}-${n}@example.com`,
      phone: '01632 960 000',
      company: 'Bench Ltd',
    },
    shipping_address: {
      company: 'Bench Ltd',
      address1: `${n} Load Street`,
      address2: '',
      town: 'Leeds',
      county: '',
      postcode: 'LS1 4AP',
      country: 'GB',
    },
    showingBillingAddress: false,
    transactions: [
      {
        amount: cart.cart_total_price_inc_tax,
        paymentDetails: { PONumber: `PO-${n}` },
        paymentProvider: 'purchase_order',
        message: '',
        authCode: 'empty',
      },
    ],
    delivery_option: cart.shippingRates.find((r) => r.selected)?.id,
    Notes: '',
    PONumber: `PO-${n}`,
  }
  return {
    headers: { ...base_headers, accept: 'application/json', cookie: cookie(), 'x-xsrf-token': xsrf },
    body: JSON.stringify(form),
  }
}

async function shoppers(
  base: string,
  skus: { id: number; categoryId: number }[],
  count: number,
  run: string,
) {
  const out: Awaited<ReturnType<typeof shopper>>[] = []
  // A few at a time: preparing is not what is measured.
  for (let i = 0; i < count; i += 8)
    out.push(
      ...(await Promise.all(Array.from({ length: Math.min(8, count - i) }, () => shopper(base, skus, run)))),
    )
  return out
}

/**
 * Places `rate` orders a second for `durationMs` (after a 2 s warm-up at the same rate, on baskets
 * of its own), each on a fresh basket. Every answer must be 200 (counted as errors otherwise).
 */
export async function orderBench(
  base: string,
  skus: { id: number; categoryId: number }[],
  opts: { rate: number; durationMs: number },
): Promise<LoadResult> {
  const run = Date.now().toString(36)
  const warm = await shoppers(base, skus, Math.round(opts.rate * 2), `${run}w`)
  await rateLoad({
    url: `${base}/checkout/complete`,
    method: 'POST',
    variants: warm,
    rate: opts.rate,
    durationMs: 2000,
  })
  const measured = await shoppers(base, skus, Math.round((opts.rate * opts.durationMs) / 1000), run)
  return rateLoad({
    url: `${base}/checkout/complete`,
    method: 'POST',
    variants: measured,
    rate: opts.rate,
    durationMs: opts.durationMs,
  })
}
