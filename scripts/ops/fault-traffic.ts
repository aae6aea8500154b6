/**
 * Mixed shop traffic at a fixed arrival rate (open loop) for the fault-injected load test: each
 * arrival starts on its schedule whatever the earlier ones are doing, picks an action by weight
 * (a seeded sequence, so two runs send the same mix), and every request of it is a sample whose
 * latency runs from when the arrival was due (its first request) or from when the step began
 * (the later steps of an order), so a stall shows as latency, not as fewer requests.
 *
 * Requests go through a small client-side balancer over the instances, as a proxy with health
 * checks would: round-robin over the instances whose `/readyz` last answered 200 (probed every
 * second), an instance taken out at once when a connection to it is refused or cut. A card
 * order stays on one instance for its whole flow (as a shopper stays on one instance behind a sticky proxy).
 * The shop is reached over HTTP only.
 */
import { RequestError, type Answer, type Balancer, Shopper } from './fault-balancer.ts'
import type { Sample } from './fault-report.ts'

export interface Targets {
  /** Category and product page paths of the Harbour site (host `localhost`) */
  categories: string[]
  products: string[]
  /** A Harbour SKU for orders (priced so that `orderQuantity` clears the minimum order) */
  orderItem: { id: number; categoryId: number }
  orderQuantity: number
  /** A Northgate SKU (host 127.0.0.1) for basket changes */
  basketItem: { id: number; categoryId: number }
}

export interface Mix {
  home: number
  category: number
  product: number
  search: number
  basket: number
  orderPo: number
  orderCard: number
}

export const DEFAULT_MIX: Mix = {
  home: 8,
  category: 12,
  product: 20,
  search: 25,
  basket: 15,
  orderPo: 10,
  orderCard: 10,
}

export interface AckedOrder {
  orderNumber: number
  cartId: string
  kind: 'po' | 'card'
  email: string
}

/** What the traffic learnt, for the reconciliation. */
export interface TrafficResult {
  samples: Sample[]
  orders: AckedOrder[]
  /** Order submissions that got no answer (may or may not have placed an order) */
  ordersUnanswered: { po: number; card: number }
  ordersRefused: { po: number; card: number }
  /** Baskets of the basket-change shoppers: changes answered 2xx and unanswered, per shopper */
  baskets: Shopper[]
  arrivals: number
  /** Arrivals that started later than 100 ms after their due time (the generator fell behind) */
  lateStarts: number
}

/** A seeded pseudo-random sequence (mulberry32): the same mix in every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Picks a key of `weights` for a number in [0, 1). */
export function weighted<K extends string>(weights: Record<K, number>, r: number): K {
  const entries = Object.entries(weights) as [K, number][]
  const total = entries.reduce((s, [, w]) => s + w, 0)
  let x = r * total
  for (const [k, w] of entries) {
    if (x < w) return k
    x -= w
  }
  return entries.at(-1)![0]
}

/** As-you-type: the successive prefixes a shopper types for each of these words. */
const SEARCH_WORDS = ['fire extinguisher', 'safety sign', 'first aid kit', 'hi vis vest', 'exit']
const SEARCH_PREFIXES = SEARCH_WORDS.flatMap((w) =>
  Array.from({ length: w.length - 1 }, (_, i) => w.slice(0, i + 2)),
)

const dropdown = (query: string) =>
  JSON.stringify({
    requests: [
      { indexName: 'products_query_suggestions', query, hitsPerPage: 5 },
      { indexName: 'products', query, filters: 'type:category AND status:published', hitsPerPage: 4 },
      {
        indexName: 'products',
        query,
        filters: 'type:product_group OR type:product AND status:published',
        hitsPerPage: 3,
      },
    ],
  })

interface CartJson {
  id: string
  cart_total_price_inc_tax: number
  shippingRates: { id: number; selected: boolean }[]
}

function orderForm(s: Shopper, cart: CartJson, method: 'purchase_order' | 'sagepay', run: string) {
  return {
    cart_id: cart.id,
    payment_method: method,
    contact: {
      firstName: 'Load',
      lastName: `Buyer ${s.id}`,
      email: `load-${run}-${s.id}@example.com`,
      phone: '01632 960 903',
      company: 'Fault Test Ltd',
    },
    shipping_address: {
      company: 'Fault Test Ltd',
      address1: `${s.id} Load Street`,
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
        paymentDetails: method === 'purchase_order' ? { PONumber: `LOAD-${s.id}` } : {},
        paymentProvider: method,
        ...(method === 'purchase_order' ? { message: '', authCode: 'empty' } : {}),
      },
    ],
    delivery_option: cart.shippingRates.find((r) => r.selected)?.id ?? 1,
    Notes: '',
    ...(method === 'sagepay' ? { challengeWindowSize: 'Medium' } : {}),
  }
}

export interface TrafficOptions {
  balancer: Balancer
  targets: Targets
  rate: number
  durationMs: number
  mix?: Mix
  seed?: number
  /** Visitors sharing the browse and search arrivals, and shoppers changing baskets */
  browsers?: number
  basketShoppers?: number
  /** Tells the caller the run's clock origin (performance.now()) once it starts */
  onStart?: (at: number) => void
}

