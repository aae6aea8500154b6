/**
 * Back office: one promotion. Change it (not its code or site), retire it (it stays on the
 * orders that used it; baskets can no longer apply it), and see how often it was used and by
 * which orders. A change made by someone else meanwhile is refused, not overwritten.
 */
import { Head, Link } from '@inertiajs/react'
import { useState, type FormEvent } from 'react'
import AdminLayout from '../../admin/AdminLayout.tsx'
import { formatDateTime } from '../../admin/admin-props.ts'
import { Feedback, useCan, usePost } from '../../admin/edit-parts.tsx'
import { ORDER_STATE_WORDS } from '../../admin/labels.ts'
import { PromotionFields, promotionValues, type PromotionValues } from '../../admin/promotion-fields.tsx'
import { formatMoney } from '../../../shared/money.ts'
import type { Currency } from '../../../shared/page-props.ts'

interface Promotion {
  id: number
  code: string
  site: { id: number; name: string; currency: string }
  description: string
  kind: string
  value: number
  giftSku: string | null
  minimumSpend: number
  startsAt: string | null
  endsAt: string | null
  usageLimit: number | null
  timesUsed: number
  active: boolean
  state: string
  version: string
  orders: number
  uses: { number: number; date: string; status: string; total: number; currency: string }[]
}

interface Props {
  promotion: Promotion
  kinds: string[]
  usesShown: number
  errors: Record<string, string>
  notice: string | null
  submitted: PromotionValues | null
}

function ChangeForm({ promotion, kinds, errors, submitted }: Props) {
  const post = usePost()
  const [values, setValues] = useState<PromotionValues>(submitted ?? promotionValues(promotion))
  const [busy, setBusy] = useState(false)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    post(
      `/admin/promotions/${promotion.id}`,
      { intent: 'change', version: promotion.version, ...values },
      () => setBusy(false),
    )
  }
  return (
    <form onSubmit={submit} noValidate className="mt-2">
      <PromotionFields
        values={values}
        set={(c) => setValues((v) => ({ ...v, ...c }))}
        errors={errors}
        kinds={kinds}
        currency={promotion.site.currency}
      />
      <button
        type="submit"
        disabled={busy}
        className="mt-4 rounded-md bg-primary px-4 py-2 font-semibold text-on-primary disabled:opacity-60"
      >
        Save promotion
      </button>
    </form>
  )
}

export default function PromotionsEdit(props: Props) {
  const { promotion, usesShown, errors, notice } = props
  const canEdit = useCan('promotions.edit')
  const post = usePost()
  const fieldErrors = Object.fromEntries(Object.entries(errors).filter(([k]) => k !== 'form'))
  const retire = () => {
    if (!window.confirm(`Retire ${promotion.code}? Baskets can no longer apply it.`)) return
    post(`/admin/promotions/${promotion.id}`, { intent: 'retire', version: promotion.version })
  }
  return (
    <div>
      <Head title={`${promotion.code} - Promotions - Shop back office`} />
      <p className="text-sm">
        <Link href="/admin/promotions" className="underline">
          Promotions
        </Link>
      </p>
      <h1 className="mt-1 text-xl font-semibold">Promotion {promotion.code}</h1>
      <Feedback error={errors.form} notice={notice} fieldErrors={fieldErrors} />
      <dl className="mt-4 grid max-w-2xl grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-medium">Site</dt>
        <dd>{promotion.site.name}</dd>
        <dt className="font-medium">State</dt>
        <dd>{promotion.state}</dd>
        <dt className="font-medium">Used</dt>
        <dd>
          {promotion.timesUsed} time{promotion.timesUsed === 1 ? '' : 's'}
          {promotion.usageLimit === null ? ' (no limit)' : ` of ${promotion.usageLimit} allowed`}, by{' '}
          {promotion.orders} order{promotion.orders === 1 ? '' : 's'}
        </dd>
      </dl>
      {canEdit && promotion.active ? (
        <button
          type="button"
          onClick={retire}
          className="mt-3 rounded border border-red-700 px-3 py-1.5 text-red-800"
        >
          Retire promotion
        </button>
      ) : null}
      {canEdit ? (
        <section
          aria-labelledby="change-heading"
          className="mt-6 max-w-3xl rounded-lg border border-gray-200 bg-white p-4"
        >
          <h2 id="change-heading" className="text-lg font-semibold">
            Change the promotion
          </h2>
          <ChangeForm key={promotion.version} {...props} />
        </section>
      ) : null}
      <section aria-labelledby="uses-heading" className="mt-6">
        <h2 id="uses-heading" className="text-lg font-semibold">
          Orders that used it
        </h2>
        {promotion.uses.length === 0 ? (
          <p className="mt-2 text-sm">No order has used it yet.</p>
        ) : (
          <table className="mt-2 w-full max-w-3xl border-collapse bg-white text-sm">
            <caption className="sr-only">
              Orders that used {promotion.code}, newest first
              {promotion.orders > usesShown ? ` (the latest ${usesShown})` : ''}
            </caption>
            <thead>
              <tr className="border-b border-gray-300 text-left">
                <th scope="col" className="p-2">
                  Order
                </th>
                <th scope="col" className="p-2">
                  Date
                </th>
                <th scope="col" className="p-2">
                  Status
                </th>
                <th scope="col" className="p-2 text-right">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {promotion.uses.map((u) => (
                <tr key={u.number} className="border-b border-gray-200">
                  <th scope="row" className="p-2 text-left">
                    <Link href={`/admin/orders/${u.number}`} className="underline">
                      {u.number}
                    </Link>
                  </th>
                  <td className="p-2">{formatDateTime(u.date)}</td>
                  <td className="p-2">{ORDER_STATE_WORDS[u.status] ?? u.status}</td>
                  <td className="p-2 text-right">{formatMoney(u.total, u.currency as Currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {promotion.orders > usesShown ? (
          <p className="mt-2 text-sm">
            Showing the latest {usesShown} of {promotion.orders} orders.
          </p>
        ) : null}
      </section>
    </div>
  )
}

PromotionsEdit.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
