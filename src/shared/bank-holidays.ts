/**
 * Bank holidays in England and Wales, computed offline (no call to GOV.UK): the fixed rules, the
 * substitute days when a holiday falls at a weekend, and the one-off changes by royal
 * proclamation since 1995. Dates are YYYY-MM-DD.
 */

const pad = (n: number) => String(n).padStart(2, '0')
const iso = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`
/** Day of week, 0 = Sunday, for a calendar date (UTC arithmetic: no time-zone surprises). */
export const weekday = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).getUTCDay()

function addDays(y: number, m: number, d: number, days: number): [number, number, number] {
  const t = new Date(Date.UTC(y, m - 1, d + days))
  return [t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate()]
}

/** Easter Sunday (Gregorian; anonymous algorithm). */
export function easterSunday(year: number): [number, number, number] {
  const a = year % 19
  const b = Math.floor(year / 100)
  const c = year % 100
  const d = Math.floor(b / 4)
  const e = b % 4
  const f = Math.floor((b + 8) / 25)
  const g = Math.floor((b - f + 1) / 3)
  const h = (19 * a + b - d - g + 15) % 30
  const i = Math.floor(c / 4)
  const k = c % 4
  const l = (32 + 2 * e + 2 * i - h - k) % 7
  const m = Math.floor((a + 11 * h + 22 * l) / 451)
  const month = Math.floor((h + l - 7 * m + 114) / 31)
  const day = ((h + l - 7 * m + 114) % 31) + 1
  return [year, month, day]
}

function firstMonday(y: number, m: number): number {
  const wd = weekday(y, m, 1)
  return 1 + ((8 - wd) % 7)
}

function lastMonday(y: number, m: number): number {
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate()
  const wd = weekday(y, m, days)
  return days - ((wd + 6) % 7)
}

/** Moved or added days by proclamation (England and Wales). */
const MOVED: Record<number, { early?: string; spring?: string; extra?: string[] }> = {
  1995: { early: '1995-05-08' },
  1999: { extra: ['1999-12-31'] },
  2002: { spring: '2002-06-04', extra: ['2002-06-03'] },
  2011: { extra: ['2011-04-29'] },
  2012: { spring: '2012-06-04', extra: ['2012-06-05'] },
  2020: { early: '2020-05-08' },
  2022: { spring: '2022-06-02', extra: ['2022-06-03', '2022-09-19'] },
  2023: { extra: ['2023-05-08'] },
}

/** Every bank holiday of a year in England and Wales, sorted. */
export function bankHolidays(year: number): string[] {
  const out: string[] = []
  // New Year's Day, or the next Monday when it falls at a weekend.
  const ny = weekday(year, 1, 1)
  out.push(iso(year, 1, ny === 6 ? 3 : ny === 0 ? 2 : 1))
  const easter = easterSunday(year)
  out.push(iso(...addDays(...easter, -2)), iso(...addDays(...easter, 1)))
  const moved = MOVED[year] ?? {}
  out.push(moved.early ?? iso(year, 5, firstMonday(year, 5)))
  out.push(moved.spring ?? iso(year, 5, lastMonday(year, 5)))
  out.push(iso(year, 8, lastMonday(year, 8)))
  // Christmas and Boxing Day with their substitute days.
  const xmas = weekday(year, 12, 25)
  if (xmas === 5)
    out.push(iso(year, 12, 25), iso(year, 12, 28)) // Fri: Boxing Day Sat -> Mon 28
  else if (xmas === 6)
    out.push(iso(year, 12, 27), iso(year, 12, 28)) // Sat: Mon 27, Tue 28
  else if (xmas === 0)
    out.push(iso(year, 12, 26), iso(year, 12, 27)) // Sun: Boxing Day Mon 26, Tue 27
  else out.push(iso(year, 12, 25), iso(year, 12, 26))
  out.push(...(moved.extra ?? []))
  return [...new Set(out)].sort()
}

/** The n-th (1-based) given weekday (0 = Sunday) of a month. */
function nthWeekday(y: number, m: number, wd: number, n: number): number {
  return 1 + ((wd - weekday(y, m, 1) + 7) % 7) + (n - 1) * 7
}

/** A fixed-date US federal holiday's observed day: Saturday -> Friday, Sunday -> Monday. */
function observedUs(y: number, m: number, d: number): string {
  const wd = weekday(y, m, d)
  return iso(...addDays(y, m, d, wd === 6 ? -1 : wd === 0 ? 1 : 0))
}

/** The US federal holidays (5 U.S.C. 6103) of a year, as observed, sorted. */
export function usFederalHolidays(year: number): string[] {
  const lastMondayOfMay = lastMonday(year, 5)
  return [
    observedUs(year, 1, 1),
    iso(year, 1, nthWeekday(year, 1, 1, 3)), // Birthday of Martin Luther King, Jr.
    iso(year, 2, nthWeekday(year, 2, 1, 3)), // Washington's Birthday
    iso(year, 5, lastMondayOfMay), // Memorial Day
    ...(year >= 2021 ? [observedUs(year, 6, 19)] : []), // Juneteenth
    observedUs(year, 7, 4),
    iso(year, 9, nthWeekday(year, 9, 1, 1)), // Labor Day
    iso(year, 10, nthWeekday(year, 10, 1, 2)), // Columbus Day
    observedUs(year, 11, 11), // Veterans Day
    iso(year, 11, nthWeekday(year, 11, 4, 4)), // Thanksgiving Day
    observedUs(year, 12, 25),
  ].sort()
}

export type HolidayCalendar = 'england-and-wales' | 'us-federal'

/** The time zone a calendar's despatch cut-off is counted in. */
export const CALENDAR_TIME_ZONE: Record<HolidayCalendar, string> = {
  'england-and-wales': 'Europe/London',
  'us-federal': 'America/New_York',
}

/** A calendar's holidays from the year before `today` to the year after, as `{ date }` objects. */
export function bankHolidayList(
  today: Date,
  calendar: HolidayCalendar = 'england-and-wales',
): { date: string }[] {
  const y = today.getUTCFullYear()
  const of = calendar === 'us-federal' ? usFederalHolidays : bankHolidays
  return [y - 1, y, y + 1].flatMap(of).map((date) => ({ date }))
}
