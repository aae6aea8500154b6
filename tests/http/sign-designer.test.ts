import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cartItems, categories, products } from '../../src/server/db/schema.ts'
import type { Cart } from '../../src/shared/cart.ts'
import { SIGN_TEXT, type SignDesign } from '../../src/shared/sign/design.ts'
import type { SignDesignerProps } from '../../src/shared/sign/designer.ts'
import { renderSign } from '../../src/shared/sign/render.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'
import { siteIdFor } from '../factories/product.ts'

let t: TestApp
let siteId: number
let categoryId: number
/** 300 × 200 mm, rigid plastic */
const SKU = 'DAS-300x200-RP'
const PORTRAIT_SKU = 'DAS-200x300-RP'

beforeAll(async () => {
  t = await buildTestApp()
  siteId = await siteIdFor(t.app.db)
  const [category] = await t.app.db
    .select({ id: categories.id })
    .from(categories)
    .where(and(eq(categories.siteId, siteId), eq(categories.url, '/design-your-own-sign')))
  categoryId = category!.id
})
afterAll(() => t?.close())

const visitor = () => new Visitor(t.app).start()

const design = (over: Partial<SignDesign> = {}): SignDesign => ({
  type: 'safe',
  layout: 'symbol-text',
  orientation: 'landscape',
  symbol: 'first-aid',
  lines: ['First aid', 'room'],
  ...over,
})

const item = (over: Record<string, unknown> = {}) => ({
  sku: SKU,
  catid: categoryId,
  qty: 1,
  url: `/design-a-sign/${categoryId}`,
  printableSVG: '<svg><script>alert(1)</script></svg>',
  webVersionOfSVG: '<svg onload="alert(1)"></svg>',
  signReads: 'Something else entirely',
  design: design(),
  ...over,
})

async function storedLines(cartId: string | null) {
  if (!cartId) return []
  return t.app.db.select().from(cartItems).where(eq(cartItems.cartId, cartId)).orderBy(cartItems.id)
}

async function priceOf(sku: string, quantity: number) {
  const [row] = await t.app.db
    .select({ priceList: products.priceList })
    .from(products)
    .where(and(eq(products.siteId, siteId), eq(products.sku, sku)))
  const bracket = row!.priceList.find(
    (b) => quantity >= b.lowerQty && (b.higherQty === null || quantity <= b.higherQty),
  )
  return bracket!.price
}

