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

/** Bank holidays from the year before `today` to the year after, as `{ date }` objects. */
export function bankHolidayList(today: Date): { date: string }[] {
  const y = today.getUTCFullYear()
  return [y - 1, y, y + 1].flatMap(bankHolidays).map((date) => ({ date }))
}
