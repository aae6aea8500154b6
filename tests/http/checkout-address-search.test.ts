/**
 * `GET /checkout/address-search` (spec §7 "GET configurable search url") answered by the
 * configured lookup: Ideal Postcodes' stand-in here, the embedded lookup otherwise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IdealPostcodesStandIn } from '../support/ideal-postcodes-standin.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'

let standIn: IdealPostcodesStandIn
let t: TestApp

beforeAll(async () => {
  standIn = await new IdealPostcodesStandIn().start()
  t = await buildTestApp({
    addressLookup: {
      provider: 'ideal-postcodes',
      apiKey: standIn.apiKey,
      baseUrl: standIn.url,
      timeoutMs: 2000,
    },
  })
})
afterAll(async () => {
  await t?.close()
  await standIn?.stop()
})

describe('GET /checkout/address-search with Ideal Postcodes configured', () => {
  it('answers the provider’s PAF addresses in the form’s fields, never cached', async () => {
    const v = await new Visitor(t.app).start()
    const res = await v.request('GET', '/checkout/address-search?searchInput=downing%20street')
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toContain('no-store')
    const { matches } = res.json() as { matches: { address: Record<string, string> }[] }
    expect(matches).toHaveLength(1)
    expect(matches[0]!.address).toMatchObject({
      company: 'Prime Minister & First Lord of the Treasury',
      address2: '10 Downing Street',
      town: 'London',
      postcode: 'SW1A 2AA',
      country: 'GB',
    })
    expect(standIn.requests.at(-1)!.searchParams.get('query')).toBe('downing street')
  })

  it('does not ask the provider for one character', async () => {
    const before = standIn.requests.length
    const v = await new Visitor(t.app).start()
    const res = await v.request('GET', '/checkout/address-search?searchInput=d')
    expect(res.json()).toEqual({ matches: [] })
    expect(standIn.requests.length).toBe(before)
  })
})
