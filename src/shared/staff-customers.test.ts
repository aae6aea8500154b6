import { describe, expect, it } from 'vitest'
import { customerListQuerySchema, searchKindOfCustomer } from './staff-customers.ts'

describe('what a customer search looks for', () => {
  it('guesses an e-mail, a UK postcode or a US ZIP code, else a name or company', () => {
    expect(searchKindOfCustomer('dana@example.com', 'auto')).toBe('email')
    for (const q of ['BS1 4DJ', 'bs14dj', 'EC1A', 'M1 1'])
      expect(searchKindOfCustomer(q, 'auto'), q).toBe('postcode')
    expect(searchKindOfCustomer('60611', 'auto')).toBe('postcode')
    expect(searchKindOfCustomer('Demo Works', 'auto')).toBe('name_or_company')
  })

  it('keeps the kind a person chose', () => {
    expect(searchKindOfCustomer('BS1 4DJ', 'company')).toBe('company')
  })
})

describe('the customer list query', () => {
  it('refuses a one-letter name, a bad page link and control characters, naming the field', () => {
    const issues = (q: Record<string, string>) => {
      const r = customerListQuerySchema.safeParse(q)
      return r.success ? [] : r.error.issues.map((i) => i.path[0])
    }
    expect(issues({ q: 'a' })).toEqual(['q'])
    expect(issues({ after: '12x' })).toEqual(['after'])
    expect(issues({ q: 'dana\u0000' })).toEqual(['q'])
    expect(issues({ q: 'da', after: '12', kind: 'name', site: '1' })).toEqual([])
  })

  it('lets an unknown kind or site fall back instead of failing the page', () => {
    expect(customerListQuerySchema.parse({ kind: 'shoe size', site: 'x' })).toMatchObject({
      kind: 'auto',
      site: undefined,
    })
  })
})
