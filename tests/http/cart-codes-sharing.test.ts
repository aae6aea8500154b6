import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { carts, mailOutbox, promotions } from '../../src/server/db/schema.ts'
import type { Cart } from '../../src/shared/cart.ts'
import { Visitor } from '../helpers/visitor.ts'
import {
  t,
  siteId,
  sign,
  cheap,
  visitor,
  line,
  cartOf,
  withCustomer,
  useCartFixture,
} from './cart.fixture.ts'

useCartFixture()

describe('promotional codes', () => {
  async function basket(quantity = 5) {
    const v = await visitor()
    await v.post('/cart/add', { items: [line(sign.id, quantity)] })
    return v
  }

  it('applies a percentage code, case-insensitively, and removes it with an empty list', async () => {
    const v = await basket()
    const applied = (await v.post('/cart/update-cart', { promotionCodes: ['save10'] })).json() as Cart
    expect(applied.promotionCodes).toEqual(['SAVE10'])
    expect(applied.errors.promotionCodes).toEqual([])
    expect(applied.cart_total_discount).toBe(500)
    expect(applied.cart_total_discount_inc_tax).toBe(600)
    expect(applied.items[0]!.line_total).toBe(4500)
    const removed = (await v.post('/cart/add', { promotionCodes: [] })).json() as Cart
    expect(removed.promotionCodes).toEqual([])
    expect(removed.cart_total_discount).toBe(0)
  })

  it('reports an unknown, expired or under-spent code with its message and code', async () => {
    const v = await basket(1)
    for (const code of ['NOPE', 'EXPIRED5', 'TENOFF']) {
      const cart = (await v.post('/cart/update-cart', { promotionCodes: [code] })).json() as Cart
      expect(cart.promotionCodes).toEqual([])
      expect(cart.errors.promotionCodes).toEqual([
        { message: 'Promo code is not valid or applicable to your cart', code },
      ])
    }
  })

  it('refuses a code of 51 characters with the spec’s message, and keeps 50', async () => {
    const v = await basket()
    const res = await v.post('/cart/update-cart', { promotionCodes: ['X'.repeat(51)] })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors['promotionCodes.0']).toEqual([
      'Promotional Code must be less than 50 characters',
    ])
    expect((await v.post('/cart/update-cart', { promotionCodes: ['X'.repeat(50)] })).statusCode).toBe(200)
  })

  it('ignores a blank code', async () => {
    const v = await basket()
    const cart = (await v.post('/cart/update-cart', { promotionCodes: ['   '] })).json() as Cart
    expect(cart.promotionCodes).toEqual([])
    expect(cart.errors.promotionCodes).toEqual([])
  })

  it('gives free delivery, and a fixed amount off above its minimum spend', async () => {
    const v = await basket(5)
    const free = (await v.post('/cart/update-cart', { promotionCodes: ['FREEDEL'] })).json() as Cart
    expect(free.cart_total_shipping).toBe(0)
    expect(free.shortForFreeShipping).toBe(0)
    const fixed = (await v.post('/cart/update-cart', { promotionCodes: ['TENOFF'] })).json() as Cart
    expect(fixed.cart_total_discount).toBe(1000)
    expect(fixed.cart_total_shipping).toBe(595)
  })

  it('adds the free gift while the code applies and takes it away when it no longer does', async () => {
    const v = await basket(5)
    const cart = (await v.post('/cart/update-cart', { promotionCodes: ['FREEGIFT'] })).json() as Cart
    const gift = cart.items.find((i) => i.IsFreeGift)!
    expect(gift.line_total).toBe(0)
    expect((await v.post('/cart/update-items', { items: [{ id: gift.id, quantity: 3 }] })).statusCode).toBe(
      422,
    )
    const below = (
      await v.post('/cart/update-items', { items: [{ id: cart.items[0]!.id, quantity: 1 }] })
    ).json() as Cart
    expect(below.items.some((i) => i.IsFreeGift)).toBe(false)
    expect(below.errors.promotionCodes).toEqual([
      { message: 'Promo code is not valid or applicable to your cart', code: 'FREEGIFT' },
    ])
  })

  it('keeps codes per site', async () => {
    const v = await new Visitor(t.app, '127.0.0.1').start()
    const cart = (await v.post('/cart/update-cart', { promotionCodes: ['TENOFF'] })).json() as Cart
    expect(cart.errors.promotionCodes[0]?.code).toBe('TENOFF')
  })

  it('accepts exactly 10 of 100 baskets redeeming a code limited to 10 uses at once', async () => {
    await t.app.db
      .insert(promotions)
      .values({ siteId, code: 'TEN-ONLY', kind: 'percentage', value: 5, usageLimit: 10 })
    const visitors = []
    for (let i = 0; i < 100; i++) visitors.push(await basket(1))
    const results = await Promise.all(
      visitors.map((v) => v.post('/cart/update-cart', { promotionCodes: ['TEN-ONLY'] })),
    )
    expect(results.every((r) => r.statusCode === 200)).toBe(true)
    const accepted = results.filter((r) => (r.json() as Cart).promotionCodes.includes('TEN-ONLY'))
    expect(accepted).toHaveLength(10)
    const refused = results.filter((r) => !(r.json() as Cart).promotionCodes.includes('TEN-ONLY'))
    expect((refused[0]!.json() as Cart).errors.promotionCodes).toEqual([
      { message: 'This promotional code has reached its usage limit', code: 'TEN-ONLY' },
    ])
    const [promo] = await t.app.db
      .select()
      .from(promotions)
      .where(and(eq(promotions.siteId, siteId), eq(promotions.code, 'TEN-ONLY')))
    expect(promo!.timesUsed).toBe(10)
    // Removing the code gives its use back.
    const holder = visitors[results.indexOf(accepted[0]!)]!
    await holder.post('/cart/update-cart', { promotionCodes: [] })
    const [after] = await t.app.db.select().from(promotions).where(eq(promotions.id, promo!.id))
    expect(after!.timesUsed).toBe(9)
  })
})

