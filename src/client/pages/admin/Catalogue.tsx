/**
 * Back office: find a SKU or product group on either site by SKU code, name or group name, a
 * page at a time ('More SKUs' carries the last row's id; no page numbers or totals). Each row
 * leads to the SKU's page; editors also reach the CSV import.
 */
import { Head, Link, router } from '@inertiajs/react'
import { useState, type FormEvent } from 'react'
import AdminLayout from '../../admin/AdminLayout.tsx'
import { Field, useCan } from '../../admin/edit-parts.tsx'
import { formatMoney } from '../../../shared/money.ts'
import type { Currency } from '../../../shared/page-props.ts'

interface Row {
  id: number
  sku: string
  name: string
  published: boolean
  site: string
  currency: string
  group: string
  groupPublished: boolean
  fromPrice: number | null
}

interface Props {
  filters: { q: string; site: number | null }
  sites: { id: number; name: string }[]
  skus: Row[]
  next: number | null
}

function query(f: Props['filters'], after?: number): Record<string, string> {
  const out: Record<string, string> = {}
  if (f.q) out.q = f.q
  if (f.site) out.site = String(f.site)
  if (after) out.after = String(after)
  return out
}

export default function Catalogue({ filters, sites, skus, next }: Props) {
  const [f, setF] = useState(filters)
  const canEdit = useCan('catalogue.edit')
  const submit = (e: FormEvent) => {
    e.preventDefault()
    router.get('/admin/catalogue', query(f), { preserveState: true })
  }
  return (
    <div>
      <Head title="Catalogue - Shop back office" />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-xl font-semibold">Catalogue</h1>
        {canEdit ? (
          <Link href="/admin/catalogue/import" className="underline">
            Import a CSV
          </Link>
        ) : null}
      </div>
      <form
        method="get"
        action="/admin/catalogue"
        onSubmit={submit}
        role="search"
        aria-label="Find SKUs"
        className="mt-4 grid gap-3 rounded-lg border border-gray-200 bg-white p-4 sm:grid-cols-[2fr_1fr_auto] sm:items-end"
      >
        <Field label="Search">
          {(p) => (
            <input
              {...p}
              name="q"
              type="search"
              value={f.q}
              onChange={(e) => setF({ ...f, q: e.target.value })}
              placeholder="SKU code, SKU name or product group"
            />
          )}
        </Field>
        <Field label="Site">
          {(p) => (
            <select
              {...p}
              name="site"
              value={f.site ?? ''}
              onChange={(e) => setF({ ...f, site: e.target.value ? Number(e.target.value) : null })}
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
        <button type="submit" className="rounded-md bg-primary px-4 py-2 font-semibold text-on-primary">
          Find
        </button>
      </form>
      <div role="status" aria-live="polite" className="mt-4 text-sm text-gray-700">
        {skus.length === 0 ? 'No SKUs match.' : `Showing ${skus.length} SKU${skus.length === 1 ? '' : 's'}.`}
      </div>
      {skus.length > 0 ? (
        <table className="mt-2 w-full border-collapse bg-white text-sm admin-stack">
          <caption className="sr-only">SKUs</caption>
          <thead className="max-md:sr-only">
            <tr className="border-b border-gray-300 text-left">
              <th scope="col" className="p-2">
                SKU
              </th>
              <th scope="col" className="p-2">
                Name
              </th>
              <th scope="col" className="p-2">
                Product group
              </th>
              <th scope="col" className="p-2">
                Site
              </th>
              <th scope="col" className="p-2">
                Shop
              </th>
              <th scope="col" className="p-2 text-right">
                From
              </th>
            </tr>
          </thead>
          <tbody>
            {skus.map((s) => (
              <tr key={s.id} className="border-b border-gray-200">
                <th scope="row" className="p-2 text-left">
                  <Link
                    href={`/admin/catalogue/skus/${s.id}`}
                    className="font-semibold wrap-anywhere underline"
                  >
                    {s.sku}
                  </Link>
                </th>
                <td data-label="Name" className="p-2 admin-stack-wide">
                  {s.name}
                </td>
                <td data-label="Product group" className="p-2 admin-stack-wide">
                  {s.group}
                </td>
                <td data-label="Site" className="p-2">
                  {s.site}
                </td>
                <td data-label="Shop" className="p-2">
                  {s.published && s.groupPublished
                    ? 'Published'
                    : s.published
                      ? 'Group unpublished'
                      : 'Unpublished'}
                </td>
                <td data-label="From" className="p-2 text-right">
                  {s.fromPrice === null ? '' : formatMoney(s.fromPrice, s.currency as Currency)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {next ? (
        <p className="mt-4">
          <Link href="/admin/catalogue" data={query(filters, next)} className="underline">
            More SKUs
          </Link>
        </p>
      ) : null}
    </div>
  )
}

Catalogue.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
