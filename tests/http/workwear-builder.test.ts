import { and, eq, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cartItems, carts, categories, mailOutbox, workwearSessions } from '../../src/server/db/schema.ts'
import type { Cart } from '../../src/shared/cart.ts'
import { WORKWEAR_TEXT } from '../../src/shared/workwear.ts'
import type { WorkwearBuilderProps } from '../../src/shared/workwear-builder.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'
import { siteIdFor } from '../factories/product.ts'

let t: TestApp
let categoryId: number
let garmentId: number
let png: string

beforeAll(async () => {
  t = await buildTestApp()
  const siteId = await siteIdFor(t.app.db)
  const [category] = await t.app.db
    .select({ id: categories.id })
    .from(categories)
    .where(and(eq(categories.siteId, siteId), eq(categories.url, '/personalised-workwear')))
  categoryId = category!.id
  const v = await new Visitor(t.app).start()
  const page = (await v.visit(`/custom-workwear/${categoryId}`)).json() as { props: WorkwearBuilderProps }
  garmentId = page.props.garments.find((g) => g.name === 'Polo shirt')!.id
  png = (
    await sharp({ create: { width: 64, height: 32, channels: 3, background: '#c00' } })
      .png()
      .toBuffer()
  ).toString('base64')
})
afterAll(() => t?.close())

const visitor = () => new Visitor(t.app).start()
const save = (over: Record<string, unknown> = {}) => ({
  garment: garmentId,
  colour: 'Navy',
  sizes: { M: 6, L: 4 },
  positions: ['left-chest', 'back'],
  text: 'ACME Site Services',
  logo: { type: 'image/png', data: png, name: 'logo.png' },
  ...over,
})

