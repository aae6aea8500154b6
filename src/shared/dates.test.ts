import { describe, expect, it } from 'vitest'
import { formatDate } from './dates.ts'

describe('formatDate', () => {
  it('writes day first on GBP sites and month first on USD sites', () => {
    expect(formatDate('2026-11-02', 'en-GB')).toBe('02/11/2026')
    expect(formatDate('2026-11-02', 'en-US')).toBe('11/02/2026')
  })

  it('keeps a plain date on its calendar day whatever the time zone', () => {
    expect(formatDate('2026-01-01', 'en-GB')).toBe('01/01/2026')
  })

  it('can add the UK time to a timestamp', () => {
    expect(formatDate('2026-07-01T13:05:00Z', 'en-GB', { withTime: true })).toBe('01/07/2026, 14:05')
  })

  it('gives an empty string for a value that is not a date', () => {
    expect(formatDate('not a date')).toBe('')
  })
})
