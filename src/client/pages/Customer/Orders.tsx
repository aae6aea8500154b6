/**
 * Customer/Orders 'Your Orders' (spec §2, §4): the customer's orders newest first with the
 * maginus_status wording, and an order's detail with its shipments, refunds and lines. Reorder a line (quantity at least
 * 1) or the whole order; an unpublished product offers View Product (its category), a missing
 * one reads 'Currently Unavailable For ReOrder'. Prices shown for reordering are today's.
 */
import { Link, router } from '@inertiajs/react'
import { Fragment, useState } from 'react'
import { ACCOUNT_TEXT, REORDER_QUANTITY_MIN } from '../../../shared/account-text.ts'
import type { AccountOrder, OrdersProps } from '../../../shared/account.ts'
import {
  AccountLayout,
  failureText,
  mainButton,
  smallButton,
  type Notice,
} from '../../components/account/AccountLayout.tsx'
import { useFormat } from '../../components/account/format.ts'
import { OrderProgress } from '../../components/account/OrderProgress.tsx'
import { requestJson } from '../../lib/json-client.ts'

export default function Orders({ greeting, orders, order }: OrdersProps) {
  const f = useFormat()
  const [notice, setNotice] = useState<Notice | null>(null)
  const [busy, setBusy] = useState(false)

  const reorder = async (orderNumber: number, items?: { id: number; quantity: number }[]) => {
    setBusy(true)
    const res = await requestJson('POST', `/customer/orders/${orderNumber}/reorder`, items ? { items } : {})
    setBusy(false)
    if (res.ok) router.visit('/cart')
    else setNotice({ kind: 'error', text: failureText(res.data, ACCOUNT_TEXT.cartFailed) })
  }

  return (
    <AccountLayout
      title="Your Orders"
      titleFor={{ page: 'orders' }}
      greeting={greeting}
      here="/customer/orders"
      notice={notice}
    >
      {order ? <OrderDetail order={order} busy={busy} onReorder={reorder} /> : null}
      {orders.length === 0 ? (
        <p>{ACCOUNT_TEXT.noOrders}</p>
      ) : (
        // Under 640 px each order is a card: number, date and status on the left, the total and
        // Reorder on the right, so neither scrolls out of view on a phone.
        <div className="relative overflow-x-auto">
          <table className="w-full text-left text-sm max-sm:block" data-testid="orders-table">
            <caption className="sr-only">Your orders, newest first</caption>
            <thead className="border-b border-gray-300 max-sm:sr-only">
              <tr>
                <th scope="col" className="py-2 pr-3">
                  Order
                </th>
                <th scope="col" className="py-2 pr-3">
                  Date
                </th>
                <th scope="col" className="py-2 pr-3">
                  Status
                </th>
                <th scope="col" className="py-2 pr-3 text-right">
                  Total
                </th>
                <th scope="col" className="py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="max-sm:block">
              {orders.map((o) => (
                <tr
                  key={o.id}
                  className="border-b border-gray-100 max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:py-2"
                  data-testid={`order-row-${o.OrderNumber}`}
                >
                  <td className="py-2 pr-3 max-sm:col-start-1 max-sm:row-start-1 max-sm:block max-sm:py-0">
                    <Link href={`/customer/orders/${o.OrderNumber}`} className="text-primary underline">
                      {o.OrderNumber}
                    </Link>
                  </td>
                  <td className="py-2 pr-3 whitespace-nowrap max-sm:col-start-1 max-sm:row-start-2 max-sm:block max-sm:py-0">
                    {f.date(o.orderDate)}
                  </td>
                  <td className="py-2 pr-3 max-sm:col-start-1 max-sm:row-start-3 max-sm:block max-sm:py-0">
                    {o.statusText}
                  </td>
                  <td
                    className="py-2 pr-3 text-right max-sm:col-start-2 max-sm:row-start-1 max-sm:block max-sm:p-0 max-sm:font-semibold"
                    data-testid="order-total"
                  >
                    <span className="sm:sr-only">Total </span>
                    {f.money(o.total, o.currency)}
                  </td>
                  <td className="py-2 text-right max-sm:col-start-2 max-sm:row-span-2 max-sm:row-start-2 max-sm:block max-sm:self-end max-sm:py-0">
                    <button
                      type="button"
                      className={smallButton}
                      disabled={busy}
                      onClick={() => void reorder(o.OrderNumber)}
                      aria-label={`Reorder order ${o.OrderNumber}`}
                    >
                      Reorder
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </AccountLayout>
  )
}

function OrderDetail({
  order,
  busy,
  onReorder,
}: {
  order: AccountOrder
  busy: boolean
  onReorder: (orderNumber: number, items?: { id: number; quantity: number }[]) => Promise<void>
}) {
  const f = useFormat()
  const [quantities, setQuantities] = useState<Record<number, string>>(() =>
    Object.fromEntries(order.lines.map((l) => [l.id, String(Math.max(l.quantity, l.minimumOrder))])),
  )
  const addr = (a: Record<string, string>) =>
    [a.company, a.address1, a.address2, a.town, a.county, a.postcode, a.country].filter(Boolean).join(', ')
  return (
    <section
      aria-labelledby="order-heading"
      className="mb-8 rounded-md border border-gray-200 p-4"
      data-testid="order-detail"
    >
      <h2 id="order-heading" className="text-xl font-semibold">
        Order {order.OrderNumber}
      </h2>
      <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_1fr]">
        <dt className="font-semibold">Date</dt>
        <dd>{f.date(order.orderDate)}</dd>
        <dt className="font-semibold">Status</dt>
        <dd data-testid="order-status">{order.statusText}</dd>
        <dt className="font-semibold">Delivery</dt>
        <dd>{addr(order.shippingAddress)}</dd>
        <dt className="font-semibold">Billing</dt>
        <dd>{addr(order.billingAddress)}</dd>
        {order.poNumber ? (
          <>
            <dt className="font-semibold">PO number</dt>
            <dd>{order.poNumber}</dd>
          </>
        ) : null}
        {order.invoiceNumber ? (
          <>
            <dt className="font-semibold">Invoice</dt>
            <dd>
              <Link href={`/customer/invoices/${order.invoiceNumber}`} className="text-primary underline">
                {order.invoiceNumber}
              </Link>
            </dd>
          </>
        ) : null}
      </dl>
      <OrderProgress order={order} />
      <ul className="mt-4 divide-y divide-gray-100">
        {order.lines.map((l) => {
          const qty = quantities[l.id] ?? '1'
          const n = Number(qty)
          const qtyOk = Number.isInteger(n) && n >= REORDER_QUANTITY_MIN
          return (
            <li
              key={l.id}
              className="flex flex-wrap items-center gap-3 py-3"
              data-testid={`order-line-${l.id}`}
            >
              <div className="min-w-[12rem] flex-1">
                <p className="font-semibold">{l.name}</p>
                <p className="text-xs text-gray-700">
                  {l.sku} · ordered {l.quantity} at {f.money(l.line_item_cost, order.currency)} ={' '}
                  {f.money(l.line_total_ex_discount, order.currency)}
                </p>
                {l.options.length ? <p className="text-xs text-gray-700">{l.options.join(', ')}</p> : null}
              </div>
              {l.reorder === 'available' ? (
                <div className="flex items-end gap-2">
                  <label className="text-xs">
                    Quantity
                    <input
                      type="number"
                      min={REORDER_QUANTITY_MIN}
                      max={9999}
                      value={qty}
                      onChange={(e) => setQuantities((q) => ({ ...q, [l.id]: e.target.value }))}
                      className="mt-1 block w-20 rounded border border-gray-400 px-2 py-1 text-sm"
                    />
                  </label>
                  <span className="text-xs text-gray-700">
                    today {l.todayUnitPrice !== null ? f.money(l.todayUnitPrice, order.currency) : ''} each
                  </span>
                  <button
                    type="button"
                    className={smallButton}
                    disabled={busy || !qtyOk}
                    onClick={() => void onReorder(order.OrderNumber, [{ id: l.id, quantity: n }])}
                    aria-label={`Add ${l.name} to basket`}
                  >
                    Add to basket
                  </button>
                </div>
              ) : l.reorder === 'unpublished' && l.url ? (
                <Link href={l.url} className={smallButton}>
                  {ACCOUNT_TEXT.viewProduct}
                </Link>
              ) : (
                <span className="text-sm font-semibold text-gray-700">{ACCOUNT_TEXT.unavailable}</span>
              )}
            </li>
          )
        })}
      </ul>
      <dl className="mt-3 grid grid-cols-[1fr_auto] gap-x-4 text-sm sm:max-w-xs sm:justify-self-end">
        {order.totals.lines.map((l) => (
          <Fragment key={l.kind}>
            <dt>{l.label}</dt>
            <dd className="text-right">{f.money(l.amount, order.currency)}</dd>
          </Fragment>
        ))}
        <dt className="font-semibold">{order.totals.total.label}</dt>
        <dd className="text-right font-semibold">{f.money(order.totals.total.amount, order.currency)}</dd>
      </dl>
      <button
        type="button"
        className={`${mainButton} mt-4`}
        disabled={busy || !order.lines.some((l) => l.reorder === 'available')}
        onClick={() => void onReorder(order.OrderNumber)}
      >
        Reorder all
      </button>
    </section>
  )
}
