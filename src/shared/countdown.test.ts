import { describe, expect, it } from 'vitest'
import { bankHolidays, usFederalHolidays } from './bank-holidays.ts'
import { countdownState, formatRemaining, type CountdownSettings } from './countdown.ts'

const holidays = new Set([...bankHolidays(2025), ...bankHolidays(2026), ...bankHolidays(2027)])

const settings: CountdownSettings = {
  hour: 14,
  minute: 0,
  bankHolidayDependant: true,
  weekendDependant: true,
  messageBefore: 'Order within',
  messageAfter: 'for same-day despatch',
  messageBankHoliday: 'Orders placed now are despatched after the bank holiday.',
  messageWeekend: '',
  messageAfterDeadline: 'Order now for despatch tomorrow.',
}

const at = (iso: string) => countdownState(new Date(iso), settings, holidays)

describe('countdown to the dispatch cut-off', () => {
  it('counts down to 2pm UK time on an ordinary weekday (summer time)', () => {
    expect(at('2026-06-10T09:30:15Z')).toEqual({ kind: 'counting', remaining: '03:29:45', seconds: 12585 })
  })

  it("counts down to 2pm in the site's calendar time zone (New York on a US site)", () => {
    const us = new Set(usFederalHolidays(2026))
    // 09:30 UTC is 04:30 in New York (EST): 9 h 30 min to 2pm there.
    expect(countdownState(new Date('2026-11-18T09:30:00Z'), settings, us, 'America/New_York')).toMatchObject({
      kind: 'counting',
      remaining: '09:30:00',
    })
    // The day before Thanksgiving: a holiday is next.
    expect(countdownState(new Date('2026-11-25T12:00:00Z'), settings, us, 'America/New_York')).toEqual({
      kind: 'message',
      message: settings.messageBankHoliday,
    })
  })

  it('counts down in UK winter time', () => {
    expect(at('2026-11-18T13:59:59Z')).toMatchObject({ kind: 'counting', remaining: '00:00:01' })
  })

  it('shows the message after the deadline once 2pm has passed', () => {
    expect(at('2026-06-10T13:00:00Z')).toEqual({
      kind: 'deadline',
      message: 'Order now for despatch tomorrow.',
    })
  })

  it('is replaced before Good Friday, and on Easter Monday itself', () => {
    expect(at('2026-04-02T08:00:00Z')).toEqual({ kind: 'message', message: settings.messageBankHoliday })
    expect(at('2026-04-06T08:00:00Z')).toMatchObject({ kind: 'message' })
    expect(at('2026-04-07T08:00:00Z')).toMatchObject({ kind: 'counting' })
  })

  it('is replaced on the Friday before a bank holiday Monday (Friday adds 3 days)', () => {
    expect(at('2026-08-28T08:00:00Z')).toMatchObject({ kind: 'message' })
    expect(at('2026-08-27T08:00:00Z')).toMatchObject({ kind: 'counting' })
  })

  it('is replaced over Christmas and on the substitute Boxing Day', () => {
    expect(at('2026-12-24T09:00:00Z')).toMatchObject({ kind: 'message' })
    expect(at('2026-12-28T09:00:00Z')).toMatchObject({ kind: 'message' })
    expect(at('2026-12-29T09:00:00Z')).toMatchObject({ kind: 'counting' })
  })

  it('is hidden at a weekend when no weekend message is set', () => {
    expect(at('2026-06-13T09:00:00Z')).toEqual({ kind: 'hidden' })
    expect(at('2026-06-14T09:00:00Z')).toEqual({ kind: 'hidden' })
  })

  it('ignores bank holidays and weekends when the settings say so', () => {
    const s = { ...settings, bankHolidayDependant: false, weekendDependant: false }
    expect(countdownState(new Date('2026-12-24T09:00:00Z'), s, holidays)).toMatchObject({ kind: 'counting' })
    expect(countdownState(new Date('2026-06-13T09:00:00Z'), s, holidays)).toMatchObject({ kind: 'counting' })
  })

  it('formats the time left as hh:mm:ss', () => {
    expect(formatRemaining(3661)).toBe('01:01:01')
    expect(formatRemaining(-5)).toBe('00:00:00')
  })
})
