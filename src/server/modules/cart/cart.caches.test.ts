import { describe, expect, it } from 'vitest'
import type { Executor } from '../../db/client.ts'
import { BasketCaches } from './cart.caches.ts'
import type { BasketRead, CartCacheChange } from './cart.types.ts'

const A = '00000000-0000-4000-8000-00000000000a'
const B = '00000000-0000-4000-8000-00000000000b'

function listening(caches: BasketCaches): CartCacheChange[] {
  const heard: CartCacheChange[] = []
  caches.onChange((c) => heard.push(c))
  return heard
}

/** A kept Cart page read of basket `id` on site `siteId`. */
function keepRead(caches: BasketCaches, id: string, siteId = 1): void {
  const token = caches.shown.begin()
  caches.shown.keep(id, token, { row: { id, siteId }, lines: [] } as unknown as BasketRead)
}

/** An executor that answers the delivery rates query with `rows` and counts how often it is asked. */
function ratesExecutor(rows: unknown[]): { executor: Executor; asked: () => number } {
  let asked = 0
  const chain = {
    select: () => chain,
    from: () => chain,
    where: () => chain,
    orderBy: () => {
      asked++
      return Promise.resolve(rows)
    },
  }
  return { executor: chain as unknown as Executor, asked: () => asked }
}

describe('the basket’s caches on one instance', () => {
  it('keeps a summary this instance wrote and tells the other instances, but not one it only read', () => {
    const caches = new BasketCaches()
    const heard = listening(caches)
    caches.keepSummary(1, A, { count: 2, total: 1000 })
    expect(heard).toEqual([])
    caches.wroteSummary(1, B, { count: 3, total: 1500 })
    expect(caches.summary(1, A)).toEqual({ count: 2, total: 1000 })
    expect(caches.summary(1, B)).toEqual({ count: 3, total: 1500 })
    expect(caches.summary(2, B)).toBeUndefined()
    expect(heard).toEqual([{ kind: 'summary', siteId: 1, cartId: B }])
  })

  it('forgets a basket another instance changed without telling anyone, and announces an order placed from it', () => {
    const caches = new BasketCaches()
    const heard = listening(caches)
    caches.keepSummary(1, A, { count: 1, total: 100 })
    keepRead(caches, A)
    caches.forgetCart(1, A)
    expect(caches.summary(1, A)).toBeUndefined()
    expect(caches.shown.get(A)).toBeUndefined()
    expect(heard).toEqual([])

    keepRead(caches, B)
    caches.basketChanged(1, B)
    expect(caches.shown.get(B)).toBeUndefined()
    expect(heard).toEqual([{ kind: 'summary', siteId: 1, cartId: B }])
  })

  it('announces each swept basket on every site where this instance kept its summary, and forgets its kept read', () => {
    const caches = new BasketCaches()
    caches.keepSummary(1, A, { count: 1, total: 100 })
    caches.keepSummary(2, A, { count: 1, total: 100 })
    caches.keepSummary(1, B, { count: 1, total: 100 })
    keepRead(caches, A)
    const heard = listening(caches)
    caches.basketsDeleted([A])
    expect(heard).toHaveLength(2)
    expect(heard).toEqual(
      expect.arrayContaining([
        { kind: 'summary', siteId: 1, cartId: A },
        { kind: 'summary', siteId: 2, cartId: A },
      ]),
    )
    expect(caches.summary(1, A)).toBeUndefined()
    expect(caches.summary(2, A)).toBeUndefined()
    expect(caches.summary(1, B)).toBeDefined()
    expect(caches.shown.get(A)).toBeUndefined()
  })

  it('reads a site’s delivery rates once until an edit, which it announces; another instance’s edit is not announced again', async () => {
    const caches = new BasketCaches()
    const heard = listening(caches)
    const db = ratesExecutor([{ id: 1, zone: 'UK' }])
    expect(await caches.rates(db.executor, 1)).toEqual([{ id: 1, zone: 'UK' }])
    await caches.rates(db.executor, 1)
    expect(db.asked()).toBe(1)
    caches.invalidateRates()
    await caches.rates(db.executor, 1)
    expect(db.asked()).toBe(2)
    expect(heard).toEqual([{ kind: 'rates' }])
    caches.forgetRates()
    await caches.rates(db.executor, 1)
    expect(db.asked()).toBe(3)
    expect(heard).toEqual([{ kind: 'rates' }])
  })

  it('drops every summary, rate and kept read when notifications may have been missed', async () => {
    const caches = new BasketCaches()
    const db = ratesExecutor([])
    await caches.rates(db.executor, 1)
    caches.keepSummary(1, A, { count: 1, total: 100 })
    keepRead(caches, B)
    caches.forgetAll()
    expect(caches.summary(1, A)).toBeUndefined()
    expect(caches.shown.get(B)).toBeUndefined()
    await caches.rates(db.executor, 1)
    expect(db.asked()).toBe(2)
  })

  it('stops telling a listener that unsubscribed', () => {
    const caches = new BasketCaches()
    const heard: CartCacheChange[] = []
    const stop = caches.onChange((c) => heard.push(c))
    stop()
    caches.invalidateRates()
    expect(heard).toEqual([])
  })
})