describe('sharing and saving', () => {
  it('e-mails each recipient a link that loads a shared copy of the basket', async () => {
    const v = await visitor()
    const cart = (await v.post('/cart/add', { items: [line(sign.id, 3)] })).json() as Cart
    const res = await v.post('/cart/share', {
      emails: 'a@example.com, b@example.com',
      name: "Mary O'Neil-Smith",
      cart_id: cart.id,
    })
    expect(res.statusCode).toBe(200)
    const mails = await t.app.db.select().from(mailOutbox)
    const sent = mails.filter((m) => m.to[0] === 'a@example.com' || m.to[0] === 'b@example.com')
    expect(sent).toHaveLength(2)
    expect(sent[0]!.subject).toBe("Mary O'Neil-Smith has shared a basket with you")
    const link = /http:\/\/localhost\/cart\/shared\/[\w-]+/.exec(sent[0]!.text)![0]
    const friend = await visitor()
    // The friend has a basket of their own: opening the link (a GET) only asks.
    const own = (await friend.post('/cart/add', { items: [line(cheap.id, 2)] })).json() as Cart
    const open = await friend.visit(new URL(link).pathname)
    expect(open.json().component).toBe('Cart')
    expect(open.json().props.sharedOffer).toEqual({ action: new URL(link).pathname, count: 3 })
    expect((await cartOf(friend)).id).toBe(own.id)
    // 'Keep my basket' is a link back to /cart: nothing changed. 'Replace my basket' posts.
    const replace = await friend.post(new URL(link).pathname, {})
    expect(replace.statusCode).toBe(303)
    expect(replace.headers.location).toBe('/cart')
    const copy = await cartOf(friend)
    expect(copy.shared).toBe(true)
    expect(copy.id).not.toBe(cart.id)
    expect(copy.items.map((i) => [i.product.sku, i.quantity])).toEqual([[sign.sku, 3]])
    // The copy is the friend's own: changing it leaves the original alone.
    const changed = (
      await friend.post('/cart/update-items', { items: [{ id: copy.items[0]!.id, quantity: 9 }] })
    ).json() as Cart
    expect((await cartOf(v)).items[0]!.quantity).toBe(3)
    const page = await friend.visit('/cart')
    expect(page.json().component).toBe('Cart')
    expect(page.json().props.basket.shared).toBe(true)
    expect(page.json().props.cart).toEqual({ count: 9, total: changed.cart_total_price_inc_tax })
    // Their own basket was kept and comes back.
    expect(page.json().props.restorePrevious).toBe('/cart/previous/restore')
    await friend.post('/cart/previous/restore', {})
    const restored = await cartOf(friend)
    expect(restored.id).toBe(own.id)
    expect(restored.items.map((i) => [i.product.sku, i.quantity])).toEqual([[cheap.sku, 2]])
  })

  it('validates the share form and refuses another visitor’s basket', async () => {
    const v = await visitor()
    await v.post('/cart/add', { items: [line(sign.id, 1)] })
    const bad = await v.post('/cart/share', { emails: 'a@example.com, nope', name: 'Bob <script>' })
    expect(bad.statusCode).toBe(422)
    expect(Object.keys(bad.json().errors).sort()).toEqual(['emails', 'name'])
    const other = await visitor()
    const otherCart = (await other.post('/cart/add', { items: [line(sign.id, 1)] })).json() as Cart
    expect(
      (await v.post('/cart/share', { emails: 'a@example.com', name: 'Bob', cart_id: otherCart.id }))
        .statusCode,
    ).toBe(404)
    const empty = await visitor()
    expect((await empty.post('/cart/share', { emails: 'a@example.com', name: 'Bob' })).statusCode).toBe(404)
  })

  it('sends an unknown share link to the basket with an error', async () => {
    const v = await visitor()
    const res = await v.request('GET', '/cart/shared/AAAAAAAAAAAAAAAAAAAAAA', undefined, {
      accept: 'text/html',
    })
    expect(res.statusCode).toBe(302)
    const page = await v.visit('/cart')
    expect(page.json().flash.cartError).toBe('This shared basket link is not valid or no longer exists.')
  })

  it('saves a basket only for a logged-in customer, under the session’s customer id', async () => {
    const v = await visitor()
    await v.post('/cart/add', { items: [line(sign.id, 2)] })
    const guest = await v.post('/cart/save', { basketName: 'Site office' })
    expect(guest.statusCode).toBe(401)
    await withCustomer(v, 42)
    expect((await v.visit('/cart')).json().props.canSave).toBe(true)
    expect((await v.post('/cart/save', { basketName: 'Site office!' })).statusCode).toBe(422)
    const res = await v.post('/cart/save', { basketName: "Site office 2 - Bob's", customer_id: 7 })
    expect(res.statusCode).toBe(200)
    const [saved] = await t.app.db.select().from(carts).where(eq(carts.id, res.json().id))
    expect(saved).toMatchObject({ kind: 'saved', customerId: 42, basketName: "Site office 2 - Bob's" })
  })
})

