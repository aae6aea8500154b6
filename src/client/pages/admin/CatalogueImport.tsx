/**
 * Back office: import SKUs from a CSV file into one site: the integration API's import (same
 * columns, same rules, all rows or none). The answer is the counts, or every bad row's errors
 * with its line in the file.
 */
import { Head, Link } from '@inertiajs/react'
import { useState, type FormEvent } from 'react'
import AdminLayout from '../../admin/AdminLayout.tsx'
import { Feedback, Field, usePost } from '../../admin/edit-parts.tsx'

interface RowError {
  row: number
  field: string
  message: string
}

interface Props {
  sites: { id: number; name: string }[]
  site: number | null
  errors: Record<string, string>
  result: { ok: true; created: number; updated: number } | { ok: false; errors: RowError[] } | null
}

const COLUMNS = 'sku, group, name, product_code, price_list, was_price, qty, minimum_order, published'

export default function CatalogueImport({ sites, site, errors, result }: Props) {
  const post = usePost()
  const [siteId, setSiteId] = useState(String(site ?? sites[0]?.id ?? ''))
  const [file, setFile] = useState<File | null>(null)
  const [fileError, setFileError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!file) {
      setFileError('Choose a CSV file to import.')
      document.querySelector<HTMLInputElement>('input[name="csv"]')?.focus()
      return
    }
    setFileError(undefined)
    setBusy(true)
    post('/admin/catalogue/import', { site: siteId, csv: await file.text() }, () => setBusy(false))
  }
  const notice = result?.ok
    ? `Imported: ${result.created} new SKU${result.created === 1 ? '' : 's'}, ${result.updated} changed. The shop shows them now.`
    : null
  const failed = result && !result.ok ? result.errors : []
  return (
    <div>
      <Head title="Import a CSV - Catalogue - Shop back office" />
      <p className="text-sm">
        <Link href="/admin/catalogue" className="underline">
          Catalogue
        </Link>
      </p>
      <h1 className="mt-1 text-xl font-semibold">Import a CSV</h1>
      <Feedback
        error={
          failed.length
            ? `Nothing was imported: ${failed.length} problem${failed.length === 1 ? '' : 's'} in the file, listed below.`
            : errors.form
        }
        notice={notice}
      />
      <form
        onSubmit={submit}
        noValidate
        className="mt-4 max-w-xl rounded-lg border border-gray-200 bg-white p-4"
      >
        <p className="text-sm text-gray-700">
          A header row, then one SKU a line; columns: {COLUMNS}. Prices are in pence, a price list like
          1-9:1000;10-24:900;25+:800. A new SKU needs its group, name and price list.
        </p>
        <Field label="Site" error={errors.site} className="mt-4">
          {(p) => (
            <select {...p} name="site" value={siteId} onChange={(e) => setSiteId(e.target.value)}>
              {sites.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="CSV file" error={fileError ?? errors.csv} className="mt-4">
          {(p) => (
            <input
              {...p}
              className={`${p.className} admin-file`}
              name="csv"
              type="file"
              accept=".csv,text/csv"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          )}
        </Field>
        <button
          type="submit"
          disabled={busy}
          className="mt-4 rounded-md bg-primary px-4 py-2 font-semibold text-on-primary disabled:opacity-60"
        >
          Import
        </button>
      </form>
      {failed.length ? (
        <table className="mt-4 w-full max-w-3xl border-collapse bg-white text-sm">
          <caption className="text-left font-semibold">Problems in the file</caption>
          <thead>
            <tr className="border-b border-gray-300 text-left">
              <th scope="col" className="p-2">
                Line
              </th>
              <th scope="col" className="p-2">
                Column
              </th>
              <th scope="col" className="p-2">
                Problem
              </th>
            </tr>
          </thead>
          <tbody>
            {failed.map((e, i) => (
              <tr key={i} className="border-b border-gray-200">
                {/* Row 0 is the first line after the header, so line 2 of the file. */}
                <td className="p-2">{e.row + 2}</td>
                <td className="p-2">{e.field}</td>
                <td className="p-2">{e.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  )
}

CatalogueImport.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
