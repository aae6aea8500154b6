/**
 * What happened to an order after it was placed, on the account's order page (issue 33): the
 * parcels sent (carrier, tracking number, a tracking link when the shop has a safe one) and the
 * money given back (amount, date, done or pending). Nothing when neither exists.
 */
import type { AccountOrder } from '../../../shared/account.ts'
import { useFormat } from './format.ts'

export function OrderProgress({ order }: { order: AccountOrder }) {
  const f = useFormat()
  if (order.shipments.length === 0 && order.refunds.length === 0) return null
  return (
    <div className="mt-4 grid gap-4 text-sm">
      {order.shipments.length > 0 ? (
        <section aria-labelledby="order-shipments-heading" data-testid="order-shipments">
          <h3 id="order-shipments-heading" className="font-semibold">
            {order.shipments.length === 1 ? 'Shipment' : 'Shipments'}
          </h3>
          <ul className="mt-1 divide-y divide-gray-100">
            {order.shipments.map((s, i) => (
              <li key={i} className="py-2" data-testid="order-shipment">
                <p>
                  Sent {f.date(s.shippedAt)} by {s.carrier}
                  {s.trackingNumber ? (
                    <>
                      , tracking number <span className="font-mono">{s.trackingNumber}</span>
                    </>
                  ) : (
                    ', without a tracking number'
                  )}
                  {s.trackingUrl ? (
                    <>
                      {' '}
                      <a
                        href={s.trackingUrl}
                        className="text-primary underline"
                        target="_blank"
                        rel="noopener noreferrer"
                      >
                        Track this parcel<span className="sr-only"> (opens in a new tab)</span>
                      </a>
                    </>
                  ) : null}
                </p>
                <p className="text-xs text-gray-700">
                  {s.lines.map((l) => `${l.quantity} × ${l.name} (${l.sku})`).join(', ')}
                </p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {order.refunds.length > 0 ? (
        <section aria-labelledby="order-refunds-heading" data-testid="order-refunds">
          <h3 id="order-refunds-heading" className="font-semibold">
            {order.refunds.length === 1 ? 'Refund' : 'Refunds'}
          </h3>
          <ul className="mt-1">
            {order.refunds.map((r, i) => (
              <li key={i} data-testid="order-refund">
                {f.money(r.amount, order.currency)} on {f.date(r.date)}:{' '}
                {r.status === 'done' ? 'refunded' : 'refund pending (your bank may take a few days)'}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  )
}
