/**
 * Back office: one order (issue 34). Its lines with builder designs, totals, addresses, the VAT
 * relief declaration, payments and refunds, shipments and invoice, e-mails, the timeline and the
 * staff's notes; and, for a role that may act, the actions (src/client/admin/order/). Each
 * action's result (or refusal) is announced at the top and takes the focus.
 */
import { Head, Link, usePage } from '@inertiajs/react'
import AdminLayout from '../../admin/AdminLayout.tsx'
import { adminProps, formatDateTime } from '../../admin/admin-props.ts'
import { methodWords, ORDER_STATE_WORDS } from '../../admin/labels.ts'
import { NotesSection, OrderActions } from '../../admin/order/OrderActions.tsx'
import {
  CustomerSection,
  FulfilmentSection,
  HistorySection,
  LinesSection,
  MoneySection,
} from '../../admin/order/OrderSections.tsx'
import type { OrderPageProps } from '../../admin/order/types.ts'
import { RESULT_ID } from '../../admin/order/use-order-action.ts'

function Result({ notice, error }: { notice: string | null; error: string | undefined }) {
  if (error)
    return (
      <p
        id={RESULT_ID}
        tabIndex={-1}
        role="alert"
        className="mt-4 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800"
        data-testid="error-box"
      >
        {error}
      </p>
    )
  return (
    <div role="status" aria-live="polite">
      {notice ? (
        <p
          id={RESULT_ID}
          tabIndex={-1}
          className="mt-4 rounded border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-900"
        >
          {notice}
        </p>
      ) : null}
    </div>
  )
}

export default function Order({ order: o, notice, errors, quote, refundBy }: OrderPageProps) {
  const page = usePage()
  const { admin } = adminProps(page.props)
  const canAct = admin.permissions.includes('orders.act')
  return (
    <div>
      <Head title={`Order ${o.number} - Shop back office`} />
      <p>
        <Link href="/admin/orders" className="text-sm underline">
          All orders
        </Link>
      </p>
      <h1 className="mt-2 text-xl font-semibold">Order {o.number}</h1>
      <Result notice={notice} error={errors?.form} />
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr_auto_1fr]">
        <dt className="font-medium">Status</dt>
        <dd data-testid="order-status">{ORDER_STATE_WORDS[o.status] ?? o.status}</dd>
        <dt className="font-medium">Payment</dt>
        <dd>
          {methodWords(o.method)} · {o.paymentStatus.replace(/_/g, ' ')}
        </dd>
        <dt className="font-medium">Placed</dt>
        <dd>{formatDateTime(o.date)}</dd>
        <dt className="font-medium">Site</dt>
        <dd>{o.site}</dd>
        <dt className="font-medium">PO number</dt>
        <dd>{o.poNumber ?? '—'}</dd>
        <dt className="font-medium">VAT number</dt>
        <dd>{o.vatNumber ?? '—'}</dd>
        {o.promotionCodes.length ? (
          <>
            <dt className="font-medium">Promotion</dt>
            <dd>{o.promotionCodes.join(', ')}</dd>
          </>
        ) : null}
      </dl>
      <LinesSection o={o} />
      {canAct ? <OrderActions o={o} quote={quote} refundBy={refundBy} /> : null}
      <CustomerSection o={o} />
      <MoneySection o={o} />
      <FulfilmentSection o={o} />
      <NotesSection o={o} canAct={canAct} />
      <HistorySection o={o} />
    </div>
  )
}

Order.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
