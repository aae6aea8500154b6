/**
 * The back office's promotions and delivery-rates pages over HTTP: create, change and retire a
 * promotion through the API's own service (its rules, audited), see which orders used it, change
 * a delivery rate (baskets use it at once); bad input and stale edits change nothing, and a
 * viewer is refused on the server.
 */
import { and, desc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deliveryRates, promotions } from '../../src/server/modules/cart/cart.tables.ts'
import { orders, promotionRedemptions } from '../../src/server/modules/orders/orders.tables.ts'
import { staffAudit } from '../../src/server/modules/staff/staff.tables.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { siteIdFor } from '../factories/product.ts'
import { makeStaff, signIn, type StaffBrowser } from './staff.fixture.ts'

let t: TestApp
let viewer: StaffBrowser
let editor: StaffBrowser
let siteId: number

beforeAll(async () => {
  t = await buildTestApp({ trustProxy: true })
  viewer = await signIn(t.app, await makeStaff(t.app, 'viewer'))
  editor = await signIn(t.app, await makeStaff(t.app, 'staff'))
  siteId = await siteIdFor(t.app.db)
})
afterAll(() => t?.close())

const promotionForm = (over: Record<string, unknown> = {}) => ({
  site: siteId,
  code: 'pages10',
  description: 'Ten percent off',
  kind: 'percentage',
  value: '10',
  giftSku: '',
  minimumSpend: '50',
  startsAt: '2026-01-01T00:00',
  endsAt: '',
  usageLimit: '',
  active: true,
  ...over,
})

const promotion = async (code: string) =>
  (
    await t.app.db
      .select()
      .from(promotions)
      .where(and(eq(promotions.siteId, siteId), eq(promotions.code, code)))
  )[0]

const lastAudit = async (action: string) =>
  (
    await t.app.db.select().from(staffAudit).where(eq(staffAudit.action, action)).orderBy(desc(staffAudit.id))
  )[0]

interface PromotionPage {
  promotion: { id: number; version: string; active: boolean; orders: number; uses: { number: number }[] }
  errors: Record<string, string>
  notice: string | null
}

