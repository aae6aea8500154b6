/**
 * Back office: one customer: the account and its sign-in, the newest orders, contacts and
 * addresses; and, for a role that may act, reset two-factor and disable or re-enable the account
 * (each confirmed first, answered on this page, announced and focused).
 */
import { Head, Link, router, usePage } from '@inertiajs/react'
import type { ReactNode } from 'react'
import AdminLayout from '../../admin/AdminLayout.tsx'
import { ActionResult } from '../../admin/ActionResult.tsx'
import { adminProps, csrfHeaders, formatDateTime } from '../../admin/admin-props.ts'
import { methodWords, STATUS_LABELS } from '../../admin/labels.ts'
import { formatMoney } from '../../../shared/money.ts'
import type { Currency } from '../../../shared/page-props.ts'

interface Props {
  customer: {
    id: number
    site: string
    email: string
    firstName: string
    lastName: string
    company: string | null
    kind: string
    registered: boolean
    emailVerified: boolean
    registerDate: string | null
    disabled: boolean
    disabledAt: string | null
    twoFactor: boolean
    twoFactorResetPending: boolean
    contacts: { id: number; name: string; email: string; phone: string; company: string; primary: boolean }[]
    addresses: {
      id: number
      type: string
      company: string
      address1: string
      address2: string
      town: string
      county: string
      postcode: string
      country: string
      primary: boolean
    }[]
    orders: {
      number: number
      date: string
      status: string
      method: string
      currency: string
      total: number
    }[]
    moreOrders: boolean
  }
  errors: Record<string, string>
  notice: string | null
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="mt-6 rounded-lg border border-gray-200 bg-white p-4" aria-labelledby={id}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  )
}

const CONFIRM: Record<string, string> = {
  reset_two_factor:
    'Reset two-factor for this customer? Their sessions end and they must set it up again when they next sign in.',
  disable: 'Disable this account? Their sessions end and they cannot sign in until it is enabled again.',
  enable: 'Enable this account again? They can sign in with their password.',
}

export default function Customer({ customer: c, errors, notice }: Props) {
  const page = usePage()
  const { admin } = adminProps(page.props)
  const mayAct = admin.permissions.includes('customers.act')
  const name = `${c.firstName} ${c.lastName}`.trim() || c.email
  const act = (intent: string) => {
    if (!window.confirm(CONFIRM[intent])) return
    router.post(`/admin/customers/${c.id}`, { intent }, { headers: csrfHeaders(admin), preserveScroll: true })
  }
  const signIn = c.disabled
    ? `Disabled${c.disabledAt ? ` on ${formatDateTime(c.disabledAt)}` : ''}: cannot sign in`
    : !c.registered
      ? 'Guest (no password: cannot sign in)'
      : 'Can sign in'
  const twoFactor = c.twoFactor
    ? 'On'
    : c.twoFactorResetPending
      ? 'Reset: to be set up again at the next sign-in'
      : 'Off'
  const button = 'rounded border px-3 py-1.5 text-sm font-medium'
  return (
    <div>
      <Head title={`${name} - Customers - Shop back office`} />
      <p>
        <Link href="/admin/customers" className="text-sm underline">
          All customers
        </Link>
      </p>
      <h1 className="mt-2 text-xl font-semibold">{name}</h1>
      <ActionResult notice={notice} error={errors.form ?? errors.intent} />
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr_auto_1fr]">
        <dt className="font-medium">E-mail</dt>
        <dd className="wrap-anywhere">{c.email}</dd>
        <dt className="font-medium">Site</dt>
        <dd>{c.site}</dd>
        <dt className="font-medium">Company</dt>
        <dd>{c.company ?? '—'}</dd>
        <dt className="font-medium">Account</dt>
        <dd>
          {c.kind === 'club' ? 'Club' : 'Standard'}
          {c.registerDate ? `, registered ${formatDateTime(c.registerDate)}` : ''}
          {c.registered && !c.emailVerified ? ' (e-mail not verified)' : ''}
        </dd>
        <dt className="font-medium">Sign-in</dt>
        <dd>{signIn}</dd>
        <dt className="font-medium">Two-factor</dt>
        <dd>{twoFactor}</dd>
      </dl>
      {mayAct ? (
        <div className="mt-4 flex flex-wrap gap-3" role="group" aria-label="Actions on this customer">
          {c.twoFactor ? (
            <button
              type="button"
              onClick={() => act('reset_two_factor')}
              className={`${button} border-gray-500`}
            >
              Reset two-factor
            </button>
          ) : null}
          {c.disabled ? (
            <button type="button" onClick={() => act('enable')} className={`${button} border-gray-500`}>
              Enable account
            </button>
          ) : (
            <button
              type="button"
              onClick={() => act('disable')}
              className={`${button} border-red-700 text-red-800`}
            >
              Disable account
            </button>
          )}
        </div>
      ) : null}

      <Section id="orders-heading" title="Orders">
        {c.orders.length === 0 ? (
          <p className="mt-2 text-sm">No orders yet.</p>
        ) : (
          <ul className="mt-2 divide-y divide-gray-200 text-sm">
            {c.orders.map((o) => (
              <li key={o.number} className="flex flex-wrap gap-x-4 gap-y-1 py-2">
                <Link href={`/admin/orders/${o.number}`} className="font-semibold underline">
                  Order {o.number}
                </Link>
                <span>{formatDateTime(o.date)}</span>
                <span>{STATUS_LABELS[o.status] ?? o.status}</span>
                <span>{methodWords(o.method)}</span>
                <span className="ml-auto">{formatMoney(o.total, o.currency as Currency)}</span>
              </li>
            ))}
          </ul>
        )}
        {c.moreOrders ? (
          <p className="mt-2 text-sm">
            <Link href="/admin/orders" data={{ q: c.email, kind: 'email' }} className="underline">
              All orders with this e-mail
            </Link>
          </p>
        ) : null}
      </Section>

      <Section id="contacts-heading" title="Contacts">
        {c.contacts.length === 0 ? (
          <p className="mt-2 text-sm">No contacts.</p>
        ) : (
          <ul className="mt-2 grid gap-3 text-sm sm:grid-cols-2">
            {c.contacts.map((p) => (
              <li key={p.id}>
                <p className="font-medium">
                  {p.name} {p.primary ? '(primary)' : ''}
                </p>
                <p className="wrap-anywhere">{p.email}</p>
                {p.phone ? <p>{p.phone}</p> : null}
                {p.company ? <p>{p.company}</p> : null}
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section id="addresses-heading" title="Addresses">
        {c.addresses.length === 0 ? (
          <p className="mt-2 text-sm">No addresses.</p>
        ) : (
          <ul className="mt-2 grid gap-3 text-sm sm:grid-cols-2">
            {c.addresses.map((a) => (
              <li key={a.id}>
                <p className="font-medium">
                  {a.type === 'billing' ? 'Billing' : 'Delivery'} {a.primary ? '(primary)' : ''}
                </p>
                <address className="not-italic">
                  {[a.company, a.address1, a.address2, a.town, a.county, a.postcode, a.country]
                    .filter(Boolean)
                    .map((l, i) => (
                      <span key={i} className="block">
                        {l}
                      </span>
                    ))}
                </address>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </div>
  )
}

Customer.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
