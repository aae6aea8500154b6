import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { IdealPostcodesStandIn } from '../../../../tests/support/ideal-postcodes-standin.ts'
import { addressLookupFor, EmbeddedAddressLookup } from './address-lookup.ts'
import { IdealPostcodesClient, IdealPostcodesError, IdealPostcodesLookup } from './ideal-postcodes.ts'

let standIn: IdealPostcodesStandIn
const warnings: string[] = []
const log = { warn: (_o: object, msg: string) => void warnings.push(msg) }

beforeAll(async () => {
  standIn = await new IdealPostcodesStandIn().start()
})
afterAll(() => standIn?.stop())
beforeEach(() => {
  standIn.requests.length = 0
  standIn.balance = Infinity
  standIn.delayMs = 0
  warnings.length = 0
})

const lookup = (apiKey = standIn.apiKey, timeoutMs = 2000) =>
  new IdealPostcodesLookup(
    new IdealPostcodesClient({ apiKey, baseUrl: standIn.url, timeoutMs }),
    new EmbeddedAddressLookup(),
    log,
  )

describe('the Ideal Postcodes address lookup against a stand-in speaking its paths and JSON', () => {
  it('asks /v1/addresses with the key, the query and the limit, and fills the address fields', async () => {
    const matches = await lookup().search('grey street', ['GB', 'IE'], 5)
    const asked = standIn.requests[0]!
    expect(asked.pathname).toBe('/v1/addresses')
    expect(asked.searchParams.get('api_key')).toBe(standIn.apiKey)
    expect(asked.searchParams.get('query')).toBe('grey street')
    expect(asked.searchParams.get('limit')).toBe('5')
    expect(matches).toEqual([
      {
        id: 'paf_52101011',
        label: '3 Grey Street, Newcastle upon Tyne, NE1 4ST',
        address: {
          company: '',
          address1: '3 Grey Street',
          address2: '',
          town: 'Newcastle upon Tyne',
          county: 'Tyne and Wear',
          postcode: 'NE1 4ST',
          country: 'GB',
        },
      },
    ])
  })

  it('joins the second and third PAF lines into Address 2, and maps Scotland to GB', async () => {
    const [m] = await lookup().search('royal mile', ['GB'])
    expect(m!.address).toMatchObject({
      address1: 'Flat 2',
      address2: '5 Royal Mile, Old Town',
      town: 'Edinburgh',
      country: 'GB',
    })
  })

  it('answers nothing found as an empty list, and does not call the provider for one character', async () => {
    expect(await lookup().search('nowhere road', ['GB'])).toEqual([])
    expect(await lookup().search('a', ['GB'])).toEqual([])
    expect(standIn.requests).toHaveLength(1)
  })

  it('leaves a site that does not deliver to GB to the embedded lookup', async () => {
    const matches = await lookup().search('chicago', ['US'])
    expect(matches.map((m) => m.address.town)).toEqual(['Chicago'])
    expect(standIn.requests).toHaveLength(0)
  })

  it('falls back to the embedded lookup on a wrong key, a used-up balance or a time-out, and logs it', async () => {
    expect((await lookup('wrong-key').search('quay bristol', ['GB'])).map((m) => m.address.town)).toEqual([
      'Bristol',
      'Bristol',
    ])
    standIn.balance = 0
    expect(await lookup().search('quay bristol', ['GB'])).toHaveLength(2)
    standIn.balance = Infinity
    standIn.delayMs = 500
    expect(await lookup(standIn.apiKey, 150).search('quay bristol', ['GB'])).toHaveLength(2)
    expect(warnings).toHaveLength(3)
  })

  it('reports the provider’s status and code from the client', async () => {
    const client = new IdealPostcodesClient({ apiKey: 'nope', baseUrl: standIn.url, timeoutMs: 2000 })
    const err = await client.searchAddresses('downing', 10).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(IdealPostcodesError)
    expect(err).toMatchObject({ status: 401, code: 4010 })
  })

  it('is what the configuration names', async () => {
    expect(addressLookupFor({ addressLookup: { provider: 'embedded' } })).toBeInstanceOf(
      EmbeddedAddressLookup,
    )
    const configured = addressLookupFor({
      addressLookup: {
        provider: 'ideal-postcodes',
        apiKey: standIn.apiKey,
        baseUrl: standIn.url,
        timeoutMs: 2000,
      },
    })
    expect((await configured.search('downing street', ['GB']))[0]!.address.postcode).toBe('SW1A 2AA')
  })
})
