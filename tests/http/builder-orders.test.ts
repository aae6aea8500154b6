/**
 * Builder lines in orders: a placed order keeps each sign's and workwear line's data and a small
 * preview (ADR 0039), shows it on the order's lines and in its e-mails, and keeps the workwear
 * logo when the basket's session is gone. The preview's URL is its own permission.
 */
import { and, eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  categories,
  mailJobs,
  orderBuilderLines,
  orderWorkwearDesigns,
  workwearSessions,
} from '../../src/server/db/schema.ts'
import type { Cart } from '../../src/shared/cart.ts'
import type { OrderData } from '../../src/shared/checkout.ts'
import type { WorkwearBuilderProps } from '../../src/shared/workwear-builder.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'
import { siteIdFor } from '../factories/product.ts'

let t: TestApp
let signCategory: number
let workwearCategory: number
let garmentId: number
let png: string

async function categoryAt(siteId: number, url: string) {
  const [row] = await t.app.db
    .select({ id: categories.id })
    .from(categories)
    .where(and(eq(categories.siteId, siteId), eq(categories.url, url)))
  return row!.id
}

beforeAll(async () => {
  t = await buildTestApp()
  const siteId = await siteIdFor(t.app.db)
  signCategory = await categoryAt(siteId, '/design-your-own-sign')
  workwearCategory = await categoryAt(siteId, '/personalised-workwear')
  const v = await new Visitor(t.app).start()
  const page = (await v.visit(`/custom-workwear/${workwearCategory}`)).json() as {
    props: WorkwearBuilderProps
  }
  garmentId = page.props.garments.find((g) => g.name === 'Polo shirt')!.id
  png = (
    await sharp({ create: { width: 300, height: 150, channels: 3, background: '#0a5' } })
      .png()
      .toBuffer()
  ).toString('base64')
})
afterAll(() => t?.close())

let n = 0
function orderForm(cart: Cart) {
  return {
    cart_id: cart.id,
    payment_method: 'purchase_order',
    contact: {
      firstName: 'Sam',
      lastName: 'Signs',
      email: `builder-order${++n}@example.com`,
      phone: '01632 960 902',
      company: 'Signs Ltd',
    },
    shipping_address: {
      company: 'Signs Ltd',
      address1: '1 Quay Road',
      address2: '',
      town: 'Plymouth',
      county: 'Devon',
      postcode: 'PL1 3AA',
      country: 'GB',
    },
    showingBillingAddress: false,
    transactions: [
      {
        amount: cart.cart_total_price_inc_tax,
        paymentDetails: { PONumber: 'PO-1' },
        paymentProvider: 'purchase_order',
        message: '',
        authCode: 'empty',
      },
    ],
    delivery_option: cart.shippingRates.find((r) => r.selected)?.id ?? 1,
    Notes: '',
  }
}

/** A visitor with a sign and a two-size workwear design in the basket, who then orders. */
async function placeBuilderOrder() {
  const v = await new Visitor(t.app).start()
  const sign = await v.post('/design-a-sign/add', {
    items: [
      {
        sku: 'DAS-300x200-RP',
        catid: signCategory,
        qty: 3,
        url: `/design-a-sign/${signCategory}`,
        design: {
          type: 'fire',
          layout: 'symbol-text',
          orientation: 'landscape',
          symbol: 'fire-extinguisher',
          lines: ['Fire', 'extinguisher'],
        },
      },
    ],
  })
  expect(sign.statusCode).toBe(200)
  const wear = await v.post(`/custom-workwear/${workwearCategory}`, {
    garment: garmentId,
    colour: 'Navy',
    sizes: { M: 6, L: 4 },
    positions: ['left-chest', 'back'],
    text: 'Harbour Crew',
    logo: { type: 'image/png', data: png, name: 'logo.png' },
  })
  expect(wear.statusCode).toBe(200)
  const cart = wear.json() as Cart & { session_id: string }
  const res = await v.post('/checkout/complete', orderForm(cart))
  expect(res.statusCode).toBe(200)
  return { v, order: (res.json() as { order: OrderData }).order, sessionId: cart.session_id }
}