describe('the custom workwear builder', () => {
  it('opens for a workwear category with its garments, sizes, colours and positions', async () => {
    const v = await visitor()
    const res = await v.visit(`/custom-workwear/${categoryId}`)
    expect(res.statusCode).toBe(200)
    const page = res.json() as { component: string; props: WorkwearBuilderProps }
    expect(page.component).toBe('WorkwearBuilder')
    expect(page.props.garments.find((g) => g.id === garmentId)!.sizes.map((s) => s.size)).toEqual([
      'S',
      'M',
      'L',
      'XL',
      'XXL',
    ])
    expect(page.props.config.positions.map((p) => p.id)).toContain('left-chest')
  })

  it('adds one line per size, priced by the total’s bracket with the customisation in customisation_total', async () => {
    const v = await visitor()
    const res = await v.post(`/custom-workwear/${categoryId}`, save())
    expect(res.statusCode).toBe(200)
    const cart = res.json() as Cart & { session_id: string }
    expect(cart.session_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(cart.items.map((i) => [i.work_wear!.size, i.quantity])).toEqual([
      ['M', 6],
      ['L', 4],
    ])
    // 10 garments: the 10-24 bracket (£11.50 −10 %), plus left chest £3.50, back £5.95, text £2.50.
    expect(cart.items[0]!.product.price).toBe(Math.round(1150 * 0.9))
    expect(cart.customisation_total).toBe((350 + 595 + 250) * 10)
    expect(cart.items[0]!.work_wear!.customisation.map((c) => c.name)).toEqual([
      'Logo: Left chest',
      'Logo: Back',
      'Text: ACME Site Services',
    ])
    expect(cart.items[0]!.work_wear_url).toBe(`/custom-workwear/${categoryId}?session_id=${cart.session_id}`)
  })

  it('reopens the design from the basket link and saving replaces its lines, keeping the logo', async () => {
    const v = await visitor()
    const first = (await v.post(`/custom-workwear/${categoryId}`, save())).json() as Cart & {
      session_id: string
    }
    const page = (await v.visit(first.items[0]!.work_wear_url!)).json() as { props: WorkwearBuilderProps }
    expect(page.props.editing).toMatchObject({
      sessionId: first.session_id,
      design: { colour: 'Navy', sizes: { M: 6, L: 4 }, positions: ['left-chest', 'back'] },
      logoUrl: `/custom-workwear/logo/${first.session_id}`,
    })
    const res = await v.post(
      `/custom-workwear/${categoryId}`,
      save({ session_id: first.session_id, sizes: { XL: 2 }, logo: undefined, colour: 'Black' }),
    )
    expect(res.statusCode).toBe(200)
    const cart = res.json() as Cart
    expect(cart.items.map((i) => [i.work_wear!.size, i.work_wear!.colour, i.quantity])).toEqual([
      ['XL', 'Black', 2],
    ])
    const logo = await v.request('GET', `/custom-workwear/logo/${first.session_id}`)
    expect(logo.statusCode).toBe(200)
    expect(logo.headers['content-type']).toBe('image/png')
    const preview = await v.request('GET', `/custom-workwear/preview/${first.session_id}.svg`)
    expect(preview.headers['content-security-policy']).toContain('sandbox')
    expect(preview.body).toContain('<image href="data:image/png;base64,')
  })

  it('sanitises an SVG logo with a script before storing it', async () => {
    const v = await visitor()
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)"><script>alert(1)</script><rect width="10" height="10" fill="red"/><a href="javascript:alert(1)"><circle r="3"/></a></svg>',
    ).toString('base64')
    const cart = (
      await v.post(`/custom-workwear/${categoryId}`, save({ logo: { type: 'image/svg+xml', data: svg } }))
    ).json() as Cart & { session_id: string }
    const [row] = await t.app.db
      .select()
      .from(workwearSessions)
      .where(eq(workwearSessions.id, cart.session_id))
    const stored = (await t.app.uploads.get(row!.logoKey!))!.data.toString('utf8')
    expect(stored).not.toMatch(/script|onload|javascript|href/i)
    expect(stored).toContain('<rect width="10" height="10" fill="red" />')
  })

  describe('refuses a bad upload or design with a clear message and changes nothing', () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      [
        'a wrong file type',
        { logo: { type: 'application/pdf', data: 'JVBERi0=' } },
        'logo',
        WORKWEAR_TEXT.logoType,
      ],
      [
        'a file that is not what its type says',
        { logo: { type: 'image/png', data: Buffer.from('<?php echo 1; ?>').toString('base64') } },
        'logo',
        WORKWEAR_TEXT.logoUnreadable,
      ],
      [
        'a broken PNG',
        { logo: { type: 'image/png', data: Buffer.from('\x89PNG\r\n\x1a\nbroken').toString('base64') } },
        'logo',
        WORKWEAR_TEXT.logoUnreadable,
      ],
      [
        'an SVG with nothing drawable',
        {
          logo: {
            type: 'image/svg+xml',
            data: Buffer.from('<svg><script>x()</script></svg>').toString('base64'),
          },
        },
        'logo',
        WORKWEAR_TEXT.logoUnreadable,
      ],
      [
        'a logo over 2 MB',
        { logo: { type: 'image/png', data: Buffer.alloc(2 * 1024 * 1024 + 10).toString('base64') } },
        'logo',
        WORKWEAR_TEXT.logoTooLarge,
      ],
      ['no logo', { logo: undefined }, 'logo', WORKWEAR_TEXT.logoRequired],
      ['no sizes', { sizes: { M: 0 } }, 'sizes', WORKWEAR_TEXT.sizes],
      ['an unknown size', { sizes: { XXXXL: 2 } }, 'sizes', WORKWEAR_TEXT.sizes],
      ['no position', { positions: [] }, 'positions', WORKWEAR_TEXT.positions],
      ['an unknown position', { positions: ['forehead'] }, 'positions', WORKWEAR_TEXT.positions],
      ['an unknown colour', { colour: 'Plaid' }, 'colour', WORKWEAR_TEXT.colour],
      ['text too long', { text: 'x'.repeat(31) }, 'text', WORKWEAR_TEXT.text],
    ]
    for (const [name, over, field, message] of cases) {
      it(name, async () => {
        const v = await visitor()
        const res = await v.post(`/custom-workwear/${categoryId}`, save(over))
        expect(res.statusCode).toBe(422)
        expect((res.json() as { errors: Record<string, string[]> }).errors[field]).toContain(message)
        expect(((await v.post('/cart/init')).json() as Cart).items).toEqual([])
      })
    }

    it('an upload far over the limit is refused unread', async () => {
      const v = await visitor()
      const res = await v.post(
        `/custom-workwear/${categoryId}`,
        save({ logo: { type: 'image/png', data: 'A'.repeat(4 * 1024 * 1024) } }),
      )
      expect(res.statusCode).toBe(413)
    })
  })

  it("does not let a visitor open, change, see or print another visitor's workwear (404)", async () => {
    const owner = await visitor()
    const cart = (await owner.post(`/custom-workwear/${categoryId}`, save())).json() as Cart & {
      session_id: string
    }
    const id = cart.session_id
    const stranger = await visitor()
    await stranger.post(`/custom-workwear/${categoryId}`, save())
    expect((await stranger.visit(`/custom-workwear/${categoryId}?session_id=${id}`)).statusCode).toBe(404)
    expect((await stranger.post(`/custom-workwear/${categoryId}`, save({ session_id: id }))).statusCode).toBe(
      404,
    )
    expect((await stranger.request('GET', `/custom-workwear/logo/${id}`)).statusCode).toBe(404)
    expect((await stranger.request('GET', `/custom-workwear/preview/${id}.svg`)).statusCode).toBe(404)
    const mine = (await owner.post('/cart/init')).json() as Cart
    expect(mine.items.map((i) => i.quantity)).toEqual([6, 4])
  })
})

