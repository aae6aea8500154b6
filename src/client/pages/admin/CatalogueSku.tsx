/**
 * Back office: one SKU. Its price breaks (a grid of quantity ranges and unit prices, edited and
 * saved together), its 'was' price, and publication of the SKU and of its product group. The
 * server checks the grid by the integration API's rules (rising ranges, whole pence) and names
 * each bad cell under it; a change made by someone else meanwhile is refused, not overwritten.
 */
import { Head, Link } from '@inertiajs/react'
import { useRef, useState, type FormEvent } from 'react'
import AdminLayout from '../../admin/AdminLayout.tsx'
import { amountText, Feedback, Field, useCan, usePost } from '../../admin/edit-parts.tsx'
import { formatMoney } from '../../../shared/money.ts'
import type { PriceBreak } from '../../../shared/catalog.ts'
import type { Currency } from '../../../shared/page-props.ts'

interface Sku {
  id: number
  sku: string
  name: string
  productCode: string
  qty: number
  site: { id: number; name: string; currency: string }
  group: { id: number; url: string; name: string; published: boolean; version: string }
  priceList: PriceBreak[]
  wasPrice: number | null
  published: boolean
  version: string
}

interface GridRow {
  lowerQty: string
  higherQty: string
  price: string
}

interface Props {
  sku: Sku
  errors: Record<string, string>
  notice: string | null
  submitted: { priceList?: GridRow[]; wasPrice?: string } | null
}

const rowsOf = (list: PriceBreak[]): GridRow[] =>
  list.map((b) => ({
    lowerQty: String(b.lowerQty),
    higherQty: b.higherQty === null ? '' : String(b.higherQty),
    price: amountText(b.price),
  }))

function PriceGrid({ sku, errors, submitted }: Props) {
  const post = usePost()
  const [rows, setRows] = useState<GridRow[]>(submitted?.priceList ?? rowsOf(sku.priceList))
  const [was, setWas] = useState(submitted?.wasPrice ?? amountText(sku.wasPrice))
  const [busy, setBusy] = useState(false)
  const table = useRef<HTMLTableElement>(null)
  const set = (i: number, key: keyof GridRow, value: string) =>
    setRows((old) => old.map((r, j) => (j === i ? { ...r, [key]: value } : r)))
  const add = () => {
    const last = rows.at(-1)
    const from = last ? Number(last.higherQty || last.lowerQty) + 1 : 1
    setRows([...rows, { lowerQty: Number.isFinite(from) ? String(from) : '', higherQty: '', price: '' }])
    // The new row's first cell takes the focus once it is drawn.
    requestAnimationFrame(() =>
      table.current?.querySelector<HTMLInputElement>('tbody tr:last-child input')?.focus(),
    )
  }
  const remove = (i: number) => {
    setRows(rows.filter((_, j) => j !== i))
    requestAnimationFrame(() => table.current?.querySelector<HTMLElement>('tbody tr input')?.focus())
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    post(
      `/admin/catalogue/skus/${sku.id}`,
      { intent: 'prices', version: sku.version, priceList: rows, wasPrice: was },
      () => setBusy(false),
    )
  }
  const cell = (i: number, key: keyof GridRow, label: string) => {
    const error = errors[`priceList.${i}.${key}`]
    return (
      <td className="p-1 align-top">
        <Field label={<span className="sr-only">{`${label}, price break ${i + 1}`}</span>} error={error}>
          {(p) => (
            <input
              {...p}
              name={`priceList.${i}.${key}`}
              inputMode={key === 'price' ? 'decimal' : 'numeric'}
              value={rows[i]![key]}
              onChange={(e) => set(i, key, e.target.value)}
            />
          )}
        </Field>
      </td>
    )
  }
  return (
    <form onSubmit={submit} noValidate aria-labelledby="prices-heading" className="mt-2">
      <table ref={table} className="w-full max-w-2xl border-collapse text-sm">
        <caption className="sr-only">Price breaks of {sku.sku}</caption>
        <thead>
          <tr className="text-left">
            <th scope="col" className="p-1">
              From quantity
            </th>
            <th scope="col" className="p-1">
              To quantity <span className="font-normal text-gray-600">(empty: no limit)</span>
            </th>
            <th scope="col" className="p-1">
              Unit price ex VAT ({sku.site.currency})
            </th>
            <th scope="col" className="p-1">
              <span className="sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((_, i) => (
            <tr key={i}>
              {cell(i, 'lowerQty', 'From quantity')}
              {cell(i, 'higherQty', 'To quantity')}
              {cell(i, 'price', 'Unit price')}
              <td className="p-1 align-top">
                <button
                  type="button"
                  onClick={() => remove(i)}
                  className="mt-1 rounded border border-gray-400 px-2 py-1.5"
                >
                  Remove<span className="sr-only"> price break {i + 1}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {errors.priceList ? (
        <p id="price-list-error" className="mt-1 text-sm text-red-700">
          {errors.priceList}
        </p>
      ) : null}
      <button type="button" onClick={add} className="mt-2 rounded border border-gray-400 px-3 py-1.5 text-sm">
        Add a price break
      </button>
      <Field
        label={`'Was' price ex VAT (${sku.site.currency})`}
        hint="Shown struck through beside the price; leave empty for none."
        error={errors.wasPrice}
        className="mt-4 max-w-xs"
      >
        {(p) => (
          <input
            {...p}
            name="wasPrice"
            inputMode="decimal"
            value={was}
            onChange={(e) => setWas(e.target.value)}
          />
        )}
      </Field>
      <button
        type="submit"
        disabled={busy}
        className="mt-4 rounded-md bg-primary px-4 py-2 font-semibold text-on-primary disabled:opacity-60"
      >
        Save prices
      </button>
    </form>
  )
}

