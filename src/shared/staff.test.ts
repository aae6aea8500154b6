import { describe, expect, it } from 'vitest'
import { guessSearchKind, normalisePostcode, orderListQuerySchema } from './staff.ts'

describe('the order search box', () => {
  it('reads digits as an order number, an @ as an e-mail, a UK postcode as a postcode, anything else as a name', () => {
    expect(guessSearchKind('100042')).toBe('number')
    expect(guessSearchKind('dana@example.com')).toBe('email')
    expect(guessSearchKind('BS1 4DJ')).toBe('postcode')
    expect(guessSearchKind('sw1a1aa')).toBe('postcode')
    expect(guessSearchKind('EC1A')).toBe('postcode')
    expect(guessSearchKind('Dana Demo')).toBe('name')
  })

  it('keeps postcodes upper case without spaces, as the index does', () => {
    expect(normalisePostcode(' bs1  4dj ')).toBe('BS14DJ')
  })

  it('refuses a start date after the end date and a date that does not exist', () => {
    expect(orderListQuerySchema.safeParse({ from: '2026-02-01', to: '2026-01-01' }).success).toBe(false)
    expect(orderListQuerySchema.safeParse({ from: '2026-02-30' }).success).toBe(false)
    expect(orderListQuerySchema.safeParse({ from: '2028-02-29' }).success).toBe(true)
    expect(orderListQuerySchema.safeParse({ from: '2026-13-01' }).success).toBe(false)
  })

  it('asks for at least 3 letters of a name', () => {
    const r = orderListQuerySchema.safeParse({ q: 'Al' })
    expect(r.success).toBe(false)
    expect(r.error?.issues[0]?.message).toBe('Please enter at least 3 letters of the name.')
    expect(orderListQuerySchema.safeParse({ q: 'Ali' }).success).toBe(true)
  })

  it('ignores an unknown status or site rather than failing the page', () => {
    const r = orderListQuerySchema.parse({ status: 'shipped', site: 'x' })
    expect(r.status).toBeUndefined()
    expect(r.site).toBeUndefined()
  })
})