describe('copied baskets and their workwear designs', () => {
  const DEMO = { email: 'demo@harbour-safety.example', password: 'Harbour-demo-2026' }

  async function sessionsOf(cartId: string) {
    return t.app.db.select().from(workwearSessions).where(eq(workwearSessions.cartId, cartId))
  }

  async function sessionRow(id: string) {
    const [row] = await t.app.db.select().from(workwearSessions).where(eq(workwearSessions.id, id))
    return row!
  }

  it('a share link copies the design and logo, so the friend’s changes leave the original alone', async () => {
    const v = await visitor()
    const original = (await v.post(`/custom-workwear/${categoryId}`, save())).json() as Cart & {
      session_id: string
    }
    const share = await v.post('/cart/share', { emails: 'crew-share@example.com', name: 'Pat' })
    expect(share.statusCode).toBe(200)
    const [mail] = await t.app.db
      .select()
      .from(mailOutbox)
      .where(sql`${mailOutbox.to} @> '["crew-share@example.com"]'::jsonb`)
    const path = new URL(/http:\/\/localhost\/cart\/shared\/[\w-]+/.exec(mail!.text)![0]).pathname
    const token = path.split('/').pop()!
    const [shared] = await t.app.db.select().from(carts).where(eq(carts.shareToken, token))
    const sharedSessions = await sessionsOf(shared!.id)
    expect(sharedSessions).toHaveLength(1)
    expect(sharedSessions[0]!.id).not.toBe(original.session_id)
    const source = await sessionRow(original.session_id)
    expect(sharedSessions[0]!.design).toEqual(source.design)
    expect(sharedSessions[0]!.logoKey).toBe(source.logoKey)
    expect(await t.app.uploads.get(sharedSessions[0]!.logoKey!)).not.toBeNull()

    // The friend takes the basket: a copy again, with sessions of its own, that opens and saves.
    const friend = await visitor()
    expect((await friend.post(path, {})).statusCode).toBe(303)
    const copy = (await friend.post('/cart/init')).json() as Cart
    const copiedId = copy.items[0]!.work_wear_session!.id
    expect(copy.items.every((i) => i.work_wear_session!.id === copiedId)).toBe(true)
    expect([original.session_id, sharedSessions[0]!.id]).not.toContain(copiedId)
    const page = (await friend.visit(copy.items[0]!.work_wear_url!)).json() as {
      props: WorkwearBuilderProps
    }
    expect(page.props.editing).toMatchObject({ sessionId: copiedId, design: { colour: 'Navy' } })
    const changed = await friend.post(
      `/custom-workwear/${categoryId}`,
      save({ session_id: copiedId, sizes: { XL: 2 }, logo: undefined, colour: 'Black' }),
    )
    expect(changed.statusCode).toBe(200)
    expect((changed.json() as Cart).items.map((i) => [i.work_wear!.size, i.work_wear!.colour])).toEqual([
      ['XL', 'Black'],
    ])

    // The original visitor's basket, design and the shared copy are unchanged.
    const mine = (await v.post('/cart/init')).json() as Cart
    expect(mine.items.map((i) => [i.work_wear!.size, i.work_wear!.colour, i.quantity])).toEqual([
      ['M', 'Navy', 6],
      ['L', 'Navy', 4],
    ])
    expect((await sessionRow(original.session_id)).design).toMatchObject({
      colour: 'Navy',
      sizes: { M: 6, L: 4 },
    })
    expect((await sessionRow(sharedSessions[0]!.id)).design.colour).toBe('Navy')
    // Neither can reach the other's design.
    expect((await v.visit(`/custom-workwear/${categoryId}?session_id=${copiedId}`)).statusCode).toBe(404)
    expect(
      (await friend.visit(`/custom-workwear/${categoryId}?session_id=${original.session_id}`)).statusCode,
    ).toBe(404)
  })

  it('saving a basket keeps a copy of the design that later edits of the basket do not change', async () => {
    const v = await visitor()
    const login = await v.post('/login', { ...DEMO, remember: '', redirect: false })
    expect(login.statusCode).toBe(303)
    const original = (await v.post(`/custom-workwear/${categoryId}`, save())).json() as Cart & {
      session_id: string
    }
    const res = await v.post('/cart/save', { basketName: 'Crew kit' })
    expect(res.statusCode).toBe(200)
    const savedId = (res.json() as { id: string }).id
    const savedLines = await t.app.db.select().from(cartItems).where(eq(cartItems.cartId, savedId))
    const savedSessions = await sessionsOf(savedId)
    expect(savedSessions).toHaveLength(1)
    expect(savedSessions[0]!.id).not.toBe(original.session_id)
    expect(savedLines.map((l) => l.workWearSession!.id)).toEqual([savedSessions[0]!.id, savedSessions[0]!.id])
    expect(savedSessions[0]!.logoKey).not.toBeNull()

    const edited = await v.post(
      `/custom-workwear/${categoryId}`,
      save({ session_id: original.session_id, sizes: { S: 1 }, logo: undefined, colour: 'Black' }),
    )
    expect(edited.statusCode).toBe(200)
    expect((await sessionRow(savedSessions[0]!.id)).design).toMatchObject({
      colour: 'Navy',
      sizes: { M: 6, L: 4 },
    })
    const after = await t.app.db.select().from(cartItems).where(eq(cartItems.cartId, savedId))
    expect(after.map((l) => [l.workWearSession!.builder_json.size, l.quantity])).toEqual([
      ['M', 6],
      ['L', 4],
    ])
  })
})
