/** Money and dates on the account pages, in the site's currency and locale. */
import { formatMoney } from '../../../shared/money.ts'
import { useShared } from '../../lib/shared-props.ts'

export function useFormat() {
  const { site } = useShared()
  const locale = site?.locale ?? 'en-GB'
  return {
    money: (n: number, currency?: 'GBP' | 'USD') => formatMoney(n, currency ?? site?.currency ?? 'GBP'),
    date: (iso: string) =>
      new Date(iso).toLocaleDateString(locale, {
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        timeZone: 'UTC',
      }),
  }
}