export async function runTraffic(opts: TrafficOptions): Promise<TrafficResult> {
  const { balancer: lb, targets } = opts
  const random = seeded(opts.seed ?? 32)
  const mix = opts.mix ?? DEFAULT_MIX
  const run = Date.now().toString(36)
  const samples: Sample[] = []
  const orders: AckedOrder[] = []
  const ordersUnanswered = { po: 0, card: 0 }
  const ordersRefused = { po: 0, card: 0 }
  let shopperSeq = 0

  /** One request as a sample; throws on failure after recording it. */
  async function step(
    type: string,
    from: number,
    at: number,
    shopper: Shopper,
    method: string,
    path: string,
    body?: unknown,
    expect: (status: number) => boolean = (s) => s >= 200 && s < 300,
  ): Promise<Answer> {
    try {
      const answer = await lb.request(at, {
        method,
        path,
        headers: shopper.headers(body !== undefined),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      shopper.keep(answer.cookies)
      const ok = expect(answer.status)
      samples.push({
        type,
        due: from,
        ms: performance.now() - from,
        error: ok ? null : `http ${answer.status}`,
        answered: true,
      })
      if (!ok) throw new RequestError(`http ${answer.status}`)
      return answer
    } catch (err) {
      if (err instanceof RequestError && err.kind.startsWith('http')) throw err
      const kind = err instanceof RequestError ? err.kind : 'error'
      samples.push({ type, due: from, ms: performance.now() - from, error: kind, answered: false })
      throw err
    }
  }

  const newShopper = async (host: string, due: number, at: number, type: string) => {
    const s = new Shopper(++shopperSeq, host)
    await step(type, due, at, s, 'GET', '/')
    return s
  }

  // Visitors with a session (cookies, CSRF token) for browsing and search.
  const browsers: Shopper[] = []
  for (let i = 0; i < (opts.browsers ?? 20); i++) {
    const s = new Shopper(++shopperSeq, 'localhost')
    s.keep((await lb.request(lb.pick(), { method: 'GET', path: '/', headers: s.headers(false) })).cookies)
    browsers.push(s)
  }
  const baskets: Shopper[] = []
  for (let i = 0; i < (opts.basketShoppers ?? 20); i++) {
    const s = new Shopper(++shopperSeq, '127.0.0.1')
    s.keep((await lb.request(lb.pick(), { method: 'GET', path: '/', headers: s.headers(false) })).cookies)
    baskets.push(s)
  }

  async function addToCart(type: string, from: number, at: number, s: Shopper): Promise<CartJson> {
    const res = await step(type, from, at, s, 'POST', '/cart/add', {
      items: [
        {
          listing_id: targets.orderItem.id,
          quantity: targets.orderQuantity,
          category_id: targets.orderItem.categoryId,
        },
      ],
    })
    return JSON.parse(res.text) as CartJson
  }

  async function complete(kind: 'po' | 'card', at: number, s: Shopper, body: unknown, flowStart: number) {
    const type = `order: complete (${kind === 'po' ? 'purchase order' : 'card'})`
    // 202: the payment is being confirmed; the page asks again, as here (at most 10 times).
    for (let tries = 0; tries < 10; tries++) {
      const t0 = performance.now()
      let res: Answer
      try {
        res = await step(
          type,
          t0,
          at,
          s,
          'POST',
          '/checkout/complete',
          body,
          (st) => st === 200 || st === 202,
        )
      } catch (err) {
        if (err instanceof RequestError && err.kind.startsWith('http')) ordersRefused[kind]++
        else ordersUnanswered[kind]++
        return
      }
      if (res.status === 200) {
        const { order } = JSON.parse(res.text) as { order: { OrderNumber: number } }
        const form = body as { cart_id: string; contact: { email: string } }
        orders.push({
          orderNumber: Number(order.OrderNumber),
          cartId: form.cart_id,
          kind,
          email: form.contact.email,
        })
        samples.push({
          type: `order: whole flow (${kind === 'po' ? 'purchase order' : 'card'})`,
          due: flowStart,
          ms: performance.now() - flowStart,
          error: null,
          answered: true,
        })
        return
      }
      await new Promise((r) => setTimeout(r, 1000))
    }
    ordersUnanswered[kind]++
  }

  async function orderPo(due: number) {
    const at = lb.pick()
    const s = await newShopper('localhost', due, at, 'order: first page view')
    const cart = await addToCart('order: add to basket', performance.now(), lb.pick(), s)
    await complete('po', lb.pick(), s, orderForm(s, cart, 'purchase_order', run), due)
  }

  async function orderCard(due: number) {
    // One instance for the whole flow: its basket and session live there until the order is placed.
    const at = lb.pick()
    const s = await newShopper('localhost', due, at, 'order: first page view')
    const cart = await addToCart('order: add to basket', performance.now(), at, s)
    const form = orderForm(s, cart, 'sagepay', run)
    const pre = await step(
      'card: pre-order and session key',
      performance.now(),
      at,
      s,
      'POST',
      '/checkout/sagepay/create-preorder-and-sagepay-session',
      form,
    )
    const { merchantSessionKey, scriptUrl } = JSON.parse(pre.text) as {
      merchantSessionKey: string
      scriptUrl: string
    }
    // What the drop-in does in the provider's iframe: the card goes to the provider, not the shop.
    const api = scriptUrl.replace(/\/js\/sagepay\.js$/, '')
    const t0 = performance.now()
    let cardIdentifier: string
    try {
      const tok = await fetch(`${api}/card-identifiers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${merchantSessionKey}` },
        body: JSON.stringify({
          cardDetails: {
            cardholderName: 'SUCCESSFUL',
            cardNumber: '4929000000006',
            expiryDate: '1230',
            securityCode: '123',
          },
        }),
        signal: AbortSignal.timeout(30_000),
      })
      const ok = tok.status === 201
      samples.push({
        type: 'card: tokenise at the simulator',
        due: t0,
        ms: performance.now() - t0,
        error: ok ? null : `http ${tok.status}`,
        answered: true,
      })
      if (!ok) return
      cardIdentifier = ((await tok.json()) as { cardIdentifier: string }).cardIdentifier
    } catch {
      samples.push({
        type: 'card: tokenise at the simulator',
        due: t0,
        ms: performance.now() - t0,
        error: 'refused',
        answered: false,
      })
      return
    }
    await complete(
      'card',
      at,
      s,
      { ...form, card_identifier: cardIdentifier, sagePayMerchantSessionKey: merchantSessionKey },
      due,
    )
  }

  const actions: Record<keyof Mix, (due: number, n: number) => Promise<unknown>> = {
    home: (due, n) => step('browse: home', due, lb.pick(), browsers[n % browsers.length]!, 'GET', '/'),
    category: (due, n) =>
      step(
        'browse: category',
        due,
        lb.pick(),
        browsers[n % browsers.length]!,
        'GET',
        targets.categories[n % targets.categories.length]!,
      ),
    product: (due, n) =>
      step(
        'browse: product',
        due,
        lb.pick(),
        browsers[n % browsers.length]!,
        'GET',
        targets.products[n % targets.products.length]!,
      ),
    search: (due, n) =>
      step(
        'search as you type',
        due,
        lb.pick(),
        browsers[n % browsers.length]!,
        'POST',
        '/search/1/indexes/*/queries',
        JSON.parse(dropdown(SEARCH_PREFIXES[n % SEARCH_PREFIXES.length]!)) as unknown,
      ),
    basket: async (due, n) => {
      const s = baskets[n % baskets.length]!
      try {
        await step('basket: add one', due, lb.pick(), s, 'POST', '/cart/add', {
          items: [
            { listing_id: targets.basketItem.id, quantity: 1, category_id: targets.basketItem.categoryId },
          ],
        })
        s.acked++
      } catch (err) {
        if (err instanceof RequestError && err.kind.startsWith('http')) s.refused++
        else s.unanswered++
      }
    },
    orderPo: (due) => orderPo(due),
    orderCard: (due) => orderCard(due),
  }

  const total = Math.round((opts.rate * opts.durationMs) / 1000)
  const started = performance.now()
  opts.onStart?.(started)
  const inFlight: Promise<unknown>[] = []
  let lateStarts = 0
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / opts.rate
    const wait = due - performance.now()
    if (wait > 1) await new Promise((r) => setTimeout(r, wait))
    else if (wait < -100) lateStarts++
    const kind = weighted(mix, random())
    inFlight.push(actions[kind](due, i).catch(() => undefined))
  }
  await Promise.all(inFlight)
  return { samples, orders, ordersUnanswered, ordersRefused, baskets, arrivals: total, lateStarts }
}

/** Each basket shopper's basket read back: quantities against changes answered and unanswered. */
export async function readBackBaskets(lb: Balancer, shoppers: Shopper[]) {
  let lost = 0
  let doubled = 0
  let unansweredApplied = 0
  for (const s of shoppers) {
    const res = await lb.request(lb.pick(), {
      method: 'POST',
      path: '/cart/init',
      headers: s.headers(true),
      body: '{}',
    })
    const cart = JSON.parse(res.text) as { items: { quantity: number }[] }
    const quantity = cart.items.reduce((sum, l) => sum + l.quantity, 0)
    if (quantity < s.acked) lost += s.acked - quantity
    if (quantity > s.acked + s.unanswered) doubled += quantity - s.acked - s.unanswered
    unansweredApplied += Math.max(0, Math.min(quantity, s.acked + s.unanswered) - s.acked)
  }
  return {
    acknowledged: shoppers.reduce((n, s) => n + s.acked, 0),
    refused: shoppers.reduce((n, s) => n + s.refused, 0),
    unanswered: shoppers.reduce((n, s) => n + s.unanswered, 0),
    unansweredApplied,
    lost,
    doubled,
  }
}
