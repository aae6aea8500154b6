/**
 * Two production instances on one PostgreSQL database and one Redis (playwright.instances.config.ts).
 * One shopper's requests alternate between them (the session cookie is the browser's, both
 * instances serve `localhost`), and the back-office API changes data on one instance while the
 * shopper reads from the other: a basket, a login, a catalogue price change, a promotion, a new
 * order and a content publish are each seen on the other instance (the issue allows 5 s; LISTEN/NOTIFY is faster).
 * A workwear logo uploaded through one instance is read through the other: uploads live in the
 * S3-compatible server both use, not in either instance's own folder (issue 32, ADR 0175).
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { existsSync, readdirSync } from 'node:fs'
import sharp from 'sharp'
import { plainProduct } from '../support/demo-catalog.ts'
import { openDatabase } from '../../src/server/db/client.ts'
import { AdminTokens } from '../../src/server/modules/admin/admin.tokens.ts'
import { categories, productGroups, products, sites } from '../../src/server/db/schema.ts'
import { and, eq } from 'drizzle-orm'
import { normaliseBrackets } from '../../src/shared/pricing.ts'

import { INSTANCE_PORTS, SIMULATOR_URL } from './ports.ts'

const A = `http://localhost:${INSTANCE_PORTS[0]}`
const B = `http://localhost:${INSTANCE_PORTS[1]}`
const SEEN_WITHIN = { timeout: 5_000 }

const { sku, group: product } = plainProduct(
  'harbour',
  (s) => normaliseBrackets(s.priceList)[0]!.lowerQty === 1,
)
const gbp = (pence: number) =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }).format(pence / 100)

let token = ''
let listing = { id: 0, categoryId: 0 }
let workwear = { categoryId: 0, garmentId: 0 }
test.beforeAll(async () => {
  const url = process.env.E2E_DATABASE_URL
  if (!url) throw new Error('E2E_DATABASE_URL: the PostgreSQL database both instances use')
  const database = await openDatabase({ driver: 'postgres', url, poolSize: 1 })
  try {
    ;({ token } = await new AdminTokens(database.db).create('localhost', 'two-instance e2e'))
    const [row] = await database.db
      .select({ id: products.id, categoryId: productGroups.categoryId })
      .from(products)
      .innerJoin(productGroups, eq(productGroups.id, products.groupId))
      .innerJoin(sites, eq(sites.id, products.siteId))
      .where(and(eq(sites.host, 'localhost'), eq(products.sku, sku.sku)))
    listing = row!
    const [polo] = await database.db
      .select({ categoryId: categories.id, garmentId: productGroups.id })
      .from(categories)
      .innerJoin(sites, eq(sites.id, categories.siteId))
      .innerJoin(productGroups, eq(productGroups.categoryId, categories.id))
      .where(
        and(
          eq(sites.host, 'localhost'),
          eq(categories.url, '/personalised-workwear'),
          eq(productGroups.name, 'Polo shirt'),
        ),
      )
    workwear = polo!
  } finally {
    await database.close()
  }
})

function admin(
  request: APIRequestContext,
  origin: string,
  method: 'PUT' | 'POST',
  path: string,
  data: unknown,
) {
  return request.fetch(`${origin}/api/admin/v1${path}`, {
    method,
    data,
    headers: { authorization: `Bearer ${token}` },
  })
}

async function addToBasket(page: Page, origin: string, quantity: number) {
  await page.goto(origin + product.url)
  const field = page.locator(`tr[data-sku="${sku.sku}"]`).getByRole('textbox')
  await field.fill(String(quantity))
  await field.blur()
  await page.getByTestId(`price-grid-${sku.grid}`).getByRole('button', { name: 'Add to Basket' }).click()
  await expect(page).toHaveURL(/\/cart$/, { timeout: 15_000 })
}

test('one shopper on two instances: basket, price change, promotion, login, order and content publish', async ({
  page,
  request,
}) => {
  // Basket: added on A, seen on B (the header summary and the basket page).
  await addToBasket(page, A, 3)
  await page.goto(`${B}/cart`)
  const line = page.getByTestId('cart-line').first()
  await expect(line).toHaveAttribute('data-sku', sku.sku)
  await expect(page.getByTestId('cart-summary')).toContainText('3 items')

  // A price change through B's back-office API shows on A's product page at once.
  const price = normaliseBrackets(sku.priceList)[0]!.price + 123
  const priceList = [{ lowerQty: 1, higherQty: null, price, name: '1+' }]
  const changed = await admin(request, B, 'PUT', '/catalog/skus', { items: [{ sku: sku.sku, priceList }] })
  expect(changed.status()).toBe(200)
  await expect(async () => {
    await page.goto(A + product.url)
    await expect(page.locator(`tr[data-sku="${sku.sku}"]`)).toContainText(gbp(price), { timeout: 500 })
  }).toPass(SEEN_WITHIN)

  // A promotion created on A is applied in the basket on B.
  const promo = await admin(request, A, 'PUT', '/promotions', {
    items: [{ code: 'TWOINST', kind: 'percentage', value: 50, description: 'Two instances' }],
  })
  expect(promo.status()).toBe(200)
  await page.goto(`${B}/cart`)
  const form = page.getByTestId('promo-form')
  await form.getByRole('textbox', { name: 'Promotional code' }).fill('twoinst')
  await form.getByRole('button', { name: 'Apply' }).click()
  await expect(form.getByText('TWOINST')).toBeVisible()
  // ...and the basket, re-read on A, holds the code.
  await page.goto(`${A}/cart`)
  await expect(page.getByTestId('promo-form').getByText('TWOINST')).toBeVisible()

  // A login on B is a login on A (one session store, one secret).
  await page.goto(`${B}/login`)
  await page.getByLabel('Email').fill('demo@harbour-safety.example')
  await page.getByLabel('Password').fill('Harbour-demo-2026')
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page.getByRole('button', { name: 'My Account' })).toBeVisible()
  await page.goto(`${A}/`)
  await expect(page.getByRole('button', { name: 'My Account' })).toBeVisible()

  // An order placed on A (purchase order, through the checkout's JSON call) is on B's order page.
  const xsrf = async () =>
    decodeURIComponent((await page.context().cookies(A)).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '')
  const added = await page.request.post(`${A}/cart/add`, {
    data: { items: [{ listing_id: listing.id, quantity: 50, category_id: listing.categoryId }] },
    headers: { 'x-xsrf-token': await xsrf(), accept: 'application/json' },
  })
  expect(added.status()).toBe(200)
  const cart = (await added.json()) as {
    id: string
    cart_total_price_inc_tax: number
    shippingRates: { id: number; selected: boolean }[]
  }
  const placed = await page.request.post(`${A}/checkout/complete`, {
    headers: { 'x-xsrf-token': await xsrf(), accept: 'application/json' },
    data: {
      cart_id: cart.id,
      payment_method: 'purchase_order',
      contact: {
        firstName: 'Demo',
        lastName: 'Customer',
        email: 'demo@harbour-safety.example',
        phone: '01632 960 900',
        company: 'Harbour Demo Ltd',
      },
      shipping_address: {
        company: 'Harbour Demo Ltd',
        address1: '1 Quay Street',
        address2: '',
        town: 'Plymouth',
        county: 'Devon',
        postcode: 'PL1 2AA',
        country: 'GB',
      },
      showingBillingAddress: false,
      transactions: [
        {
          amount: cart.cart_total_price_inc_tax,
          paymentDetails: { PONumber: 'TWO-INSTANCES' },
          paymentProvider: 'purchase_order',
          message: '',
          authCode: 'empty',
        },
      ],
      delivery_option: cart.shippingRates.find((r) => r.selected)?.id ?? 1,
      Notes: '',
    },
  })
  expect(placed.status(), await placed.text()).toBe(200)
  const orderNumber = ((await placed.json()) as { order: { OrderNumber: number } }).order.OrderNumber
  const orderPage = await page.goto(`${B}/checkout/complete/${orderNumber}`)
  expect(orderPage?.status()).toBe(200)
  await expect(page.getByText(String(orderNumber)).first()).toBeVisible()

  // Content published through A's API is on B's next page.
  const published = await admin(request, A, 'PUT', '/content/stories', {
    items: [
      {
        fullSlug: 'two-instances-news',
        name: 'Two instances news',
        publish: true,
        content: {
          component: 'page',
          title: 'Two instances news',
          body: [
            {
              component: 'text',
              text: {
                type: 'doc',
                content: [
                  {
                    type: 'paragraph',
                    content: [{ type: 'text', text: 'Published once, seen everywhere.' }],
                  },
                ],
              },
            },
          ],
        },
      },
    ],
  })
  expect(published.status()).toBe(200)
  await expect(async () => {
    await page.goto(`${B}/two-instances-news`)
    await expect(page.getByText('Published once, seen everywhere.')).toBeVisible({ timeout: 500 })
  }).toPass(SEEN_WITHIN)
})

test('a workwear logo uploaded through one instance is read through the other, from the shared bucket', async ({
  page,
}) => {
  await page.goto(`${A}/`)
  const xsrf = decodeURIComponent(
    (await page.context().cookies(A)).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '',
  )
  const logo = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#0a7' } })
    .png()
    .toBuffer()
  const saved = await page.request.post(`${A}/custom-workwear/${workwear.categoryId}`, {
    headers: { 'x-xsrf-token': xsrf, accept: 'application/json' },
    data: {
      garment: workwear.garmentId,
      colour: 'Navy',
      sizes: { M: 2 },
      positions: ['left-chest'],
      text: '',
      logo: { type: 'image/png', data: logo.toString('base64'), name: 'logo.png' },
    },
  })
  expect(saved.status(), await saved.text()).toBe(200)
  const sessionId = ((await saved.json()) as { session_id: string }).session_id

  // The logo itself and the design's preview, both read through B.
  const onB = await page.request.get(`${B}/custom-workwear/logo/${sessionId}`)
  expect(onB.status()).toBe(200)
  expect(onB.headers()['content-type']).toBe('image/png')
  expect(await sharp(await onB.body()).metadata()).toMatchObject({ width: 64, height: 32 })
  const preview = await page.request.get(`${B}/custom-workwear/preview/${sessionId}.svg`)
  expect(preview.status()).toBe(200)
  expect(await preview.text()).toContain('<image href="data:image/png;base64,')

  // Neither instance wrote it to its own folder: it came through the bucket.
  for (const folder of ['var/e2e-instances-uploads-1', 'var/e2e-instances-uploads-2']) {
    expect(existsSync(folder) ? readdirSync(folder, { recursive: true }) : []).toEqual([])
  }
})

test('both instances send the browser to the one payment simulator service', async ({ page, request }) => {
  // The service both instances point at answers (ADR 0195)...
  expect((await request.get(`${SIMULATOR_URL}/readyz`)).status()).toBe(200)
  // ...and each instance's checkout lets the browser load the simulated providers from it alone:
  // a simulator of its own would be another origin in the checkout's policy.
  await addToBasket(page, A, 2)
  for (const origin of [A, B]) {
    const res = await page.goto(`${origin}/checkout`)
    expect(res?.status()).toBe(200)
    const policy = res!.headers()['content-security-policy'] ?? ''
    const frames = /frame-src ([^;]*)/.exec(policy)?.[1]?.split(' ') ?? []
    expect(frames).toContain(SIMULATOR_URL)
    expect(frames.filter((o) => /^http:\/\/(127\.0\.0\.1|localhost):\d+$/.test(o))).toEqual([SIMULATOR_URL])
  }
})