describe('Design A Sign', () => {
  it('opens the designer for a sign category with its sizes and materials from the price grid', async () => {
    const v = await visitor()
    const res = await v.visit(`/design-a-sign/${categoryId}`)
    expect(res.statusCode).toBe(200)
    const page = res.json() as { component: string; props: SignDesignerProps }
    expect(page.component).toBe('SignDesigner')
    expect(page.props.variants.map((x) => x.sku)).toContain(SKU)
    const v300 = page.props.variants.find((x) => x.sku === SKU)!
    expect(v300.size).toEqual({ width: 300, height: 200 })
    expect(v300.material).toBe('1mm rigid plastic')
    expect(page.props.editing).toBeNull()
  })

  it('answers 404 for a category that is not a sign category', async () => {
    const v = await visitor()
    const [other] = await t.app.db
      .select({ id: categories.id })
      .from(categories)
      .where(and(eq(categories.siteId, siteId), eq(categories.url, '/personalised-workwear')))
    expect((await v.visit(`/design-a-sign/${other!.id}`)).statusCode).toBe(404)
    expect((await v.visit('/design-a-sign/abc')).statusCode).toBe(404)
  })

  it('draws the sign on the server from the design, ignoring the SVG and wording the browser sent', async () => {
    const v = await visitor()
    const res = await v.post('/design-a-sign/add', { items: [item()] })
    expect(res.statusCode).toBe(200)
    const cart = res.json() as Cart
    expect(cart.items).toHaveLength(1)
    const [line] = await storedLines(cart.id)
    const expected = renderSign(design(), { width: 300, height: 200 }).svg
    expect(line!.printableSign!.printableSVG).toBe(expected)
    expect(line!.printableSign!.printableSVG).not.toContain('script')
    expect(line!.printableSign!.webVersionOfSVG).not.toContain('onload')
    expect(line!.printableSign!.signReads).toBe('First aid / room')
    expect(cart.items[0]!.printable_sign!.signReads).toBe('First aid / room')
    expect(cart.items[0]!.edit_url).toBe(`/design-a-sign/${categoryId}?item_id=${cart.items[0]!.id}`)
    expect(cart.items[0]!.sign_details).toBe('300 × 200 mm, 1mm rigid plastic')
  })

  it.each(['DAS-600x400-RP', 'DAS-200x150-RP'])(
    "accepts ordinary wording ('Forklift trucks operating') on %s, wrapped as the preview draws it",
    async (sku) => {
      const v = await visitor()
      const wording = design({ lines: ['Forklift trucks operating'] })
      const res = await v.post('/design-a-sign/add', { items: [item({ sku, design: wording })] })
      expect(res.statusCode).toBe(200)
      const [line] = await storedLines((res.json() as Cart).id)
      const [, w, h] = /-(\d+)x(\d+)-/.exec(sku)!
      const preview = renderSign(wording, { width: Number(w), height: Number(h) })
      expect(preview.fontSize).not.toBeNull()
      expect(line!.printableSign!.printableSVG).toBe(preview.svg)
    },
  )

  it('prices a sign from its size and material’s brackets, never from the browser', async () => {
    const v = await visitor()
    const cart = (
      await v.post('/design-a-sign/add', { items: [item({ qty: 12, price: 1, unit_price: 1 })] })
    ).json() as Cart
    expect(cart.items[0]!.unit_price).toBe(await priceOf(SKU, 12))
    expect(cart.items[0]!.line_total_ex_discount_ex_tax).toBe((await priceOf(SKU, 12)) * 12)
  })

  it('sets markup typed as text as text: escaped, never elements', async () => {
    const v = await visitor()
    const cart = (
      await v.post('/design-a-sign/add', {
        items: [
          item({
            design: design({ layout: 'text-only', symbol: null, lines: ['<script>x</script>', 'A&B'] }),
          }),
        ],
      })
    ).json() as Cart
    const [line] = await storedLines(cart.id)
    expect(line!.printableSign!.printableSVG).toContain('&lt;script&gt;x&lt;/script&gt;')
    expect(line!.printableSign!.printableSVG).toContain('A&amp;B')
    expect(line!.printableSign!.printableSVG).not.toMatch(/<script/i)
  })

  describe('refuses a bad design with a clear message and changes nothing', () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['empty text', { design: design({ lines: ['  ', ''] }) }, 'lines', SIGN_TEXT.emptyText],
      [
        'text too long to fit',
        { design: design({ lines: ['WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW'] }) },
        'lines',
        SIGN_TEXT.tooLongToFit,
      ],
      ['an unknown symbol', { design: design({ symbol: 'skull' }) }, 'symbol', SIGN_TEXT.unknownSymbol],
      ['a size not in the grid', { sku: 'DAS-999x999-RP' }, 'size', SIGN_TEXT.sizeNotInGrid],
      ['a size of another category', { sku: 'CWW-1-M' }, 'size', SIGN_TEXT.sizeNotInGrid],
      ['a size of the wrong orientation', { sku: PORTRAIT_SKU }, 'size', SIGN_TEXT.wrongOrientation],
      [
        'characters the sign font does not have',
        { design: design({ lines: ['Fire ☠ point'] }) },
        'lines.0',
        SIGN_TEXT.badCharacters,
      ],
      [
        'too many lines',
        { design: design({ lines: ['a', 'b', 'c', 'd', 'e'] }) },
        'lines',
        SIGN_TEXT.tooManyLines,
      ],
      ['an unknown type', { design: { ...design(), type: 'danger' } }, 'type', SIGN_TEXT.unknownType],
    ]
    for (const [name, over, field, message] of cases) {
      it(name, async () => {
        const v = await visitor()
        const ok = (await v.post('/design-a-sign/add', { items: [item()] })).json() as Cart
        const res = await v.post('/design-a-sign/add', { items: [item(over)] })
        expect(res.statusCode).toBe(422)
        const body = res.json() as { message: string; errors: Record<string, string[]> }
        expect(body.errors[field]).toContain(message)
        expect(await storedLines(ok.id)).toHaveLength(1)
      })
    }

    it('an oversized drawing from the browser', async () => {
      const v = await visitor()
      const res = await v.post('/design-a-sign/add', { items: [item({ printableSVG: 'x'.repeat(600_000) })] })
      expect(res.statusCode).toBe(422)
    })
  })

  it('reopens a sign from the basket by item_id and saving replaces the line', async () => {
    const v = await visitor()
    const first = (await v.post('/design-a-sign/add', { items: [item({ qty: 3 })] })).json() as Cart
    const other = (await v.post('/cart/add', { items: [] })).statusCode
    expect(other).toBe(422)
    const id = first.items[0]!.id
    const page = (await v.visit(`/design-a-sign/${categoryId}?item_id=${id}`)).json() as {
      props: SignDesignerProps
    }
    expect(page.props.editing).toMatchObject({ itemId: id, sku: SKU, quantity: 3, design: design() })

    const res = await v.post('/design-a-sign/add', {
      item_id: id,
      items: [
        item({
          qty: 2,
          design: design({ type: 'mandatory', symbol: 'eye-protection', lines: ['Wear goggles'] }),
        }),
      ],
    })
    expect(res.statusCode).toBe(200)
    const cart = res.json() as Cart
    expect(cart.items).toHaveLength(1)
    expect(cart.items[0]!.printable_sign!.signReads).toBe('Wear goggles')
    expect(cart.items[0]!.quantity).toBe(2)
    // The old line is gone: editing it again is not found.
    expect((await v.post('/design-a-sign/add', { item_id: id, items: [item()] })).statusCode).toBe(404)
  })

  it('keeps exactly one sign when two edits of it arrive at once', async () => {
    const v = await visitor()
    const cart = (await v.post('/design-a-sign/add', { items: [item()] })).json() as Cart
    const id = cart.items[0]!.id
    const results = await Promise.all(
      ['One', 'Two'].map((text) =>
        v.post('/design-a-sign/add', { item_id: id, items: [item({ design: design({ lines: [text] }) })] }),
      ),
    )
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 404])
    const lines = await storedLines(cart.id)
    expect(lines).toHaveLength(1)
    expect(['One', 'Two']).toContain(lines[0]!.printableSign!.signReads)
  })

  it("does not let a visitor open, edit, preview or print another visitor's sign (404)", async () => {
    const owner = await visitor()
    const cart = (await owner.post('/design-a-sign/add', { items: [item()] })).json() as Cart
    const id = cart.items[0]!.id
    const stranger = await visitor()
    await stranger.post('/design-a-sign/add', { items: [item()] })
    expect((await stranger.visit(`/design-a-sign/${categoryId}?item_id=${id}`)).statusCode).toBe(404)
    expect((await stranger.post('/design-a-sign/add', { item_id: id, items: [item()] })).statusCode).toBe(404)
    expect((await stranger.request('GET', `/design-a-sign/preview/${id}.svg`)).statusCode).toBe(404)
    expect((await stranger.request('GET', `/design-a-sign/proof/${id}.pdf`)).statusCode).toBe(404)
    const [line] = await storedLines(cart.id)
    expect(line!.printableSign!.signReads).toBe('First aid / room')
  })

  it('serves the owner a sandboxed SVG preview and a printable PDF proof', async () => {
    const v = await visitor()
    const cart = (await v.post('/design-a-sign/add', { items: [item()] })).json() as Cart
    const preview = await v.request('GET', cart.items[0]!.sign_preview_url!)
    expect(preview.statusCode).toBe(200)
    expect(preview.headers['content-type']).toContain('image/svg+xml')
    expect(preview.headers['content-security-policy']).toContain('sandbox')
    expect(preview.body).toBe(renderSign(design(), { width: 300, height: 200 }, { displayWidth: 240 }).svg)
    const proof = await v.request('GET', cart.items[0]!.sign_proof_url!)
    expect(proof.statusCode).toBe(200)
    expect(proof.headers['content-type']).toBe('application/pdf')
    expect(proof.rawPayload.subarray(0, 5).toString()).toBe('%PDF-')
    expect(proof.rawPayload.length).toBeGreaterThan(5000)
  })

  it('keeps no browser-made drawing from the plain add call', async () => {
    const v = await visitor()
    const [sku] = await t.app.db
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.siteId, siteId), eq(products.sku, SKU)))
    const cart = (
      await v.post('/cart/add', {
        items: [
          {
            listing_id: sku!.id,
            quantity: 1,
            printable_sign: {
              url: '/design-a-sign',
              printableSVG: '<svg><script>alert(1)</script></svg>',
              signReads: 'X',
            },
          },
        ],
      })
    ).json() as Cart
    const [line] = await storedLines(cart.id)
    // Only the wording: neither the drawing nor the address the browser sent (ADR 0121).
    expect(line!.printableSign).toEqual({ signReads: 'X' })
  })
})

