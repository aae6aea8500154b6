/**
 * Back office: customers of both sites, newest first, with search (e-mail, name, company,
 * postcode) a page at a time (keyset: 'Older customers' carries the last row's id; no totals).
 * One card per customer, so it reads the same at 390 px.
 */
import { Head, Link, router } from '@inertiajs/react'
import { useId, useState, type FormEvent } from 'react'
import AdminLayout from '../../admin/AdminLayout.tsx'
import { FormError } from '../../admin/AdminCard.tsx'
import { formatDateTime } from '../../admin/admin-props.ts'

interface Row {
  id: number
  site: string
  email: string
  name: string
  company: string | null
  registered: boolean
  disabled: boolean
  since: string
}

interface Filters {
  site: number | null
  q: string
  kind: string
}

interface Props {
  filters: Filters
  errors: Record<string, string>
  sites: { id: number; name: string }[]
  kinds: string[]
  customers: Row[]
  next: string | null
}

const KIND_LABELS: Record<string, string> = {
  auto: 'Anything',
  email: 'E-mail',
  name: 'Name',
  company: 'Company',
  postcode: 'Postcode',
}

function query(f: Filters, after?: string): Record<string, string> {
  const out: Record<string, string> = {}
  if (f.site) out.site = String(f.site)
  if (f.q) out.q = f.q
  if (f.q && f.kind !== 'auto') out.kind = f.kind
  if (after) out.after = after
  return out
}

const control = 'mt-1 block w-full rounded-md border border-gray-300 px-2 py-1.5'

export default function Customers({ filters, errors, sites, kinds, customers, next }: Props) {
  const [f, setF] = useState<Filters>(filters)
  const ids = { q: useId(), kind: useId(), site: useId() }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    router.get('/admin/customers', query(f), { preserveState: true })
  }
  return (
    <div>
      <Head title="Customers - Shop back office" />
      <h1 className="text-xl font-semibold">Customers</h1>
      <form
        method="get"
        action="/admin/customers"
        onSubmit={submit}
        role="search"
        aria-label="Find customers"
        className="mt-4 grid gap-3 rounded-lg border border-gray-200 bg-white p-4 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end"
      >
        <div>
          <label htmlFor={ids.q} className="block text-sm font-medium">
            Search
          </label>
          <input
            id={ids.q}
            name="q"
            type="search"
            value={f.q}
            onChange={(e) => setF({ ...f, q: e.target.value })}
            aria-describedby={errors.q ? `${ids.q}-error` : undefined}
            aria-invalid={errors.q ? true : undefined}
            className={control}
            placeholder="E-mail, name, company or postcode"
          />
          {errors.q ? (
            <p id={`${ids.q}-error`} className="mt-1 text-sm text-red-700">
              {errors.q}
            </p>
          ) : null}
        </div>
        <div>
          <label htmlFor={ids.kind} className="block text-sm font-medium">
            Search in
          </label>
          <select
            id={ids.kind}
            name="kind"
            value={f.kind}
            onChange={(e) => setF({ ...f, kind: e.target.value })}
            className={control}
          >
            {kinds.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k] ?? k}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={ids.site} className="block text-sm font-medium">
            Site
          </label>
          <select
            id={ids.site}
            name="site"
            value={f.site ?? ''}
            onChange={(e) => setF({ ...f, site: e.target.value ? Number(e.target.value) : null })}
            className={control}
          >
            <option value="">All sites</option>
            {sites.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
        <div className="flex items-center gap-4">
          <button type="submit" className="rounded-md bg-primary px-4 py-2 font-semibold text-on-primary">
            Find customers
          </button>
          <Link href="/admin/customers" className="text-sm underline">
            Clear
          </Link>
        </div>
      </form>
      <FormError message={Object.values(errors)[0]} />
      <div role="status" aria-live="polite" className="mt-4 text-sm text-gray-700">
        {customers.length === 0
          ? 'No customers match.'
          : `Showing ${customers.length} customer${customers.length === 1 ? '' : 's'}, newest first.`}
      </div>
      {customers.length > 0 ? (
        <ul
          aria-label="Customers"
          className="mt-2 divide-y divide-gray-200 rounded-lg border border-gray-200 bg-white"
        >
          {customers.map((c) => (
            <li key={c.id} className="flex flex-wrap items-baseline gap-x-4 gap-y-1 p-3 text-sm">
              <Link href={`/admin/customers/${c.id}`} className="min-w-48 flex-1 font-semibold underline">
                {c.name || c.email}
              </Link>
              <span className="wrap-anywhere text-gray-700">{c.email}</span>
              {c.company ? <span className="text-gray-700">{c.company}</span> : null}
              <span className="text-gray-700">{c.site}</span>
              <span className="text-gray-700">
                {c.disabled ? 'Disabled' : c.registered ? 'Registered' : 'Guest'}, first seen{' '}
                {formatDateTime(c.since)}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {next ? (
        <p className="mt-4">
          <Link href="/admin/customers" data={query(filters, next)} className="underline">
            Older customers
          </Link>
        </p>
      ) : null}
    </div>
  )
}

Customers.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
