/**
 * Back office: payments that need a person. Money taken with no order, payments in an unknown
 * state, refunds the provider has not confirmed, and the orders of the order list's 'needs
 * attention' filter; each row with its action for a role that may act (the server checks again).
 * Each list pages on its own cursor, newest first; one card per row, so it reads at 390 px.
 */
import { Head, Link, router, usePage } from '@inertiajs/react'
import type { ReactNode } from 'react'
import AdminLayout from '../../admin/AdminLayout.tsx'
import { ActionResult } from '../../admin/ActionResult.tsx'
import { adminProps, csrfHeaders, formatDateTime } from '../../admin/admin-props.ts'
import { methodWords, STATUS_LABELS } from '../../admin/labels.ts'
import { formatMoney } from '../../../shared/money.ts'
import type { Currency } from '../../../shared/page-props.ts'

interface Attempt {
  id: string
  site: string
  method: string
  state: string
  resolution: string | null
  amount: number
  currency: string
  note: string | null
  lastMessage: string | null
  createdAt: string
  orderNumber: number | null
  email: string | null
  actions: string[]
}

interface Refund {
  id: string
  orderNumber: number | null
  method: string
  how: string
  status: string
  amount: number
  currency: string
  reason: string
  message: string | null
  createdAt: string
  actions: string[]
}

interface Listed<T> {
  rows: T[]
  next: string | null
}

interface Props {
  paid: Listed<Attempt>
  unknown: Listed<Attempt>
  refunds: Listed<Refund>
  orders: {
    rows: {
      number: number
      date: string
      status: string
      customer: string
      total: number
      currency: string
    }[]
    more: boolean
  }
  errors: Record<string, string>
  notice: string | null
}

const ACTION_LABELS: Record<string, string> = {
  resolve: 'Resolve now',
  give_back: 'Give the money back',
  place: 'Place the order',
  reconcile: 'Ask the provider now',
  refund_status: 'Ask the provider now',
}

/** The actions that move money or make an order are confirmed first; asking the provider is not. */
const CONFIRM: Record<string, string> = {
  resolve:
    'Resolve this payment now? The order is placed from the basket if it still can be, otherwise the money is given back.',
  give_back: 'Give this money back to the shopper now? No order can be placed from it afterwards.',
  place: 'Place the order from this payment now?',
}

const RESOLUTION_LABELS: Record<string, string> = {
  voiding: 'Being given back',
  needs_attention: 'Needs a person: refund it with the provider, or place the order',
}

function Section({
  id,
  title,
  intro,
  empty,
  count,
  children,
}: {
  id: string
  title: string
  intro: string
  empty: string
  count: number
  children: ReactNode
}) {
  return (
    <section className="mt-6 rounded-lg border border-gray-200 bg-white p-4" aria-labelledby={id}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <p className="mt-1 text-sm text-gray-700">{intro}</p>
      {count === 0 ? <p className="mt-2 text-sm">{empty}</p> : children}
    </section>
  )
}

function Older({ name, next }: { name: string; next: string | null }) {
  if (!next) return null
  return (
    <p className="mt-3 text-sm">
      <Link href="/admin/payments" data={{ [name]: next }} className="underline">
        Older
      </Link>
    </p>
  )
}

function Actions({ id, actions, what }: { id: string; actions: string[]; what: string }) {
  const page = usePage()
  const { admin } = adminProps(page.props)
  if (!admin.permissions.includes('payments.act') || actions.length === 0) return null
  return (
    <div className="flex flex-wrap gap-2">
      {actions.map((intent) => (
        <button
          key={intent}
          type="button"
          onClick={() => {
            const question = CONFIRM[intent]
            if (question && !window.confirm(question)) return
            router.post(
              '/admin/payments',
              { intent, id },
              { headers: csrfHeaders(admin), preserveScroll: true },
            )
          }}
          className="rounded border border-gray-500 px-3 py-1.5 text-sm font-medium"
        >
          {ACTION_LABELS[intent] ?? intent}
          <span className="sr-only"> for {what}</span>
        </button>
      ))}
    </div>
  )
}

const money = (minor: number, currency: string) => formatMoney(minor, currency as Currency)

