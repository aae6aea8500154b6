import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sites } from '../../src/server/db/schema.ts'
import { loadProductRecords } from '../../src/server/modules/search/documents.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'

let t: TestDatabase

beforeAll(async () => {
  t = await createTestDatabase()
})
afterAll(() => t?.dispose())

describe('search records', () => {
  it('add each site’s own tax rate to the price including tax', async () => {
    const db = t.database.db
    const all = await db.select({ id: sites.id, settings: sites.settings }).from(sites)
    const rates = new Map(all.map((s) => [s.id, (s.settings as { tax?: { rate: number } }).tax?.rate ?? 20]))
    expect(new Set(rates.values())).toEqual(new Set([20, 0]))
    for (const [siteId, rate] of rates) {
      const records = (await loadProductRecords(db, { siteId })).filter((r) => r.price_ex_tax > 0)
      expect(records.length).toBeGreaterThan(0)
      for (const r of records) {
        const vat = Math.floor((r.price_ex_tax * rate) / 100 + 0.5 + 1e-9)
        expect(r.price_inc_tax).toBe(r.price_ex_tax + vat)
      }
    }
  })
})