describe('builder lines in a placed order', () => {
  it('show a preview with a text alternative on each sign and workwear line, and none on others', async () => {
    const { order } = await placeBuilderOrder()
    expect(order.items).toHaveLength(3)
    const [sign, medium, large] = order.items
    expect(sign!.preview).toEqual({
      url: expect.stringMatching(/^\/order-preview\/[A-Za-z0-9_-]{22}\.png$/),
      alt: 'Sign reads: Fire / extinguisher',
    })
    expect(medium!.preview!.alt).toBe('Polo shirt in Navy, logo on the left chest, back')
    expect(large!.preview!.alt).toBe(medium!.preview!.alt)
    // Every line has its own unguessable token.
    expect(new Set(order.items.map((i) => i.preview!.url)).size).toBe(3)
  })

  it('serves the preview as a small PNG to anyone with its URL (e-mail clients have no session)', async () => {
    const { order } = await placeBuilderOrder()
    const stranger = await new Visitor(t.app).start()
    for (const item of order.items) {
      const res = await stranger.visit(item.preview!.url)
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toBe('image/png')
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      const meta = await sharp(res.rawPayload).metadata()
      expect(meta.format).toBe('png')
      expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(240)
    }
    // Drawn once, then kept.
    const [row] = await t.app.db
      .select({ png: orderBuilderLines.previewPng })
      .from(orderBuilderLines)
      .where(eq(orderBuilderLines.previewToken, /\/([^/.]+)\.png$/.exec(order.items[0]!.preview!.url)![1]!))
    expect(row!.png).not.toBeNull()
  })

  it('answers 404 for a made-up or malformed token, and for another site’s preview', async () => {
    const { order } = await placeBuilderOrder()
    const v = await new Visitor(t.app).start()
    for (const path of [
      '/order-preview/AAAAAAAAAAAAAAAAAAAAAA.png',
      '/order-preview/..%2F..%2Fetc%2Fpasswd.png',
      `${order.items[0]!.preview!.url}.svg`,
      order.items[0]!.preview!.url.replace('.png', '.svg'),
    ]) {
      expect((await v.visit(path)).statusCode, path).toBe(404)
    }
    const otherSite = await new Visitor(t.app, '127.0.0.1').start()
    expect((await otherSite.visit(order.items[0]!.preview!.url)).statusCode).toBe(404)
  })

  it('puts the previews, with absolute URLs and their text alternatives, into the order e-mails', async () => {
    const { order } = await placeBuilderOrder()
    const [ack] = await t.app.db
      .select({ message: mailJobs.message })
      .from(mailJobs)
      .where(eq(mailJobs.dedupeKey, `order:${order.id}:acknowledgement`))
    const html = ack!.message.html!
    for (const item of order.items) {
      expect(html).toContain(`<img src="http://localhost${item.preview!.url}"`)
    }
    expect(html).toContain('alt="Sign reads: Fire / extinguisher"')
    expect(ack!.message.text).toContain('Polo shirt in Navy, logo on the left chest, back')
  })

  it('keeps the workwear design and logo with the order when the basket’s session is gone', async () => {
    const { order, sessionId } = await placeBuilderOrder()
    await t.app.db.delete(workwearSessions).where(eq(workwearSessions.id, sessionId))
    const [kept] = await t.app.db
      .select()
      .from(orderWorkwearDesigns)
      .where(and(eq(orderWorkwearDesigns.orderId, order.id), eq(orderWorkwearDesigns.sessionId, sessionId)))
    expect(kept!.design).toMatchObject({ colour: 'Navy', sizes: { M: 6, L: 4 }, text: 'Harbour Crew' })
    expect(kept!.logoType).toBe('image/png')
    const logo = await t.app.uploads.get(kept!.logoKey!)
    expect((await sharp(logo!.data).metadata()).width).toBe(300)
    const stranger = await new Visitor(t.app).start()
    expect((await stranger.visit(order.items[1]!.preview!.url)).statusCode).toBe(200)
  })
})
