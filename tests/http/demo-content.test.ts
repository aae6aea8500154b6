/**
 * The demo content agrees with the settings the basket uses: every delivery charge and
 * free-delivery threshold the delivery page, the header message and the meta description state
 * is the one the basket charges. And no brand's content shows the other brand's range.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deliveryRates } from '../../src/server/modules/cart/cart.tables.ts'
import { sites } from '../../src/server/db/schema.ts'
import { formatMoney } from '../../src/shared/money.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
}, 240_000)
afterAll(() => t?.close())

const story = (code: string, file: string) =>
  readFileSync(join(import.meta.dirname, '../../content', code, file), 'utf8')

/** Money amounts written in a text, as minor units ('£5.95' -> 595, '$150' -> 15000). */
function amounts(text: string): number[] {
  return [...text.matchAll(/[£$]([\d,]+(?:\.\d{2})?)/g)].map((m) =>
    Math.round(Number(m[1]!.replace(/,/g, '')) * 100),
  )
}

async function standardRate(code: string) {
  const [site] = await t.app.db.select().from(sites).where(eq(sites.code, code))
  const rates = await t.app.db.select().from(deliveryRates).where(eq(deliveryRates.siteId, site!.id))
  // The basket's default: the first zone's standard rate.
  const zone = rates.sort((a, b) => a.id - b.id)[0]!.zone
  return {
    rate: rates.find((r) => r.zone === zone && r.despatchType === 'standard')!,
    currency: site!.currency,
  }
}

describe('demo content and the basket', () => {
  for (const code of ['harbour', 'northgate']) {
    it(`${code}: the delivery page, header message and meta description state the basket's own charge and threshold`, async () => {
      const { rate, currency } = await standardRate(code)
      const delivery = JSON.parse(story(code, 'delivery-information.json'))
      const table = delivery.content.body.find(
        (b: { caption?: string; table?: unknown }) => b.table && /by order value/i.test(b.caption ?? ''),
      )
      const cells: string[] = table.table.tbody.flatMap((r: { body: { value: string }[] }) =>
        r.body.map((c) => c.value),
      )
      expect(cells).toContain(formatMoney(rate.price, currency as 'GBP' | 'USD'))
      const stated = [
        ...cells.flatMap(amounts),
        ...amounts(delivery.content.meta_description ?? delivery.meta_description ?? ''),
        ...amounts(story(code, 'settings/header-message.json')),
      ]
      for (const amount of stated) expect([rate.price, rate.freeOver]).toContain(amount)
    })
  }

  it('shows no brand the other brand’s range on its home page or navigation', () => {
    const northgate = story('northgate', 'home.json').toLowerCase()
    for (const word of ['safety sign', 'furniture', 'shelter', 'fire exit'])
      expect(northgate).not.toContain(word)
    const harbour = story('harbour', 'home.json').toLowerCase()
    for (const word of ['mobility', 'incontinence', 'walker']) expect(harbour).not.toContain(word)
  })
})
