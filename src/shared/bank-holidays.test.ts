import { describe, expect, it } from 'vitest'
import { bankHolidayList, bankHolidays, easterSunday, usFederalHolidays } from './bank-holidays.ts'

describe('bank holidays in England and Wales', () => {
  it('match the published 2025 list', () => {
    expect(bankHolidays(2025)).toEqual([
      '2025-01-01',
      '2025-04-18',
      '2025-04-21',
      '2025-05-05',
      '2025-05-26',
      '2025-08-25',
      '2025-12-25',
      '2025-12-26',
    ])
  })

  it('match the published 2026 list, with Boxing Day moved to Monday 28 December', () => {
    expect(bankHolidays(2026)).toEqual([
      '2026-01-01',
      '2026-04-03',
      '2026-04-06',
      '2026-05-04',
      '2026-05-25',
      '2026-08-31',
      '2026-12-25',
      '2026-12-28',
    ])
  })

  it('substitute New Year and Christmas falling at a weekend (2022)', () => {
    expect(bankHolidays(2022)).toEqual([
      '2022-01-03',
      '2022-04-15',
      '2022-04-18',
      '2022-05-02',
      '2022-06-02',
      '2022-06-03',
      '2022-08-29',
      '2022-09-19',
      '2022-12-26',
      '2022-12-27',
    ])
  })

  it('include the coronation and the moved VE day', () => {
    expect(bankHolidays(2023)).toContain('2023-05-08')
    expect(bankHolidays(2020)).toContain('2020-05-08')
    expect(bankHolidays(2020)).not.toContain('2020-05-04')
  })

  it('find Easter Sunday', () => {
    expect(easterSunday(2024)).toEqual([2024, 3, 31])
    expect(easterSunday(2027)).toEqual([2027, 3, 28])
    expect(easterSunday(2038)).toEqual([2038, 4, 25])
  })

  it('list the year before, this year and the next', () => {
    const list = bankHolidayList(new Date('2026-06-01T12:00:00Z'))
    expect(list[0]).toEqual({ date: '2025-01-01' })
    expect(list.at(-1)).toEqual({ date: '2027-12-28' })
  })
})

describe('usFederalHolidays', () => {
  it('lists the eleven US federal holidays of 2026 as observed', () => {
    expect(usFederalHolidays(2026)).toEqual([
      '2026-01-01',
      '2026-01-19',
      '2026-02-16',
      '2026-05-25',
      '2026-06-19',
      '2026-07-03',
      '2026-09-07',
      '2026-10-12',
      '2026-11-11',
      '2026-11-26',
      '2026-12-25',
    ])
  })

  it('moves a Saturday holiday to Friday and a Sunday one to Monday', () => {
    expect(usFederalHolidays(2022)).toContain('2022-12-26')
    expect(usFederalHolidays(2027)).toContain('2027-12-24')
  })

  it('gives the calendar a site asks for', () => {
    const today = new Date('2026-11-23T12:00:00Z')
    expect(bankHolidayList(today, 'us-federal').map((h) => h.date)).toContain('2026-11-26')
    expect(bankHolidayList(today).map((h) => h.date)).not.toContain('2026-11-26')
    expect(bankHolidayList(today).map((h) => h.date)).toContain('2026-08-31')
  })
})