describe('the Cart page and the header summary', () => {
  it('keeps an anonymous visitor without a basket free of sessions', async () => {
    const v = await visitor()
    const res = await v.visit('/cart')
    expect(res.json().component).toBe('Cart')
    expect(res.json().props.cart).toEqual({ count: 0, total: 0 })
    expect(res.json().props.basket.items).toEqual([])
    expect(res.json().props.suggestions.length).toBeGreaterThan(0)
    expect(v.cookies.shop_session).toBeUndefined()
  })

  it('shows the basket count and total in the header after a change', async () => {
    const v = await visitor()
    const cart = (await v.post('/cart/add', { items: [line(sign.id, 2)] })).json() as Cart
    const page = (await v.visit('/')).json()
    expect(page.props.cart).toEqual({ count: 2, total: cart.cart_total_price_inc_tax })
  })

  it('answers an unknown host with the site setup page, and its cart calls with 404', async () => {
    const page = await t.app.inject({
      url: '/cart',
      headers: { host: 'nowhere.example', accept: 'text/html' },
    })
    expect(page.statusCode).toBe(404)
    expect(page.body).toContain('SiteSetup')
    const v = await new Visitor(t.app, 'nowhere.example').start()
    const res = await v.post('/cart/init')
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: 'Not Found' })
  })
})

describe('attaching a basket at login', () => {
  it('gives the session’s basket to the customer, never one that is someone else’s', async () => {
    const v = await visitor()
    const cart = (await v.post('/cart/add', { items: [line(sign.id, 1)] })).json() as Cart
    expect(await t.app.carts.attachToCustomer(siteId, cart.id!, 5)).toBe(true)
    expect((await cartOf(v)).customer_id).toBe(5)
    expect(await t.app.carts.attachToCustomer(siteId, cart.id!, 6)).toBe(false)
    expect(await t.app.carts.attachToCustomer(siteId, 'not-a-cart', 6)).toBe(false)
  })
})

describe('sweeping abandoned baskets', () => {
  it('deletes old session baskets and share copies, gives back their code uses, and keeps saved ones', async () => {
    const [promo] = await t.app.db
      .insert(promotions)
      .values({ siteId, code: 'SWEEP5', kind: 'percentage', value: 5, usageLimit: 3 })
      .returning()
    const old = await visitor()
    const oldCart = (
      await old.post('/cart/add', { items: [line(sign.id, 5)], promotionCodes: ['SWEEP5'] })
    ).json() as Cart
    expect(oldCart.promotionCodes).toEqual(['SWEEP5'])
    const fresh = await visitor()
    const freshCart = (await fresh.post('/cart/add', { items: [line(sign.id, 1)] })).json() as Cart
    const keeper = await visitor()
    await keeper.post('/cart/add', { items: [line(sign.id, 1)] })
    await withCustomer(keeper, 77)
    const saved = (await keeper.post('/cart/save', { basketName: 'Keep me' })).json() as { id: string }
    const longAgo = new Date(Date.now() - 90 * 86_400_000)
    await t.app.db.update(carts).set({ updatedAt: longAgo }).where(eq(carts.id, oldCart.id!))
    await t.app.db.update(carts).set({ updatedAt: longAgo }).where(eq(carts.id, saved.id))

    expect(await t.app.carts.sweep(31 * 86_400)).toBeGreaterThanOrEqual(1)
    const ids = (await t.app.db.select({ id: carts.id }).from(carts)).map((c) => c.id)
    expect(ids).not.toContain(oldCart.id)
    expect(ids).toContain(freshCart.id)
    expect(ids).toContain(saved.id)
    const [after] = await t.app.db.select().from(promotions).where(eq(promotions.id, promo!.id))
    expect(after!.timesUsed).toBe(0)
    expect((await cartOf(old)).items).toEqual([])
  })
})