function AttemptRow({ a }: { a: Attempt }) {
  const what = `the ${money(a.amount, a.currency)} ${methodWords(a.method)} payment of ${formatDateTime(a.createdAt)}`
  return (
    <li className="flex flex-wrap items-start gap-x-4 gap-y-2 py-3 text-sm">
      <div className="min-w-56 flex-1">
        <p className="font-medium">
          {money(a.amount, a.currency)} by {methodWords(a.method)} on {a.site}
        </p>
        <p className="text-gray-700">
          {formatDateTime(a.createdAt)} · {a.state}
          {a.resolution ? ` · ${RESOLUTION_LABELS[a.resolution] ?? a.resolution}` : ''}
        </p>
        {a.email ? <p className="wrap-anywhere text-gray-700">Shopper: {a.email}</p> : null}
        {a.orderNumber ? (
          <p>
            <Link href={`/admin/orders/${a.orderNumber}`} className="underline">
              Order {a.orderNumber}
            </Link>
          </p>
        ) : null}
        {a.note || a.lastMessage ? <p className="text-gray-700">{a.note ?? a.lastMessage}</p> : null}
        <p className="wrap-anywhere text-xs text-gray-600">Reference {a.id}</p>
      </div>
      <Actions id={a.id} actions={a.actions} what={what} />
    </li>
  )
}

export default function Attention({ paid, unknown, refunds, orders, errors, notice }: Props) {
  return (
    <div>
      <Head title="Payments to check - Shop back office" />
      <h1 className="text-xl font-semibold">Payments that need attention</h1>
      <ActionResult notice={notice} error={errors.form ?? errors.intent ?? errors.id} />
      {errors.paid || errors.unknown || errors.refunds ? (
        <p className="mt-2 text-sm text-red-700">{errors.paid ?? errors.unknown ?? errors.refunds}</p>
      ) : null}

      <Section
        id="paid-heading"
        title="Money taken, no order"
        intro="Payments the provider took or reserved that no order has claimed. Resolving places the order from the basket when it still can, else gives the money back."
        empty="None: every payment taken has its order."
        count={paid.rows.length}
      >
        <ul className="mt-2 divide-y divide-gray-200">
          {paid.rows.map((a) => (
            <AttemptRow key={a.id} a={a} />
          ))}
        </ul>
        <Older name="paid" next={paid.next} />
      </Section>

      <Section
        id="unknown-heading"
        title="Payments in an unknown state"
        intro="The provider's answer was lost. The reconciler asks again on its own; you can ask now."
        empty="None."
        count={unknown.rows.length}
      >
        <ul className="mt-2 divide-y divide-gray-200">
          {unknown.rows.map((a) => (
            <AttemptRow key={a.id} a={a} />
          ))}
        </ul>
        <Older name="unknown" next={unknown.next} />
      </Section>

      <Section
        id="refunds-heading"
        title="Refunds not confirmed"
        intro="Refunds the provider has accepted but not finished, or whose answer was lost."
        empty="None: every refund is settled."
        count={refunds.rows.length}
      >
        <ul className="mt-2 divide-y divide-gray-200">
          {refunds.rows.map((r) => (
            <li key={r.id} className="flex flex-wrap items-start gap-x-4 gap-y-2 py-3 text-sm">
              <div className="min-w-56 flex-1">
                <p className="font-medium">
                  {money(r.amount, r.currency)} {r.how.replace('_', ' ')} by {methodWords(r.method)} ·{' '}
                  {r.status}
                </p>
                <p className="text-gray-700">
                  {formatDateTime(r.createdAt)} · {r.reason}
                </p>
                {r.orderNumber ? (
                  <p>
                    <Link href={`/admin/orders/${r.orderNumber}`} className="underline">
                      Order {r.orderNumber}
                    </Link>
                  </p>
                ) : null}
                {r.message ? <p className="text-gray-700">{r.message}</p> : null}
              </div>
              <Actions
                id={r.id}
                actions={r.actions}
                what={`the ${money(r.amount, r.currency)} refund${r.orderNumber ? ` of order ${r.orderNumber}` : ''}`}
              />
            </li>
          ))}
        </ul>
        <Older name="refunds" next={refunds.next} />
      </Section>

      <Section
        id="orders-heading"
        title="Orders awaiting payment for over an hour, or with a refund not confirmed"
        intro="The same orders as the order list's 'Needs attention' filter."
        empty="None."
        count={orders.rows.length}
      >
        <ul className="mt-2 divide-y divide-gray-200 text-sm">
          {orders.rows.map((o) => (
            <li key={o.number} className="flex flex-wrap gap-x-4 gap-y-1 py-2">
              <Link href={`/admin/orders/${o.number}`} className="font-semibold underline">
                Order {o.number}
              </Link>
              <span>{formatDateTime(o.date)}</span>
              <span>{STATUS_LABELS[o.status] ?? o.status}</span>
              <span>{o.customer}</span>
              <span className="ml-auto">{money(o.total, o.currency)}</span>
            </li>
          ))}
        </ul>
        {orders.more ? (
          <p className="mt-3 text-sm">
            <Link href="/admin/orders" data={{ attention: '1' }} className="underline">
              All orders needing attention
            </Link>
          </p>
        ) : null}
      </Section>
    </div>
  )
}

Attention.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
