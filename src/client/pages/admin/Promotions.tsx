/**
 * Back office: the promotions of both sites (active first) with how often each was used and by
 * how many orders, and, for editors, a form to create one. Each row leads to the promotion's
 * page (change, retire, its orders).
 */
import { Head, Link, router } from '@inertiajs/react'
import { useState, type FormEvent } from 'react'
import AdminLayout from '../../admin/AdminLayout.tsx'
import { Feedback, Field, useCan, usePost } from '../../admin/edit-parts.tsx'
import {
  EMPTY_PROMOTION,
  KIND_LABELS,
  PromotionFields,
  type PromotionValues,
} from '../../admin/promotion-fields.tsx'
import { formatMoney } from '../../../shared/money.ts'
import type { Currency } from '../../../shared/page-props.ts'

interface Row {
  id: number
  site: string
  currency: string
  code: string
  description: string
  kind: string
  value: number
  minimumSpend: number
  startsAt: string | null
  endsAt: string | null
  usageLimit: number | null
  timesUsed: number
  active: boolean
  state: string
  orders: number
}

interface Props {
  site: number | null
  sites: { id: number; name: string; currency: string }[]
  kinds: string[]
  promotions: Row[]
  errors: Record<string, string>
  submitted: (PromotionValues & { site: number; code: string }) | null
}

function offer(p: Row): string {
  if (p.kind === 'percentage') return `${p.value}% off`
  if (p.kind === 'fixed') return `${formatMoney(p.value, p.currency as Currency)} off`
  return KIND_LABELS[p.kind] ?? p.kind
}

function CreateForm({ sites, kinds, errors, submitted }: Props) {
  const post = usePost()
  const [site, setSite] = useState(String(submitted?.site ?? sites[0]?.id ?? ''))
  const [code, setCode] = useState(submitted?.code ?? '')
  const [values, setValues] = useState<PromotionValues>(submitted ?? EMPTY_PROMOTION)
  const [busy, setBusy] = useState(false)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    post('/admin/promotions', { site, code, ...values }, () => setBusy(false))
  }
  return (
    <section
      aria-labelledby="create-heading"
      className="mt-6 max-w-3xl rounded-lg border border-gray-200 bg-white p-4"
    >
      <h2 id="create-heading" className="text-lg font-semibold">
        Create a promotion
      </h2>
      <form onSubmit={submit} noValidate>
        <div className="mt-2 grid gap-4 sm:grid-cols-2">
          <Field label="Site" error={errors.site}>
            {(p) => (
              <select {...p} name="site" value={site} onChange={(e) => setSite(e.target.value)}>
                {sites.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Code" hint="2 to 40 letters, digits, - or _; stored in capitals." error={errors.code}>
            {(p) => <input {...p} name="code" value={code} onChange={(e) => setCode(e.target.value)} />}
          </Field>
        </div>
        <div className="mt-4">
          <PromotionFields
            values={values}
            set={(c) => setValues((v) => ({ ...v, ...c }))}
            errors={errors}
            kinds={kinds}
            currency={sites.find((s) => String(s.id) === site)?.currency ?? 'GBP'}
          />
        </div>
        <button
          type="submit"
          disabled={busy}
          className="mt-4 rounded-md bg-primary px-4 py-2 font-semibold text-on-primary disabled:opacity-60"
        >
          Create promotion
        </button>
      </form>
    </section>
  )
}

export default function Promotions(props: Props) {
  const { site, sites, promotions, errors } = props
  const canEdit = useCan('promotions.edit')
  const fieldErrors = Object.fromEntries(Object.entries(errors).filter(([k]) => k !== 'form'))
  const filter = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const value = new FormData(e.currentTarget).get('site')
    router.get('/admin/promotions', value ? { site: String(value) } : {}, { preserveState: true })
  }
  return (
    <div>
      <Head title="Promotions - Shop back office" />
      <h1 className="text-xl font-semibold">Promotions</h1>
      <Feedback error={errors.form} fieldErrors={fieldErrors} />
      <form onSubmit={filter} className="mt-4 flex flex-wrap items-end gap-3" aria-label="Filter promotions">
        <Field label="Site">
          {(p) => (
            <select {...p} name="site" defaultValue={site ?? ''}>
              <option value="">All sites</option>
              {sites.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" className="rounded border border-gray-500 px-3 py-1.5">
          Show
        </button>
      </form>
      {promotions.length === 0 ? (
        <p className="mt-4 text-sm">There are no promotions yet.</p>
      ) : (
        <table className="mt-4 w-full border-collapse bg-white text-sm admin-stack">
          <caption className="sr-only">Promotions, active first</caption>
          <thead className="max-md:sr-only">
            <tr className="border-b border-gray-300 text-left">
              <th scope="col" className="p-2">
                Code
              </th>
              <th scope="col" className="p-2">
                Site
              </th>
              <th scope="col" className="p-2">
                Offer
              </th>
              <th scope="col" className="p-2">
                State
              </th>
              <th scope="col" className="p-2 text-right">
                Used
              </th>
              <th scope="col" className="p-2 text-right">
                Orders
              </th>
            </tr>
          </thead>
          <tbody>
            {promotions.map((p) => (
              <tr key={p.id} className="border-b border-gray-200">
                <th scope="row" className="p-2 text-left">
                  <Link href={`/admin/promotions/${p.id}`} className="font-semibold underline">
                    {p.code}
                  </Link>
                  {p.description ? (
                    <span className="block font-normal text-gray-600">{p.description}</span>
                  ) : null}
                </th>
                <td data-label="Site" className="p-2">
                  {p.site}
                </td>
                <td data-label="Offer" className="p-2">
                  {offer(p)}
                </td>
                <td data-label="State" className="p-2">
                  {p.state}
                </td>
                <td data-label="Used" className="p-2 text-right">
                  {p.timesUsed}
                  {p.usageLimit === null ? '' : ` of ${p.usageLimit}`}
                </td>
                <td data-label="Orders" className="p-2 text-right">
                  {p.orders}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canEdit ? <CreateForm {...props} /> : null}
    </div>
  )
}

Promotions.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
