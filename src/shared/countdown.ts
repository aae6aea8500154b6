/**
 * The dispatch cut-off countdown (spec §4 "Countdown"): the time left until hour:minute today in
 * the UK, the message after the deadline, or a message (or nothing) when today or the next
 * working day is a bank holiday, or at a weekend, per the block's settings.
 */
import { weekday } from './bank-holidays.ts'

export interface CountdownSettings {
  hour: number
  minute: number
  bankHolidayDependant: boolean
  weekendDependant: boolean
  /** Shown with the time left, e.g. 'Order within' */
  messageBefore: string
  /** Shown after the clock, e.g. 'for same-day despatch' */
  messageAfter: string
  /** Replaces the countdown when a bank holiday is today or next; empty = hidden */
  messageBankHoliday: string
  /** Replaces the countdown at a weekend; empty = hidden */
  messageWeekend: string
  messageAfterDeadline: string
}

export type CountdownState =
  | { kind: 'counting'; remaining: string; seconds: number }
  | { kind: 'deadline'; message: string }
  | { kind: 'message'; message: string }
  | { kind: 'hidden' }

export const COUNTDOWN_TIME_ZONE = 'Europe/London'

/** Wall-clock date and time in the UK (or another time zone) for an instant. */
export function ukClock(
  now: Date,
  timeZone = COUNTDOWN_TIME_ZONE,
): { y: number; m: number; d: number; hh: number; mm: number; ss: number } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(now)
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0)
  return {
    y: get('year'),
    m: get('month'),
    d: get('day'),
    hh: get('hour'),
    mm: get('minute'),
    ss: get('second'),
  }
}

const pad = (n: number) => String(n).padStart(2, '0')

function isoAfter(y: number, m: number, d: number, days: number): string {
  const t = new Date(Date.UTC(y, m - 1, d + days))
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`
}

/** hh:mm:ss for a number of seconds. */
export function formatRemaining(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds))
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`
}

export function countdownState(
  now: Date,
  settings: CountdownSettings,
  holidays: ReadonlySet<string>,
  /** The site's calendar time zone (Europe/London on UK sites) */
  timeZone = COUNTDOWN_TIME_ZONE,
): CountdownState {
  const { y, m, d, hh, mm, ss } = ukClock(now, timeZone)
  const day = weekday(y, m, d)
  const today = isoAfter(y, m, d, 0)
  // The next working day: Friday adds 3 days (Monday), Saturday 2, any other day 1.
  const next = isoAfter(y, m, d, day === 5 ? 3 : day === 6 ? 2 : 1)
  const hide = (message: string): CountdownState =>
    message ? { kind: 'message', message } : { kind: 'hidden' }
  if (settings.bankHolidayDependant && (holidays.has(today) || holidays.has(next))) {
    return hide(settings.messageBankHoliday)
  }
  if (settings.weekendDependant && (day === 0 || day === 6)) return hide(settings.messageWeekend)
  const left = settings.hour * 3600 + settings.minute * 60 - (hh * 3600 + mm * 60 + ss)
  if (left <= 0) return { kind: 'deadline', message: settings.messageAfterDeadline }
  return { kind: 'counting', remaining: formatRemaining(left), seconds: left }
}
