/**
 * The basket's one seam towards the builders (ADR 0151): a copied basket (share link, saved
 * basket, either opened again) asks the `DesignCopier` it was given to copy the designs its lines
 * point at, inside the copy's transaction, and its lines point at what the copier returned.
 * Against a real database, with a copier that records what it was asked.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cartItems, carts, customers } from '../../src/server/db/schema.ts'
import type { Tx } from '../../src/server/db/client.ts'
import { CartService, type CartContext } from '../../src/server/modules/cart/cart.service.ts'
import type { CartItemRow, WorkWearSession } from '../../src/server/modules/cart/cart.tables.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { insertCategory, insertGroup, insertSku, siteIdFor } from '../factories/product.ts'

interface Call {
  from: string[]
  designs: (string | null)[]
  toCartId: string
}

let t: TestApp
let ctx: CartContext
let productId: number
let categoryId: number
let customerId: number

beforeAll(async () => {
  t = await buildTestApp()
  const db = t.app.db
  const siteId = await siteIdFor(db)
  categoryId = (await insertCategory(db, { siteId })).id
  const group = await insertGroup(db, { siteId, categoryId })
  productId = (await insertSku(db, { siteId, groupId: group.id })).id
  ctx = { site: (await t.app.sites.forHost('localhost'))!, cartId: null, baseUrl: 'http://localhost' }
  const [customer] = await db.select({ id: customers.id }).from(customers).orderBy(customers.id).limit(1)
  customerId = customer!.id
})
afterAll(() => t?.close())

/** A basket service whose copier copies design `w-1` only, and records every call. */
function recordingService(copy?: (lines: readonly CartItemRow[]) => void) {
  const calls: Call[] = []
  const service = new CartService(t.app.db, {
    copy: async (_tx: Tx, lines, toCartId) => {
      copy?.(lines)
      calls.push({
        from: [...new Set(lines.map((l) => l.cartId))],
        designs: lines.map((l) => l.workWearSession?.id ?? null),
        toCartId,
      })
      return new Map([['w-1', `copy-of-w-1-${calls.length}`]])
    },
  })
  return { service, calls }
}

const session = (id: string): WorkWearSession => ({ id, builder_json: { cat_id: categoryId } })

/** A basket with a plain line and two workwear lines of designs `w-1` and `w-2`. */
async function basketWithDesigns(service: CartService): Promise<CartContext> {
  const added = await service.add(ctx, [{ listing_id: productId, quantity: 2 }])
  const own = { ...ctx, cartId: added.cartId }
  await service.replaceBuilderLines(own, {
    replaces: null,
    mustReplace: false,
    build: async () => [
      { productId, categoryId, quantity: 3, workWearSession: session('w-1') },
      { productId, categoryId, quantity: 4, workWearSession: session('w-2') },
    ],
  })
  return own
}

async function designsOf(cartId: string): Promise<(string | null)[]> {
  const rows = await t.app.db
    .select({ session: cartItems.workWearSession })
    .from(cartItems)
    .where(eq(cartItems.cartId, cartId))
    .orderBy(cartItems.id)
  return rows.map((r) => r.session?.id ?? null)
}

describe('a copied basket and the designs its lines point at', () => {
  it('asks the copier once per copy, with the source basket’s lines and the new basket, and points the copy at its answer', async () => {
    const { service, calls } = recordingService()
    const own = await basketWithDesigns(service)

    const token = await service.share(own)
    const [shared] = await t.app.db.select().from(carts).where(eq(carts.shareToken, token))
    expect(calls).toEqual([{ from: [own.cartId], designs: [null, 'w-1', 'w-2'], toCartId: shared!.id }])
    // The design the copier copied is the copy's own; one it left out still points at the original.
    expect(await designsOf(shared!.id)).toEqual([null, 'copy-of-w-1-1', 'w-2'])
    expect(await designsOf(own.cartId!)).toEqual([null, 'w-1', 'w-2'])

    const opened = await service.openShared(ctx.site, token)
    expect(calls[1]).toEqual({
      from: [shared!.id],
      designs: [null, 'copy-of-w-1-1', 'w-2'],
      toCartId: opened,
    })
    // The copier was asked for `copy-of-w-1-1`, which it does not know: that line keeps it.
    expect(await designsOf(opened!)).toEqual([null, 'copy-of-w-1-1', 'w-2'])
  })

  it('asks it again when a basket is saved and when the saved basket is loaded', async () => {
    const { service, calls } = recordingService()
    const own = await basketWithDesigns(service)
    const saved = await service.save(own, customerId, 'Crew kit')
    expect(calls).toEqual([{ from: [own.cartId], designs: [null, 'w-1', 'w-2'], toCartId: saved.id }])
    expect(await designsOf(saved.id)).toEqual([null, 'copy-of-w-1-1', 'w-2'])

    const loaded = await service.loadSaved(ctx, customerId, saved.id)
    expect(calls[1]).toMatchObject({ from: [saved.id], toCartId: loaded.cartId })
  })

  it('writes no copy at all when the copier fails, and the original basket is as it was', async () => {
    const { service } = recordingService(() => {
      throw new Error('the design store is unavailable')
    })
    const own = await basketWithDesigns(service)
    const before = await t.app.db.select({ id: carts.id }).from(carts)
    await expect(service.share(own)).rejects.toThrow('the design store is unavailable')
    expect(await t.app.db.select({ id: carts.id }).from(carts)).toHaveLength(before.length)
    expect(await designsOf(own.cartId!)).toEqual([null, 'w-1', 'w-2'])
  })
})
