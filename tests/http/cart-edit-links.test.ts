/**
 * A basket line's Edit link is the shop's own (issue 29, defect 6): built from the product's page
 * or the sign designer's route and the line's id, never from an address a browser sent. Not on
 * the basket, not on a shared copy, not in the share e-mail, and not for lines stored before.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cartItems, mailOutbox } from '../../src/server/db/schema.ts'
import type { Cart } from '../../src/shared/cart.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'
import { insertCategory, insertGroup, insertSku, siteIdFor } from '../factories/product.ts'
import type { ProductRow, ProductGroupRow } from '../../src/server/modules/catalog/catalog.tables.ts'

let t: TestApp
let categoryId: number
let group: ProductGroupRow
let sign: ProductRow

beforeAll(async () => {
  t = await buildTestApp()
  const db = t.app.db
  const siteId = await siteIdFor(db)
  categoryId = (await insertCategory(db, { siteId })).id
  group = await insertGroup(db, { siteId, categoryId })
  sign = await insertSku(db, { siteId, groupId: group.id })
})
afterAll(() => t?.close())

const HOSTILE = ['//evil.example/phish', '/\\evil.example/phish', '/\\/evil.example', '/%0a//evil.example']

const signLine = (url: string) => ({
  listing_id: sign.id,
  quantity: 2,
  category_id: categoryId,
  sequence_id: 'seq-1',
  printable_sign: { url, signReads: 'FIRE EXIT' },
})

async function visitor() {
  return new Visitor(t.app).start()
}

/** Puts a sign line on the visitor's basket as an older release stored it: the browser's address kept. */
async function storedLine(v: Visitor, printableSign: Record<string, unknown>): Promise<Cart> {
  const cart = (
    await v.post('/cart/add', { items: [{ listing_id: sign.id, quantity: 1, category_id: categoryId }] })
  ).json() as Cart
  await t.app.db
    .update(cartItems)
    .set({ printableSign: printableSign as never })
    .where(eq(cartItems.id, cart.items[0]!.id))
  t.app.carts.forgetShownBaskets()
  return (await v.post('/cart/init')).json() as Cart
}

describe('the Edit link of a sign line', () => {
  it('refuses a sign address that leaves the shop, and adds nothing', async () => {
    const v = await visitor()
    for (const url of HOSTILE.slice(0, 3)) {
      const res = await v.post('/cart/add', { items: [signLine(url)] })
      expect(res.statusCode, url).toBe(422)
      expect(res.json().errors['items.0.printable_sign.url']).toEqual(['The sign address is not valid.'])
    }
    expect(((await v.post('/cart/init')).json() as Cart).items).toEqual([])
  })

  it('builds the link from the product’s page and the line’s id, and keeps no address from the browser', async () => {
    const v = await visitor()
    const res = await v.post('/cart/add', { items: [signLine('/some/where/else?x=1')] })
    expect(res.statusCode).toBe(200)
    const item = (res.json() as Cart).items[0]!
    expect(item.edit_url).toBe(`${group.url}?item_id=${item.id}`)
    expect(item.printable_sign).toEqual({ url: group.url, signReads: 'FIRE EXIT' })
    const [row] = await t.app.db.select().from(cartItems).where(eq(cartItems.id, item.id))
    expect(row!.printableSign).toEqual({ signReads: 'FIRE EXIT' })
  })

  it('renders no address an older line stored, on the basket call, the Cart page and its HTML', async () => {
    const v = await visitor()
    const cart = await storedLine(v, { url: '//evil.example/phish', signReads: 'FIRE EXIT' })
    const item = cart.items[0]!
    expect(item.edit_url).toBe(`${group.url}?item_id=${item.id}`)
    expect(JSON.stringify(cart)).not.toContain('evil.example')
    const page = await v.visit('/cart')
    expect(page.json().props.basket.items[0].edit_url).toBe(`${group.url}?item_id=${item.id}`)
    expect(page.body).not.toContain('evil.example')
    const html = await v.request('GET', '/cart', undefined, { accept: 'text/html' })
    expect(html.statusCode).toBe(200)
    expect(html.body).toContain(`${group.url}?item_id=${item.id}`)
    expect(html.body).not.toContain('evil.example')
  })

  it('links a designed sign to the designer with its line id, whatever address it stored', async () => {
    const v = await visitor()
    const cart = await storedLine(v, {
      url: '/\\evil.example/phish',
      signReads: 'FIRE EXIT',
      design: {
        design: {},
        size: { width: 200, height: 100 },
        sizeLabel: '200 x 100 mm',
        material: 'Rigid',
        sku: sign.sku,
      },
    })
    const item = cart.items[0]!
    expect(item.edit_url).toBe(`/design-a-sign/${categoryId}?item_id=${item.id}`)
    expect(item.printable_sign!.url).toBe(`/design-a-sign/${categoryId}`)
    expect(JSON.stringify(cart)).not.toContain('evil.example')
  })

  it('keeps the address out of a shared copy and the share e-mail; the copy links with its own line id', async () => {
    const v = await visitor()
    const cart = await storedLine(v, { url: '//evil.example/phish', signReads: 'FIRE EXIT' })
    const share = await v.post('/cart/share', {
      emails: 'edit.links@example.com',
      name: 'Sam',
      cart_id: cart.id,
    })
    expect(share.statusCode).toBe(200)
    const [mail] = await t.app.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.subject, 'Sam has shared a basket with you'))
    expect(mail).toBeDefined()
    expect(`${mail!.text}${mail!.html}${mail!.raw}`).not.toContain('evil.example')
    const link = new URL(/http:\/\/localhost\/cart\/shared\/[\w-]+/.exec(mail!.text)![0]).pathname

    const friend = await visitor()
    expect((await friend.post(link, {})).statusCode).toBe(303)
    const copy = (await friend.post('/cart/init')).json() as Cart
    const line = copy.items[0]!
    expect(line.id).not.toBe(cart.items[0]!.id)
    expect(line.edit_url).toBe(`${group.url}?item_id=${line.id}`)
    expect(JSON.stringify(copy)).not.toContain('evil.example')
    const stored = await t.app.db.select().from(cartItems).where(eq(cartItems.cartId, copy.id!))
    expect(JSON.stringify(stored)).not.toContain('evil.example')
    const page = await friend.visit('/cart')
    expect(page.body).not.toContain('evil.example')
    // No line made since the older one (the share link's copy, the friend's copy) holds the address.
    const copies = (await t.app.db.select().from(cartItems)).filter((i) => i.id > cart.items[0]!.id)
    expect(copies.length).toBeGreaterThanOrEqual(2)
    expect(JSON.stringify(copies)).not.toContain('evil.example')
  })
})
