/**
 * Back office: the delivery rates of both sites, each changed in its own small form (name, price,
 * free-over threshold, order in the list), and a form to add a rate for a new zone or despatch
 * type. Amounts are typed in pounds (or dollars); the server checks them by the API's rules and
 * refuses a change made by someone else meanwhile.
 */
import { Head } from '@inertiajs/react'
import { useState, type FormEvent } from 'react'
import AdminLayout from '../../admin/AdminLayout.tsx'
import { amountText, Feedback, Field, useCan, usePost } from '../../admin/edit-parts.tsx'
import { formatMoney } from '../../../shared/money.ts'
import type { Currency } from '../../../shared/page-props.ts'

interface Rate {
  id: number
  siteId: number
  site: string
  currency: string
  zone: string
  despatchType: string
  name: string
  price: number
  freeOver: number | null
  position: number
  version: string
}

interface RateValues {
  site: string
  version: string
  zone: string
  despatchType: string
  name: string
  price: string
  freeOver: string
  position: string
}

interface Props {
  sites: { id: number; name: string; currency: string }[]
  rates: Rate[]
  errors: Record<string, string>
  notice: string | null
  submitted: RateValues | null
}

const valuesOf = (r: Rate): RateValues => ({
  site: String(r.siteId),
  version: r.version,
  zone: r.zone,
  despatchType: r.despatchType,
  name: r.name,
  price: amountText(r.price),
  freeOver: amountText(r.freeOver),
  position: String(r.position),
})

/** Whether the page's answer (its errors, what was typed) belongs to this rate's form. */
const isFor = (submitted: RateValues | null, r: Rate) =>
  !!submitted &&
  submitted.version !== '' &&
  String(submitted.site) === String(r.siteId) &&
  submitted.zone === r.zone &&
  submitted.despatchType === r.despatchType

