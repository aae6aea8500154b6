import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  addressSearchStarts,
  countryInList,
  defaultPoNumber,
  deliveryCountries,
  PO_NUMBER_MAX,
  VAT_NUMBER_COUNTRY,
  vatNumberApplies,
  zoneFor,
} from './checkout-rules.ts'

const UK = ['UK Mainland', 'Highlands and Islands', 'Northern Ireland', 'Ireland and Europe']
const US = ['Contiguous US', 'Canada']

describe('zoneFor', () => {
  it('puts mainland, highland and Northern Irish postcodes in their zones', () => {
    expect(zoneFor(UK, 'GB', 'BS1 4DJ')).toBe('UK Mainland')
    expect(zoneFor(UK, 'gb', 'hs1 2aa')).toBe('Highlands and Islands')
    expect(zoneFor(UK, 'GB', 'BT1 1AA')).toBe('Northern Ireland')
    expect(zoneFor(UK, 'GB', null)).toBe('UK Mainland')
  })

  it('sends Ireland to the European zone and refuses countries without one', () => {
    expect(zoneFor(UK, 'IE', 'D02 X285')).toBe('Ireland and Europe')
    expect(zoneFor(UK, 'US', '60611')).toBeNull()
    expect(zoneFor(US, 'US', '60611')).toBe('Contiguous US')
    expect(zoneFor(US, 'US', '99501')).toBeNull()
    expect(zoneFor(US, 'CA', 'M5V 2T6')).toBe('Canada')
  })
})

describe('defaultPoNumber', () => {
  it('joins the first and last name with one space', () => {
    expect(defaultPoNumber({ firstName: 'Gina', lastName: 'Guest' })).toBe('Gina Guest')
    expect(defaultPoNumber({ firstName: '  Gina ', lastName: ' Guest  ' })).toBe('Gina Guest')
    expect(defaultPoNumber({ firstName: 'Gina', lastName: '' })).toBe('Gina')
    expect(defaultPoNumber({ firstName: null, lastName: undefined })).toBe('')
  })

  it('is the names joined whenever that fits, and never longer than the PO number maximum', () => {
    const name = fc.string({ maxLength: 300 })
    fc.assert(
      fc.property(name, name, (firstName, lastName) => {
        const po = defaultPoNumber({ firstName, lastName })
        const joined = `${firstName.trim()} ${lastName.trim()}`.trim()
        expect(po.length).toBeLessThanOrEqual(PO_NUMBER_MAX)
        expect(po).toBe(joined.length <= PO_NUMBER_MAX ? joined : joined.slice(0, PO_NUMBER_MAX))
        expect(joined.startsWith(po)).toBe(true)
      }),
    )
  })
})

describe('vatNumberApplies', () => {
  it('applies only when delivering to IE and not paying by PayPal or Amazon Pay', () => {
    expect(VAT_NUMBER_COUNTRY).toBe('IE')
    expect(vatNumberApplies('IE', 'sagepay')).toBe(true)
    expect(vatNumberApplies(' ie ', 'purchase_order')).toBe(true)
    expect(vatNumberApplies('IE', 'paypal')).toBe(false)
    expect(vatNumberApplies('IE', 'amazon')).toBe(false)
    expect(vatNumberApplies('GB', 'sagepay')).toBe(false)
    expect(vatNumberApplies('', 'sagepay')).toBe(false)
    expect(vatNumberApplies(null, 'paya')).toBe(false)
  })

  it('never applies for another country, whatever the method', () => {
    const country = fc.string({ minLength: 0, maxLength: 3 }).filter((c) => c.trim().toUpperCase() !== 'IE')
    const method = fc.constantFrom('sagepay', 'paya', 'paypal', 'amazon', 'purchase_order', '')
    fc.assert(fc.property(country, method, (c, m) => !vatNumberApplies(c, m)))
  })
})

describe('the delivery countries of a site', () => {
  const countries = [
    { code: 'GB', name: 'United Kingdom' },
    { code: 'IE', name: 'Ireland' },
    { code: 'US', name: 'United States' },
  ]

  it('accepts a country of the list, in any case, and refuses a blank or another', () => {
    expect(countryInList(countries, 'GB')).toBe(true)
    expect(countryInList(countries, ' ie ')).toBe(true)
    expect(countryInList(countries, 'ZZ')).toBe(false)
    expect(countryInList(countries, '')).toBe(false)
    expect(countryInList(countries, null)).toBe(false)
  })

  it('offers only the countries one of the site’s zones serves', () => {
    expect(deliveryCountries(countries, UK).map((c) => c.code)).toEqual(['GB', 'IE'])
    expect(deliveryCountries(countries, US).map((c) => c.code)).toEqual(['US'])
    expect(deliveryCountries(countries, [])).toEqual([])
  })
})

describe('addressSearchStarts', () => {
  it('starts after more than one character, spaces not counted twice', () => {
    expect(addressSearchStarts('')).toBe(false)
    expect(addressSearchStarts(' q ')).toBe(false)
    expect(addressSearchStarts('qu')).toBe(true)
    expect(addressSearchStarts('q  ')).toBe(false)
    expect(addressSearchStarts('q u')).toBe(true)
  })

  it('depends only on the query with its runs of spaces made one and its ends trimmed', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (q) => {
        const tidy = q.replace(/\s+/g, ' ').trim()
        return addressSearchStarts(q) === tidy.length > 1
      }),
    )
  })
})