function ReadOnlyPrices({ sku }: { sku: Sku }) {
  return (
    <table className="mt-2 w-full max-w-xl border-collapse bg-white text-sm">
      <caption className="sr-only">Price breaks of {sku.sku}</caption>
      <thead>
        <tr className="border-b border-gray-300 text-left">
          <th scope="col" className="p-2">
            Quantity
          </th>
          <th scope="col" className="p-2 text-right">
            Unit price ex VAT
          </th>
        </tr>
      </thead>
      <tbody>
        {sku.priceList.map((b) => (
          <tr key={b.lowerQty} className="border-b border-gray-200">
            <th scope="row" className="p-2 text-left font-normal">
              {b.name}
            </th>
            <td className="p-2 text-right">{formatMoney(b.price, sku.site.currency as Currency)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

export default function CatalogueSku(props: Props) {
  const { sku, errors, notice } = props
  const canEdit = useCan('catalogue.edit')
  const post = usePost()
  const fieldErrors = Object.fromEntries(Object.entries(errors).filter(([k]) => k !== 'form'))
  const toggle = (intent: 'publish' | 'group', published: boolean) =>
    post(`/admin/catalogue/skus/${sku.id}`, {
      intent,
      version: intent === 'group' ? sku.group.version : sku.version,
      published,
    })
  return (
    <div>
      <Head title={`${sku.sku} - Catalogue - Shop back office`} />
      <p className="text-sm">
        <Link href="/admin/catalogue" className="underline">
          Catalogue
        </Link>
      </p>
      <h1 className="mt-1 text-xl font-semibold">
        {sku.sku}: {sku.name}
      </h1>
      <Feedback error={errors.form} notice={notice} fieldErrors={fieldErrors} />
      <dl className="mt-4 grid max-w-2xl grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-medium">Site</dt>
        <dd>{sku.site.name}</dd>
        <dt className="font-medium">Product group</dt>
        <dd>
          {sku.group.name} <span className="text-gray-600">({sku.group.url})</span>
        </dd>
        <dt className="font-medium">Product code</dt>
        <dd>{sku.productCode}</dd>
        <dt className="font-medium">Stock</dt>
        <dd>{sku.qty}</dd>
        <dt className="font-medium">SKU in the shop</dt>
        <dd>{sku.published ? 'Published' : 'Unpublished: not sold in the shop'}</dd>
        <dt className="font-medium">Group in the shop</dt>
        <dd>{sku.group.published ? 'Published' : 'Unpublished: its page is not in the shop'}</dd>
      </dl>
      {canEdit ? (
        <div className="mt-3 flex flex-wrap gap-3">
          <button
            type="button"
            onClick={() => toggle('publish', !sku.published)}
            className="rounded border border-gray-500 px-3 py-1.5"
          >
            {sku.published ? 'Unpublish SKU' : 'Publish SKU'}
          </button>
          <button
            type="button"
            onClick={() => toggle('group', !sku.group.published)}
            className="rounded border border-gray-500 px-3 py-1.5"
          >
            {sku.group.published ? 'Unpublish product group' : 'Publish product group'}
          </button>
        </div>
      ) : null}
      <section
        aria-labelledby="prices-heading"
        className="mt-6 rounded-lg border border-gray-200 bg-white p-4"
      >
        <h2 id="prices-heading" className="text-lg font-semibold">
          Price breaks
        </h2>
        {canEdit ? (
          <PriceGrid key={sku.version} {...props} />
        ) : (
          <>
            <ReadOnlyPrices sku={sku} />
            <p className="mt-2 text-sm">
              {`'Was' price: ${sku.wasPrice === null ? 'none' : formatMoney(sku.wasPrice, sku.site.currency as Currency)}`}
            </p>
          </>
        )}
      </section>
    </div>
  )
}

CatalogueSku.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