describe('promotions', () => {
  it('refuses a viewer’s new promotion on the server and writes nothing', async () => {
    const res = await viewer.post('/admin/promotions', promotionForm())
    expect(res.statusCode).toBe(403)
    expect(await promotion('PAGES10')).toBeUndefined()
  })

  it('names bad fields by the API’s rules and writes nothing', async () => {
    const res = await editor.post(
      '/admin/promotions',
      promotionForm({ code: 'x', value: '150', startsAt: 'soon', minimumSpend: '-3' }),
    )
    expect(res.statusCode).toBe(422)
    // What cannot be read and what the API's rules refuse, in one answer.
    expect(res.json().props.errors).toEqual({
      startsAt: 'Enter a date and time, or leave it empty.',
      minimumSpend: 'Enter an amount like 50.00, or leave it empty.',
      code: 'Must be 2 to 40 letters, digits, - or _.',
      value: 'A percentage must be 1 to 100.',
    })
    const rules = await editor.post(
      '/admin/promotions',
      promotionForm({ code: 'x', value: '150', endsAt: '2025-01-01T00:00' }),
    )
    expect(rules.statusCode).toBe(422)
    expect(rules.json().props.errors).toMatchObject({
      code: 'Must be 2 to 40 letters, digits, - or _.',
      value: 'A percentage must be 1 to 100.',
      endsAt: 'Must be after the start.',
    })
    expect(await promotion('X')).toBeUndefined()
  })

  it('creates a promotion (upper-cased code, pence), audited, and refuses the same code twice', async () => {
    const res = await editor.post('/admin/promotions', promotionForm())
    expect(res.statusCode).toBe(303)
    const row = await promotion('PAGES10')
    expect(row).toMatchObject({ kind: 'percentage', value: 10, minimumSpend: 5000, active: true })
    expect(row!.startsAt!.toISOString()).toBe('2026-01-01T00:00:00.000Z')
    expect(res.headers.location).toBe(`/admin/promotions/${row!.id}?created=1`)
    expect((await lastAudit('promotion.create'))!.targetId).toBe(`${siteId}:PAGES10`)
    const again = await editor.post('/admin/promotions', promotionForm({ description: 'Other' }))
    expect(again.statusCode).toBe(422)
    expect(again.json().props.errors.code).toBe('This site already has a promotion with this code.')
    expect((await promotion('PAGES10'))!.description).toBe('Ten percent off')
  })

  it('lists promotions with the orders that used them', async () => {
    const row = (await promotion('PAGES10'))!
    const [order] = await t.app.db.select({ id: orders.id, number: orders.orderNumber }).from(orders).limit(1)
    await t.app.db
      .insert(promotionRedemptions)
      .values({ promotionId: row.id, orderId: order!.id, code: row.code })
    const list = (await viewer.visit('/admin/promotions')).json().props.promotions as {
      code: string
      orders: number
    }[]
    expect(list.find((p) => p.code === 'PAGES10')!.orders).toBe(1)
    const page = (await viewer.visit(`/admin/promotions/${row.id}`)).json().props as PromotionPage
    expect(page.promotion.orders).toBe(1)
    expect(page.promotion.uses.map((u) => u.number)).toEqual([order!.number])
  })

  it('changes a promotion, refuses a stale change, and retires it', async () => {
    const row = (await promotion('PAGES10'))!
    const shown = (await editor.visit(`/admin/promotions/${row.id}`)).json().props as PromotionPage
    const { site: _s, code: _c, ...fields } = promotionForm({ value: '15' })
    const changed = await editor.post(`/admin/promotions/${row.id}`, {
      intent: 'change',
      version: shown.promotion.version,
      ...fields,
    })
    expect(changed.statusCode).toBe(200)
    expect(changed.json().props.notice).toBe('The promotion was saved.')
    expect((await promotion('PAGES10'))!.value).toBe(15)
    const audit = (await lastAudit('promotion.change'))!
    expect([(audit.before as { value: number }).value, (audit.after as { value: number }).value]).toEqual([
      10, 15,
    ])

    const stale = await editor.post(`/admin/promotions/${row.id}`, {
      intent: 'retire',
      version: shown.promotion.version,
    })
    expect(stale.statusCode).toBe(409)
    expect((await promotion('PAGES10'))!.active).toBe(true)

    const viewerRetire = await viewer.post(`/admin/promotions/${row.id}`, { intent: 'retire', version: 'x' })
    expect(viewerRetire.statusCode).toBe(403)

    const fresh = (await editor.visit(`/admin/promotions/${row.id}`)).json().props as PromotionPage
    const retired = await editor.post(`/admin/promotions/${row.id}`, {
      intent: 'retire',
      version: fresh.promotion.version,
    })
    expect(retired.statusCode).toBe(200)
    expect((retired.json().props as PromotionPage).promotion.active).toBe(false)
    expect((await lastAudit('promotion.retire'))!.after).toMatchObject({ active: false })
  })
})

describe('two changes to one promotion sent at once', () => {
  it('takes one and refuses the other as stale, with one audit row', async () => {
    const created = await editor.post('/admin/promotions', promotionForm({ code: 'RACE10' }))
    expect(created.statusCode).toBe(303)
    const row = (await promotion('RACE10'))!
    const shown = (await editor.visit(`/admin/promotions/${row.id}`)).json().props as PromotionPage
    const { site: _s, code: _c, ...fields } = promotionForm({ value: '20' })
    const other = await signIn(t.app, await makeStaff(t.app, 'owner'))
    const answers = await Promise.all([
      editor.post(`/admin/promotions/${row.id}`, {
        intent: 'change',
        version: shown.promotion.version,
        ...fields,
      }),
      other.post(`/admin/promotions/${row.id}`, { intent: 'retire', version: shown.promotion.version }),
    ])
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409])
    const after = (await promotion('RACE10'))!
    const changeWon = answers[0]!.statusCode === 200
    expect([after.value, after.active]).toEqual(changeWon ? [20, true] : [10, false])
    const audited = await t.app.db
      .select()
      .from(staffAudit)
      .where(eq(staffAudit.targetId, `${siteId}:RACE10`))
    expect(audited.map((a) => a.action).sort()).toEqual(
      ['promotion.create', changeWon ? 'promotion.change' : 'promotion.retire'].sort(),
    )
  })
})

