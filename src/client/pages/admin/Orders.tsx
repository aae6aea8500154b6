/**
 * Back office: orders across both sites, newest first, with filters and search, a page at a time
 * (keyset: 'Older orders' carries the last row's cursor; there are no page numbers or totals).
 * At 390 px the table becomes one card per order.
 */
import { Head, Link, router } from '@inertiajs/react'
import { useId, useState, type FormEvent } from 'react'
import AdminLayout from '../../admin/AdminLayout.tsx'
import { FormError } from '../../admin/AdminCard.tsx'
import { formatDateTime } from '../../admin/admin-props.ts'
import { methodWords, ORDER_STATE_WORDS, STATUS_LABELS } from '../../admin/labels.ts'
import { formatMoney } from '../../../shared/money.ts'
import type { Currency } from '../../../shared/page-props.ts'

interface Row {
  id: number
  number: number
  site: string
  date: string
  status: string
  method: string
  currency: string
  total: number
  customer: string
  email: string
  postcode: string
  poNumber: string | null
}

interface Filters {
  site: number | null
  status: string
  method: string
  from: string
  to: string
  attention: boolean
  q: string
  kind: string
}

interface Props {
  filters: Filters
  errors: Record<string, string>
  sites: { id: number; name: string }[]
  methods: string[]
  kinds: string[]
  orders: Row[]
  next: string | null
}

const KIND_LABELS: Record<string, string> = {
  auto: 'Anything',
  number: 'Order number',
  email: 'E-mail',
  name: 'Customer name',
  po: 'PO number',
  postcode: 'Postcode',
}

function query(f: Filters, after?: string): Record<string, string> {
  const out: Record<string, string> = {}
  if (f.site) out.site = String(f.site)
  if (f.status) out.status = f.status
  if (f.method) out.method = f.method
  if (f.from) out.from = f.from
  if (f.to) out.to = f.to
  if (f.attention) out.attention = '1'
  if (f.q) out.q = f.q
  if (f.q && f.kind !== 'auto') out.kind = f.kind
  if (after) out.after = after
  return out
}

function Field({
  label,
  error,
  children,
}: {
  label: string
  error?: string | undefined
  children: (id: string, describedBy?: string) => React.ReactNode
}) {
  const id = useId()
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children(id, error ? `${id}-error` : undefined)}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  )
}

const control = 'mt-1 block w-full rounded-md border border-gray-300 px-2 py-1.5'