describe('Sign sequences', () => {
  const sequence = { start: 1, count: 20, prefix: 'FP', suffix: '', pad: 2 }

  it('adds a numbered set as one sequence of lines priced by the total quantity’s bracket', async () => {
    const v = await visitor()
    const res = await v.post('/design-a-sign/add', {
      items: [
        item({
          design: design({ type: 'fire', symbol: 'fire-alarm', lines: ['Fire alarm call point'] }),
          sequence,
        }),
      ],
    })
    expect(res.statusCode).toBe(200)
    const cart = res.json() as Cart
    expect(cart.items).toHaveLength(20)
    const ids = new Set(cart.items.map((i) => i.sequence_id))
    expect(ids.size).toBe(1)
    expect([...ids][0]).toMatch(/^seq-[\w-]+$/)
    expect(cart.items.map((i) => i.sequence_label)).toEqual(
      Array.from({ length: 20 }, (_, i) => `FP${String(i + 1).padStart(2, '0')}`),
    )
    expect(cart.items[4]!.printable_sign!.signReads).toBe('Fire alarm call point / FP05')
    // Each line is one sign, but all 20 are priced at the 10-24 bracket.
    const bracketPrice = await priceOf(SKU, 20)
    expect(bracketPrice).toBeLessThan(await priceOf(SKU, 1))
    expect(cart.items.every((i) => i.unit_price === bracketPrice)).toBe(true)
    expect(cart.items_total).toBe(bracketPrice * 20)
    const [line] = await storedLines(cart.id)
    expect(line!.printableSign!.printableSVG).toContain('>FP01</text>')
  })

  it('refuses a set whose numbers do not fit, or that is too long, and changes nothing', async () => {
    const v = await visitor()
    const tooLong = await v.post('/design-a-sign/add', {
      items: [item({ sequence: { ...sequence, count: 251 } })],
    })
    expect(tooLong.statusCode).toBe(422)
    expect((tooLong.json() as { errors: Record<string, string[]> }).errors['sequence.end']).toContain(
      SIGN_TEXT.sequenceTooLong,
    )
    const backwards = await v.post('/design-a-sign/add', {
      items: [item({ sequence: { start: 5, end: 2, prefix: '', suffix: '', pad: 0 } })],
    })
    expect((backwards.json() as { errors: Record<string, string[]> }).errors['sequence.end']).toContain(
      SIGN_TEXT.sequenceRange,
    )
    const wide = await v.post('/design-a-sign/add', {
      items: [
        item({
          sku: 'DAS-200x150-RP',
          design: design({ lines: ['Assembly point'] }),
          sequence: { start: 1, count: 3, prefix: 'WWWWWWWWWWWW', suffix: 'WWWWWWWWWWWW', pad: 6 },
        }),
      ],
    })
    expect((wide.json() as { errors: Record<string, string[]> }).errors.lines).toContain(
      SIGN_TEXT.tooLongToFit,
    )
    expect((await v.post('/cart/init')).json()).toMatchObject({ items: [] })
  })

  it('removes a whole set with one call on the named route; another visitor gets 404', async () => {
    const v = await visitor()
    await v.post('/design-a-sign/add', { items: [item({ sequence: { ...sequence, count: 5 } })] })
    const cart = (await v.post('/design-a-sign/add', { items: [item()] })).json() as Cart
    const sequenceId = cart.items[0]!.sequence_id!
    const stranger = await visitor()
    await stranger.post('/design-a-sign/add', { items: [item()] })
    expect((await stranger.delete(`/cart/sign-sequence/${sequenceId}`)).statusCode).toBe(404)
    const res = await v.delete(`/cart/sign-sequence/${sequenceId}`)
    expect(res.statusCode).toBe(200)
    expect((res.json() as Cart).items.map((i) => i.sequence_id)).toEqual([null])
  })

  it('editing any sign of a set replaces the whole set', async () => {
    const v = await visitor()
    const cart = (
      await v.post('/design-a-sign/add', { items: [item({ sequence: { ...sequence, count: 4 } })] })
    ).json() as Cart
    const res = await v.post('/design-a-sign/add', {
      item_id: cart.items[2]!.id,
      items: [item({ sequence: { start: 10, end: 12, prefix: 'Bay ', suffix: '', pad: 0 } })],
    })
    const after = res.json() as Cart
    expect(after.items.map((i) => i.sequence_label)).toEqual(['Bay 10', 'Bay 11', 'Bay 12'])
  })
})