function RateForm({
  initial,
  errors,
  currency,
  title,
  isNew,
  sites,
}: {
  initial: RateValues
  errors: Record<string, string>
  currency: string
  title: string
  isNew: boolean
  sites: Props['sites']
}) {
  const post = usePost()
  const [v, setV] = useState(initial)
  const [busy, setBusy] = useState(false)
  const set = (change: Partial<RateValues>) => setV((old) => ({ ...old, ...change }))
  const money = isNew ? (sites.find((s) => String(s.id) === v.site)?.currency ?? currency) : currency
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    post('/admin/delivery', { ...v }, () => setBusy(false))
  }
  return (
    <form onSubmit={submit} noValidate aria-label={title} className="grid gap-3 sm:grid-cols-6 sm:items-end">
      {isNew ? (
        <>
          <Field label="Site" error={errors.site}>
            {(p) => (
              <select {...p} name="site" value={v.site} onChange={(e) => set({ site: e.target.value })}>
                {sites.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Zone" error={errors.zone}>
            {(p) => (
              <input {...p} name="zone" value={v.zone} onChange={(e) => set({ zone: e.target.value })} />
            )}
          </Field>
          <Field label="Despatch type" error={errors.despatchType}>
            {(p) => (
              <input
                {...p}
                name="despatchType"
                value={v.despatchType}
                onChange={(e) => set({ despatchType: e.target.value })}
              />
            )}
          </Field>
        </>
      ) : null}
      <Field
        label={
          <>
            Name<span className="sr-only"> of {title}</span>
          </>
        }
        error={errors.name}
        className="sm:col-span-2"
      >
        {(p) => <input {...p} name="name" value={v.name} onChange={(e) => set({ name: e.target.value })} />}
      </Field>
      <Field
        label={
          <>
            Price ex VAT ({money})<span className="sr-only"> of {title}</span>
          </>
        }
        error={errors.price}
      >
        {(p) => (
          <input
            {...p}
            name="price"
            inputMode="decimal"
            value={v.price}
            onChange={(e) => set({ price: e.target.value })}
          />
        )}
      </Field>
      <Field
        label={
          <>
            Free over ({money})<span className="sr-only"> for {title}</span>
          </>
        }
        error={errors.freeOver}
      >
        {(p) => (
          <input
            {...p}
            name="freeOver"
            inputMode="decimal"
            value={v.freeOver}
            onChange={(e) => set({ freeOver: e.target.value })}
          />
        )}
      </Field>
      <Field
        label={
          <>
            Position<span className="sr-only"> of {title}</span>
          </>
        }
        error={errors.position}
      >
        {(p) => (
          <input
            {...p}
            name="position"
            inputMode="numeric"
            value={v.position}
            onChange={(e) => set({ position: e.target.value })}
          />
        )}
      </Field>
      <button
        type="submit"
        disabled={busy}
        className="rounded-md bg-primary px-4 py-2 font-semibold text-on-primary disabled:opacity-60"
      >
        {isNew ? 'Add rate' : 'Save'}
        {isNew ? null : <span className="sr-only"> {title}</span>}
      </button>
    </form>
  )
}

export default function Delivery({ sites, rates, errors, notice, submitted }: Props) {
  const canEdit = useCan('delivery.edit')
  const fieldErrors = Object.fromEntries(Object.entries(errors).filter(([k]) => k !== 'form'))
  const empty: RateValues = {
    site: String(sites[0]?.id ?? ''),
    version: '',
    zone: '',
    despatchType: '',
    name: '',
    price: '',
    freeOver: '',
    position: '0',
  }
  const newFor = submitted?.version === ''
  return (
    <div>
      <Head title="Delivery rates - Shop back office" />
      <h1 className="text-xl font-semibold">Delivery rates</h1>
      <Feedback error={errors.form} notice={notice} fieldErrors={fieldErrors} />
      <p className="mt-2 text-sm text-gray-700">
        Prices are ex VAT. A rate is free when the goods (ex VAT, after discounts) reach its free-over amount;
        leave it empty for never.
      </p>
      {sites.map((site) => {
        const mine = rates.filter((r) => r.siteId === site.id)
        return (
          <section key={site.id} aria-labelledby={`site-${site.id}`} className="mt-6">
            <h2 id={`site-${site.id}`} className="text-lg font-semibold">
              {site.name}
            </h2>
            {mine.length === 0 ? <p className="mt-2 text-sm">No delivery rates.</p> : null}
            <ul className="mt-2 divide-y divide-gray-200 rounded-lg border border-gray-200 bg-white">
              {mine.map((r) => {
                const title = `${r.zone} ${r.despatchType}`
                const answer = isFor(submitted, r)
                return (
                  <li key={r.id} className="p-3">
                    <h3 className="font-medium">
                      {r.zone}: {r.despatchType}
                    </h3>
                    {canEdit ? (
                      <RateForm
                        key={r.version}
                        initial={
                          answer && submitted ? { ...submitted, site: String(submitted.site) } : valuesOf(r)
                        }
                        errors={answer ? fieldErrors : {}}
                        currency={r.currency}
                        title={title}
                        isNew={false}
                        sites={sites}
                      />
                    ) : (
                      <p className="text-sm">
                        {r.name}: {formatMoney(r.price, r.currency as Currency)}
                        {r.freeOver === null
                          ? ''
                          : `, free over ${formatMoney(r.freeOver, r.currency as Currency)}`}
                      </p>
                    )}
                  </li>
                )
              })}
            </ul>
          </section>
        )
      })}
      {canEdit ? (
        <section
          aria-labelledby="add-heading"
          className="mt-6 rounded-lg border border-gray-200 bg-white p-4"
        >
          <h2 id="add-heading" className="text-lg font-semibold">
            Add a rate
          </h2>
          <RateForm
            key={rates.length}
            initial={newFor && submitted ? { ...submitted, site: String(submitted.site) } : empty}
            errors={newFor ? fieldErrors : {}}
            currency={
              sites.find((s) => String(s.id) === String(submitted?.site ?? empty.site))?.currency ?? 'GBP'
            }
            title="new rate"
            isNew
            sites={sites}
          />
        </section>
      ) : null}
    </div>
  )
}

Delivery.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
