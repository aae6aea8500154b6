/** Customer/MyAccount 'Your Account': tiles and shortcuts to every account area (spec §2). */
import { Link, router } from '@inertiajs/react'
import { useState } from 'react'
import { ACCOUNT_TEXT } from '../../../shared/account-text.ts'
import type { MyAccountProps } from '../../../shared/account.ts'
import {
  AccountLayout,
  failureText,
  mainButton,
  type Notice,
} from '../../components/account/AccountLayout.tsx'
import { useFormat } from '../../components/account/format.ts'
import { requestJson } from '../../lib/json-client.ts'
import { useShared } from '../../lib/shared-props.ts'

export default function MyAccount({ greeting, counts, lastOrder, twoFactorEnabled }: MyAccountProps) {
  const { site } = useShared()
  const f = useFormat()
  const [notice, setNotice] = useState<Notice | null>(null)
  const [busy, setBusy] = useState(false)
  const cartName = site?.cartName || 'Basket'
  const tiles = [
    {
      href: '/customer/orders',
      label: 'Your Orders',
      text: `${counts.orders} order${counts.orders === 1 ? '' : 's'}. View history and reorder.`,
    },
    {
      href: '/customer/invoices',
      label: 'Your Invoices',
      text: `${counts.invoices} invoice${counts.invoices === 1 ? '' : 's'} to view or download.`,
    },
    {
      href: '/customer/carts',
      label: 'Baskets',
      text: `${counts.baskets} saved ${cartName.toLowerCase()}${counts.baskets === 1 ? '' : 's'}. Load, rename or delete.`,
    },
    {
      href: '/customer/update',
      label: 'Edit Details',
      text: `Contacts, addresses and ${counts.cards} saved card${counts.cards === 1 ? '' : 's'}.`,
    },
    {
      href: '/customer/password/change',
      label: 'Change Your Password',
      text: 'Choose a new password; other devices are logged out.',
    },
    {
      href: '/customer/marketing-preferences',
      label: 'Marketing Preferences',
      text: 'Choose what we may send you.',
    },
    {
      href: '/customer/two-factor',
      label: 'Two-Factor Authentication',
      text: twoFactorEnabled ? 'On. Manage recovery codes.' : 'Off. Add a code from your phone at login.',
    },
  ]

  const repeat = async () => {
    if (!lastOrder) return
    setBusy(true)
    const res = await requestJson('POST', `/customer/orders/${lastOrder.OrderNumber}/reorder`, {})
    setBusy(false)
    if (res.ok) router.visit('/cart')
    else setNotice({ kind: 'error', text: failureText(res.data, ACCOUNT_TEXT.cartFailed) })
  }

  return (
    <AccountLayout
      title="Your Account"
      titleFor={{ page: 'myAccount' }}
      greeting={greeting}
      here="/customer"
      notice={notice}
    >
      {lastOrder ? (
        <section aria-labelledby="last-order" className="mb-6 rounded-md border border-gray-200 p-4">
          <h2 id="last-order" className="font-semibold">
            Your last order
          </h2>
          <p className="mt-1 text-sm">
            Order{' '}
            <Link href={`/customer/orders/${lastOrder.OrderNumber}`} className="text-primary underline">
              {lastOrder.OrderNumber}
            </Link>{' '}
            of {f.date(lastOrder.orderDate)}, {f.money(lastOrder.total, lastOrder.currency)}:{' '}
            {lastOrder.statusText}
          </p>
          <button type="button" className={`${mainButton} mt-3`} disabled={busy} onClick={repeat}>
            Order again
          </button>
        </section>
      ) : (
        <p className="mb-6 text-gray-700">{ACCOUNT_TEXT.noOrders}</p>
      )}
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {tiles.map((t) => (
          <li key={t.href}>
            <Link
              href={t.href}
              className="block h-full rounded-md border border-gray-200 p-4 hover:border-primary hover:shadow-sm"
            >
              <span className="block font-semibold">{t.label}</span>
              <span className="mt-1 block text-sm text-gray-700">{t.text}</span>
            </Link>
          </li>
        ))}
      </ul>
    </AccountLayout>
  )
}