describe('delivery rates', () => {
  interface Rate {
    siteId: number
    zone: string
    despatchType: string
    name: string
    price: number
    version: string
  }
  const rates = async (b: StaffBrowser) => (await b.visit('/admin/delivery')).json().props.rates as Rate[]
  const formOf = (r: Rate, over: Record<string, string> = {}) => ({
    site: r.siteId,
    version: r.version,
    zone: r.zone,
    despatchType: r.despatchType,
    name: r.name,
    price: (r.price / 100).toFixed(2),
    freeOver: '',
    position: '0',
    ...over,
  })
  const storedRate = async (r: Rate) =>
    (
      await t.app.db
        .select()
        .from(deliveryRates)
        .where(
          and(
            eq(deliveryRates.siteId, r.siteId),
            eq(deliveryRates.zone, r.zone),
            eq(deliveryRates.despatchType, r.despatchType),
          ),
        )
    )[0]!

  it('lists every site’s rates and refuses a viewer’s change', async () => {
    const all = await rates(viewer)
    expect(new Set(all.map((r) => r.siteId)).size).toBeGreaterThanOrEqual(2)
    const rate = all.find((r) => r.siteId === siteId)!
    const res = await viewer.post('/admin/delivery', formOf(rate, { price: '0.01' }))
    expect(res.statusCode).toBe(403)
    expect((await storedRate(rate)).price).toBe(rate.price)
  })

  it('changes a rate (audited), and refuses bad input and a stale change', async () => {
    const rate = (await rates(editor)).find((r) => r.siteId === siteId)!
    const bad = await editor.post('/admin/delivery', formOf(rate, { price: 'free', name: '' }))
    expect(bad.statusCode).toBe(422)
    expect(bad.json().props.errors).toMatchObject({
      price: 'Enter an amount like 4.95.',
      name: expect.any(String),
    })
    const rule = await editor.post('/admin/delivery', formOf(rate, { name: '' }))
    expect(rule.statusCode).toBe(422)
    expect(rule.json().props.errors.name).toBeDefined()
    expect((await storedRate(rate)).name).toBe(rate.name)

    const ok = await editor.post('/admin/delivery', formOf(rate, { price: '7.25' }))
    expect(ok.statusCode).toBe(200)
    expect((await storedRate(rate)).price).toBe(725)
    const audit = (await lastAudit('delivery.change'))!
    expect([(audit.before as { price: number }).price, (audit.after as { price: number }).price]).toEqual([
      rate.price,
      725,
    ])

    const stale = await editor.post('/admin/delivery', formOf(rate, { price: '1.00' }))
    expect(stale.statusCode).toBe(409)
    expect((await storedRate(rate)).price).toBe(725)
  })

  it('adds a rate for a new zone and refuses one that exists', async () => {
    const form = {
      site: siteId,
      version: '',
      zone: 'Islands',
      despatchType: 'standard',
      name: 'Islands',
      price: '12.00',
      freeOver: '',
      position: '9',
    }
    expect((await editor.post('/admin/delivery', form)).statusCode).toBe(200)
    const again = await editor.post('/admin/delivery', form)
    expect(again.statusCode).toBe(422)
    expect(again.json().props.errors.despatchType).toBe(
      'This site already has a rate for this zone and despatch type.',
    )
  })

  it('adds one rate when two people add the same one at once, and refuses the other', async () => {
    const form = (price: string) => ({
      site: siteId,
      version: '',
      zone: 'Channel Islands',
      despatchType: 'standard',
      name: 'Channel Islands',
      price,
      freeOver: '',
      position: '9',
    })
    const other = await signIn(t.app, await makeStaff(t.app, 'owner'))
    const answers = await Promise.all([
      editor.post('/admin/delivery', form('11.00')),
      other.post('/admin/delivery', form('22.00')),
    ])
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 422])
    const kept = answers[0]!.statusCode === 200 ? 1100 : 2200
    const rows = await t.app.db
      .select()
      .from(deliveryRates)
      .where(and(eq(deliveryRates.siteId, siteId), eq(deliveryRates.zone, 'Channel Islands')))
    expect(rows.map((r) => r.price)).toEqual([kept])
    const audited = await t.app.db
      .select()
      .from(staffAudit)
      .where(eq(staffAudit.targetId, `${siteId}:Channel Islands:standard`))
    expect(audited.map((a) => a.action)).toEqual(['delivery.create'])
  })
})
