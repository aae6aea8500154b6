import { describe, expect, it } from 'vitest'
import { fingerprint, parseAmount, priceListFromForm } from './staff.catalogue.ts'
import { rateFromForm } from './staff.delivery.ts'
import { promotionFromForm, stateOf } from './staff.promotions.ts'

describe('amounts typed in the back office', () => {
  it('reads pounds and pence as minor units, and nothing else', () => {
    expect(parseAmount('12.50')).toBe(1250)
    expect(parseAmount(' 12 ')).toBe(1200)
    expect(parseAmount('0.5')).toBe(50)
    expect(parseAmount('0.05')).toBe(5)
    for (const bad of ['', '£12', '12.505', '-1', '1e3', '12,50', 'twelve'])
      expect(parseAmount(bad), bad).toBeNull()
  })
})

describe('the price grid form', () => {
  it('turns typed rows into price breaks named as the CSV import names them', () => {
    const { list, errors } = priceListFromForm([
      { lowerQty: '1', higherQty: '9', price: '10' },
      { lowerQty: '10', higherQty: '10', price: '9.50' },
      { lowerQty: '11', higherQty: '', price: '9' },
    ])
    expect(errors).toEqual({})
    expect(list).toEqual([
      { lowerQty: 1, higherQty: 9, price: 1000, name: '1-9' },
      { lowerQty: 10, higherQty: 10, price: 950, name: '10' },
      { lowerQty: 11, higherQty: null, price: 900, name: '11+' },
    ])
  })

  it('names each cell it cannot read', () => {
    const { errors } = priceListFromForm([{ lowerQty: '', higherQty: 'x', price: 'cheap' }])
    expect(Object.keys(errors).sort()).toEqual([
      'priceList.0.higherQty',
      'priceList.0.lowerQty',
      'priceList.0.price',
    ])
  })
})

describe('fingerprints of what a form showed', () => {
  it('differ when a value differs and match when it does not', () => {
    expect(fingerprint({ a: 1 })).toBe(fingerprint({ a: 1 }))
    expect(fingerprint({ a: 1 })).not.toBe(fingerprint({ a: 2 }))
  })
})

describe('the promotion form', () => {
  const form = {
    code: 'spring',
    description: '',
    kind: 'fixed',
    value: '5',
    giftSku: 'ignored',
    minimumSpend: '',
    startsAt: '2026-03-01T09:30',
    endsAt: '',
    usageLimit: '',
    active: true,
  }
  it('gives the API’s fields: minor units, UTC dates, no gift unless a free gift', () => {
    expect(promotionFromForm(form)).toEqual({
      row: {
        code: 'spring',
        description: '',
        kind: 'fixed',
        value: 500,
        giftSku: null,
        minimumSpend: 0,
        startsAt: '2026-03-01T09:30:00Z',
        endsAt: null,
        usageLimit: null,
        active: true,
      },
      errors: {},
    })
  })

  it('names what it cannot read and what the API’s rules refuse together', () => {
    const { errors } = promotionFromForm({ ...form, code: '!', usageLimit: 'many' })
    expect(errors).toEqual({
      usageLimit: 'Enter a whole number, or leave it empty for no limit.',
      code: 'Must be 2 to 40 letters, digits, - or _.',
    })
  })
})

describe('the delivery rate form', () => {
  it('gives the API’s fields, and names an unreadable price', () => {
    const base = {
      zone: 'UK',
      despatchType: 'standard',
      name: 'Standard',
      price: '4.95',
      freeOver: '',
      position: '',
    }
    expect(rateFromForm(base)).toEqual({
      row: {
        zone: 'UK',
        despatchType: 'standard',
        name: 'Standard',
        price: 495,
        freeOver: null,
        position: 0,
      },
      errors: {},
    })
    expect(rateFromForm({ ...base, price: 'free' }).errors).toEqual({ price: 'Enter an amount like 4.95.' })
  })
})

describe('a promotion’s state', () => {
  const now = new Date('2026-06-01T00:00:00Z')
  const base = { active: true, startsAt: null, endsAt: null, usageLimit: null, timesUsed: 0 }
  it('reads retired, ended, not started, used up or active', () => {
    expect(stateOf({ ...base, active: false }, now)).toBe('Retired')
    expect(stateOf({ ...base, endsAt: new Date('2026-05-01T00:00:00Z') }, now)).toBe('Ended')
    expect(stateOf({ ...base, startsAt: new Date('2026-07-01T00:00:00Z') }, now)).toBe('Not started')
    expect(stateOf({ ...base, usageLimit: 3, timesUsed: 3 }, now)).toBe('Used up')
    expect(stateOf(base, now)).toBe('Active')
  })
})
