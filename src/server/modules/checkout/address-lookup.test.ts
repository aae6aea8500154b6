import { describe, expect, it } from 'vitest'
import { EmbeddedAddressLookup } from './address-lookup.ts'

const lookup = new EmbeddedAddressLookup()

describe('the embedded address lookup', () => {
  it('matches every word of the query, postcodes with or without the space', async () => {
    const byStreet = await lookup.search('quay bristol', ['GB'])
    expect(byStreet.map((m) => m.address.address1)).toEqual(['12 Quay Street', '14 Quay Street'])
    const byPostcode = await lookup.search('bs14dj', ['GB'])
    expect(byPostcode).toHaveLength(2)
    expect(byPostcode[0]!.address).toMatchObject({ town: 'Bristol', postcode: 'BS1 4DJ', country: 'GB' })
  })

  it('needs more than one character and keeps to the site’s countries', async () => {
    expect(await lookup.search('b', ['GB'])).toEqual([])
    expect(await lookup.search('chicago', ['GB'])).toEqual([])
    expect(await lookup.search('chicago', ['US'])).toHaveLength(1)
  })
})
