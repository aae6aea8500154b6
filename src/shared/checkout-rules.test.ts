import { describe, expect, it } from 'vitest'
import { zoneFor } from './checkout-rules.ts'

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
