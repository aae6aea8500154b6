/**
 * Dates shown to shoppers: 22/11/2026 on GBP sites (en-GB) and 11/22/2026 on USD sites (en-US).
 * Dates travel as ISO strings (`2026-11-22` or a full timestamp); this is the one place that
 * formats them.
 */
export type DateLocale = 'en-GB' | 'en-US'

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(locale: DateLocale, withTime: boolean): Intl.DateTimeFormat {
  const key = `${locale}:${withTime}`
  let f = formatters.get(key)
  if (!f) {
    f = new Intl.DateTimeFormat(locale, {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      ...(withTime ? { hour: '2-digit', minute: '2-digit', hour12: locale === 'en-US' } : {}),
      // A plain date (no time) means that calendar day everywhere.
      timeZone: withTime ? 'Europe/London' : 'UTC',
    })
    formatters.set(key, f)
  }
  return f
}

/** Formats `2026-11-22` or an ISO timestamp; an unreadable value gives ''. */
export function formatDate(
  iso: string,
  locale: DateLocale = 'en-GB',
  options: { withTime?: boolean } = {},
): string {
  const plainDate = /^\d{4}-\d{2}-\d{2}$/.test(iso)
  const date = new Date(plainDate ? `${iso}T00:00:00Z` : iso)
  if (Number.isNaN(date.getTime())) return ''
  return formatter(locale, !plainDate && !!options.withTime).format(date)
}