export default function Orders({ filters, errors, sites, methods, kinds, orders, next }: Props) {
  const [f, setF] = useState<Filters>(filters)
  const set = <K extends keyof Filters>(k: K, v: Filters[K]) => setF((old) => ({ ...old, [k]: v }))
  const submit = (e: FormEvent) => {
    e.preventDefault()
    router.get('/admin/orders', query(f), { preserveState: true })
  }
  return (
    <div>
      <Head title="Orders - Shop back office" />
      <h1 className="text-xl font-semibold">Orders</h1>
      <form
        method="get"
        action="/admin/orders"
        onSubmit={submit}
        role="search"
        aria-label="Find orders"
        className="mt-4 rounded-lg border border-gray-200 bg-white p-4"
      >
        <div className="grid gap-3 sm:grid-cols-[2fr_1fr]">
          <Field label="Search" error={errors.q}>
            {(id, d) => (
              <input
                id={id}
                name="q"
                type="search"
                value={f.q}
                onChange={(e) => set('q', e.target.value)}
                aria-describedby={d}
                className={control}
                placeholder="Order number, e-mail, name, PO number or postcode"
              />
            )}
          </Field>
          <Field label="Search in">
            {(id) => (
              <select
                id={id}
                name="kind"
                value={f.kind}
                onChange={(e) => set('kind', e.target.value)}
                className={control}
              >
                {kinds.map((k) => (
                  <option key={k} value={k}>
                    {KIND_LABELS[k] ?? k}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <div className="mt-3 grid gap-3 sm:grid-cols-5">
          <Field label="Site">
            {(id) => (
              <select
                id={id}
                name="site"
                value={f.site ?? ''}
                onChange={(e) => set('site', e.target.value ? Number(e.target.value) : null)}
                className={control}
              >
                <option value="">All sites</option>
                {sites.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Status">
            {(id) => (
              <select
                id={id}
                name="status"
                value={f.status}
                onChange={(e) => set('status', e.target.value)}
                className={control}
              >
                <option value="">Any status</option>
                {Object.entries(STATUS_LABELS).map(([v, l]) => (
                  <option key={v} value={v}>
                    {l}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Payment method">
            {(id) => (
              <select
                id={id}
                name="method"
                value={f.method}
                onChange={(e) => set('method', e.target.value)}
                className={control}
              >
                <option value="">Any method</option>
                {methods.map((m) => (
                  <option key={m} value={m}>
                    {methodWords(m)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="From" error={errors.from}>
            {(id, d) => (
              <input
                id={id}
                name="from"
                type="date"
                value={f.from}
                onChange={(e) => set('from', e.target.value)}
                aria-describedby={d}
                className={control}
              />
            )}
          </Field>
          <Field label="To" error={errors.to}>
            {(id, d) => (
              <input
                id={id}
                name="to"
                type="date"
                value={f.to}
                onChange={(e) => set('to', e.target.value)}
                aria-describedby={d}
                className={control}
              />
            )}
          </Field>
        </div>
        <div className="mt-3 flex flex-wrap items-center gap-4">
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              name="attention"
              value="1"
              checked={f.attention}
              onChange={(e) => set('attention', e.target.checked)}
            />
            Needs attention (awaiting payment for over an hour, or a refund not yet confirmed)
          </label>
          <button type="submit" className="rounded-md bg-primary px-4 py-2 font-semibold text-on-primary">
            Find orders
          </button>
          <Link href="/admin/orders" className="text-sm underline">
            Clear
          </Link>
        </div>
      </form>
      <FormError message={Object.values(errors)[0]} />
      <div role="status" aria-live="polite" className="mt-4 text-sm text-gray-700">
        {orders.length === 0
          ? 'No orders match.'
          : `Showing ${orders.length} order${orders.length === 1 ? '' : 's'}, newest first.`}
      </div>
      {orders.length > 0 ? (
        <table className="mt-2 w-full border-collapse bg-white text-sm admin-stack">
          <caption className="sr-only">Orders, newest first</caption>
          <thead className="max-md:sr-only">
            <tr className="border-b border-gray-300 text-left">
              <th scope="col" className="p-2">
                Order
              </th>
              <th scope="col" className="p-2">
                Date
              </th>
              <th scope="col" className="p-2">
                Site
              </th>
              <th scope="col" className="p-2">
                Customer
              </th>
              <th scope="col" className="p-2">
                Postcode
              </th>
              <th scope="col" className="p-2">
                Status
              </th>
              <th scope="col" className="p-2">
                Payment
              </th>
              <th scope="col" className="p-2 text-right">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {orders.map((o) => (
              <tr key={o.id} className="border-b border-gray-200">
                <th scope="row" className="p-2 text-left">
                  <Link href={`/admin/orders/${o.number}`} className="font-semibold underline">
                    {o.number}
                  </Link>
                </th>
                <td data-label="Date" className="p-2">
                  {formatDateTime(o.date)}
                </td>
                <td data-label="Site" className="p-2">
                  {o.site}
                </td>
                <td data-label="Customer" className="p-2 admin-stack-wide">
                  {o.customer}
                  <span className="block text-gray-600 wrap-anywhere">{o.email}</span>
                  {o.poNumber ? <span className="block text-gray-600">PO {o.poNumber}</span> : null}
                </td>
                <td data-label="Postcode" className="p-2">
                  {o.postcode}
                </td>
                <td data-label="Status" className="p-2">
                  {ORDER_STATE_WORDS[o.status] ?? o.status}
                </td>
                <td data-label="Payment" className="p-2">
                  {methodWords(o.method)}
                </td>
                <td data-label="Total" className="p-2 text-right">
                  {formatMoney(o.total, o.currency as Currency)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {next ? (
        <p className="mt-4">
          <Link href="/admin/orders" data={query(filters, next)} className="underline">
            Older orders
          </Link>
        </p>
      ) : null}
    </div>
  )
}

Orders.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
