/**
 * The demo content agrees with the settings the basket uses: every delivery charge and
 * free-delivery threshold the delivery page, the header message and the meta description state
 * is the one the basket charges. And no brand's content shows the other brand's range.
 */
import { readdirSync, readFileSync } from 'node:fs'
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

  it('prints no blog sentence twice in a post, and shows each brand only its own topics and pictures', () => {
    const texts = (node: unknown): string[] =>
      Array.isArray(node)
        ? node.flatMap(texts)
        : node && typeof node === 'object'
          ? Object.entries(node).flatMap(([k, v]) => (k === 'text' && typeof v === 'string' ? [v] : texts(v)))
          : []
    for (const code of ['harbour', 'northgate']) {
      const dir = join(import.meta.dirname, '../../content', code, 'blog')
      for (const file of readdirSync(dir)) {
        const post = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
          content: { component: string; body?: unknown; image?: { filename?: string } }
        }
        if (post.content.component !== 'post') continue
        const sentences = texts(post.content.body)
          .flatMap((t) => t.split(/(?<=[.!?])\s+/))
          .filter((x) => x.length > 20)
        expect(
          sentences.filter((x, i) => sentences.indexOf(x) !== i),
          `${code}/${file}`,
        ).toEqual([])
        const words = JSON.stringify(post.content).toLowerCase()
        const image = post.content.image?.filename ?? ''
        if (code === 'northgate') {
          for (const w of ['extinguisher', 'safety sign', 'fire exit']) expect(words, file).not.toContain(w)
          expect(image, file).not.toMatch(/blog-(fire|first-aid|office)/)
        }
      }
      const about = texts(JSON.parse(story(code, 'about-us.json')))
        .flatMap((t) => t.split(/(?<=[.!?])\s+/))
        .filter((x) => x.length > 20)
      expect(
        about.filter((x, i) => about.indexOf(x) !== i),
        `${code} about-us`,
      ).toEqual([])
    }
  })
})
