/**
 * Countdown to the dispatch cut-off (spec §4): hh:mm:ss until the target time today, ticking every
 * second; the message after the deadline once reached; hidden or replaced around bank holidays and
 * weekends per the block. Bank holidays come from GET /bank-holidays; a failed fetch is logged and
 * the countdown stays hidden. The server cannot know the visitor's clock: it renders an invisible
 * box of the counting text's size, which the browser fills after hydration, so the content below
 * does not move (issue 18: layout shift on the home page).
 */
import { useEffect, useState } from 'react'
import type { PresentedBlok } from '../../../shared/content.ts'
import { countdownState, type CountdownSettings, type CountdownState } from '../../../shared/countdown.ts'
import { CALENDAR_TIME_ZONE } from '../../../shared/bank-holidays.ts'
import { useShared } from '../../lib/shared-props.ts'
import { num, str } from './fields.ts'

export const BANK_HOLIDAYS_URL = '/bank-holidays'
export const COUNTDOWN_TICK_MS = 1000

const NO_HOLIDAYS: ReadonlySet<string> = new Set()

let holidaysRequest: Promise<ReadonlySet<string>> | null = null

/** One request per page load, shared by every countdown on the page. */
function loadHolidays(): Promise<ReadonlySet<string>> {
  holidaysRequest ??= fetch(BANK_HOLIDAYS_URL, { headers: { accept: 'application/json' } })
    .then((r) => {
      if (!r.ok) throw new Error(`GET ${BANK_HOLIDAYS_URL} answered ${r.status}`)
      return r.json() as Promise<{ date: string }[]>
    })
    .then((list) => new Set(list.map((h) => h.date)))
    .catch((err: unknown) => {
      holidaysRequest = null
      throw err
    })
  return holidaysRequest
}

export function countdownSettings(blok: PresentedBlok): CountdownSettings {
  return {
    hour: Math.min(23, Math.max(0, Math.floor(num(blok.hour, 14)))),
    minute: Math.min(59, Math.max(0, Math.floor(num(blok.minute, 0)))),
    bankHolidayDependant: blok.bankHolidayDependant === true,
    weekendDependant: blok.weekendDependant === true,
    messageBefore: str(blok.messageBefore),
    messageAfter: str(blok.messageAfter),
    messageBankHoliday: str(blok.messageBankHoliday),
    messageWeekend: str(blok.messageWeekend),
    messageAfterDeadline: str(blok.messageAfterDeadline),
  }
}

const BOX = 'rounded-md border border-accent bg-accent/10 px-4 py-3 text-center font-medium'
const TIME = 'font-mono text-lg tabular-nums'

export function CountdownBlock({ blok }: { blok: PresentedBlok }) {
  const settings = countdownSettings(blok)
  const [fetched, setFetched] = useState<ReadonlySet<string> | null>(null)
  // 'pending' until the first tick in the browser (and on the server): the space is kept.
  const [state, setState] = useState<CountdownState | { kind: 'pending' }>({ kind: 'pending' })
  // The cut-off is counted in the site's calendar time zone; holidays come from that calendar.
  const timeZone = CALENDAR_TIME_ZONE[useShared().site?.calendar ?? 'england-and-wales']
  // Without bank-holiday dependence nothing needs fetching.
  const holidays = settings.bankHolidayDependant ? fetched : NO_HOLIDAYS

  useEffect(() => {
    if (!settings.bankHolidayDependant) return
    let live = true
    loadHolidays().then(
      (set) => live && setFetched(set),
      (err: unknown) => {
        console.warn('Bank holidays could not be loaded; the countdown stays hidden.', err)
        if (live) setState({ kind: 'hidden' })
      },
    )
    return () => {
      live = false
    }
  }, [settings.bankHolidayDependant])

  const key = JSON.stringify(settings)
  useEffect(() => {
    if (!holidays) return
    const s = JSON.parse(key) as CountdownSettings
    const tick = () => setState(countdownState(new Date(), s, holidays, timeZone))
    const first = setTimeout(tick, 0)
    const timer = setInterval(tick, COUNTDOWN_TICK_MS)
    return () => {
      clearTimeout(first)
      clearInterval(timer)
    }
  }, [holidays, key, timeZone])

  if (state.kind === 'hidden') return null
  if (state.kind === 'pending') {
    return (
      <div className={`${BOX} invisible`} aria-hidden="true" data-testid="countdown-placeholder">
        {settings.messageBefore ? `${settings.messageBefore} ` : ''}
        <strong className={TIME}>00:00:00</strong>
        {settings.messageAfter ? ` ${settings.messageAfter}` : ''}
      </div>
    )
  }
  return (
    <div className={BOX} data-testid="countdown" role="timer" aria-live="off">
      {state.kind === 'counting' ? (
        <>
          {settings.messageBefore ? `${settings.messageBefore} ` : ''}
          <strong className={TIME} data-testid="countdown-time">
            {state.remaining}
          </strong>
          {settings.messageAfter ? ` ${settings.messageAfter}` : ''}
        </>
      ) : (
        state.message
      )}
    </div>
  )
}
