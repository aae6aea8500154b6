/**
 * The order page's read-only sections: lines (with builder designs), totals, addresses, the VAT
 * relief declaration, payment attempts and refunds, shipments, the invoice, e-mails sent, the
 * timeline and the staff's notes.
 */
import type { ReactNode } from 'react'
import { formatMoney } from '../../../shared/money.ts'
import type { Currency } from '../../../shared/page-props.ts'
import { formatDateTime } from '../admin-props.ts'
import { methodWords } from '../labels.ts'
import type { Address, AdminOrder } from './types.ts'

export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="mt-6 rounded-lg border border-gray-200 bg-white p-4" aria-labelledby={`h-${id}`}>
      <h2 id={`h-${id}`} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  )
}

function AddressBlock({ a }: { a: Address }) {
  return (
    <address className="not-italic">
      {[a.company, a.address1, a.address2, a.town, a.county, a.postcode, a.country]
        .filter(Boolean)
        .map((l, i) => (
          <span key={i} className="block">
            {l}
          </span>
        ))}
    </address>
  )
}

export const moneyOf = (o: AdminOrder) => (n: number) => formatMoney(n, o.currency as Currency)

export function LinesSection({ o }: { o: AdminOrder }) {
  const money = moneyOf(o)
  const totals: [string, number][] = [
    ['Goods (ex VAT)', o.totals.goodsNet],
    ['Discount', -o.totals.discount],
    ['Customisation', o.totals.customisation],
    [`Delivery${o.delivery ? ` (${o.delivery})` : ''}`, o.totals.shippingNet],
    ['VAT', o.totals.vat],
  ]
  return (
    <Section id="lines" title="Lines">
      <div className="overflow-x-auto">
        <table className="mt-2 w-full min-w-[20rem] text-sm">
          <caption className="sr-only">Order lines</caption>
          <thead>
            <tr className="border-b text-left">
              <th scope="col" className="p-1">
                Item
              </th>
              <th scope="col" className="p-1 text-right">
                Qty
              </th>
              <th scope="col" className="p-1 text-right">
                Unit
              </th>
              <th scope="col" className="p-1 text-right">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {o.lines.map((l) => (
              <tr key={l.id} className="border-b border-gray-100 align-top">
                <th scope="row" className="p-1 text-left font-normal">
                  <span className="flex gap-2">
                    {l.preview ? (
                      <a href={l.preview.url} target="_blank" rel="noreferrer" className="shrink-0">
                        <img
                          src={l.preview.url}
                          alt={l.preview.alt}
                          width={64}
                          height={64}
                          className="h-16 w-16 object-contain"
                        />
                      </a>
                    ) : null}
                    <span>
                      {l.name}
                      <span className="block text-gray-600">
                        {l.sku}
                        {l.isFreeGift ? ' · free gift' : ''} · VAT {l.vatRate}% · shipped {l.shipped} of{' '}
                        {l.quantity}
                      </span>
                      {l.proof ? (
                        <a href={l.proof} className="block underline" target="_blank" rel="noreferrer">
                          Proof (PDF)<span className="sr-only"> of {l.name}</span>
                        </a>
                      ) : null}
                      {l.options.length ? (
                        <span className="block text-gray-600">{l.options.join(' · ')}</span>
                      ) : null}
                    </span>
                  </span>
                </th>
                <td className="p-1 text-right">{l.quantity}</td>
                <td className="p-1 text-right">{money(l.unitPrice)}</td>
                <td className="p-1 text-right">{money(l.lineTotal)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl className="mt-3 ml-auto grid max-w-xs grid-cols-[1fr_auto] gap-x-4 text-sm">
        {totals.map(([label, v]) => (
          <div key={label} className="contents">
            <dt>{label}</dt>
            <dd className="text-right">{money(v)}</dd>
          </div>
        ))}
        <dt className="font-semibold">Total charged</dt>
        <dd className="text-right font-semibold">{money(o.totals.total)}</dd>
        {o.refundedMinor > 0 ? (
          <>
            <dt>Refunded</dt>
            <dd className="text-right">{money(o.refundedMinor)}</dd>
          </>
        ) : null}
      </dl>
    </Section>
  )
}

export function CustomerSection({ o }: { o: AdminOrder }) {
  return (
    <>
      <Section id="customer" title="Customer and addresses">
        <div className="mt-2 grid gap-4 text-sm sm:grid-cols-3">
          <div>
            <h3 className="font-medium">Contact</h3>
            <p>
              {o.contact.first_name} {o.contact.last_name}
              {o.contact.company ? <span className="block">{o.contact.company}</span> : null}
              <span className="block wrap-anywhere">{o.contact.email}</span>
              <span className="block">{o.contact.phone}</span>
            </p>
          </div>
          <div>
            <h3 className="font-medium">Delivery address</h3>
            <AddressBlock a={o.shippingAddress} />
          </div>
          <div>
            <h3 className="font-medium">Billing address</h3>
            <AddressBlock a={o.billingAddress} />
          </div>
        </div>
        {o.notes ? <p className="mt-3 text-sm">Customer's notes: {o.notes}</p> : null}
      </Section>
      <Section id="vat-relief" title="VAT relief declaration">
        {o.vatRelief ? (
          <p className="mt-2 text-sm">
            Declared by {o.vatRelief.name} on {formatDateTime(o.vatRelief.declaredAt)} for:{' '}
            {o.vatRelief.condition}
          </p>
        ) : (
          <p className="mt-2 text-sm">None: VAT was charged as usual.</p>
        )}
      </Section>
    </>
  )
}

export function MoneySection({ o }: { o: AdminOrder }) {
  return (
    <Section id="payments" title="Payment attempts and refunds">
      {o.attempts.length === 0 ? (
        <p className="mt-2 text-sm">
          No provider payment:{' '}
          {o.method === 'purchase_order' ? 'a purchase order is invoiced.' : 'none is linked.'}
        </p>
      ) : (
        <ul className="mt-2 space-y-2 text-sm">
          {o.attempts.map((a) => (
            <li key={a.id}>
              {methodWords(a.method)}: {a.state} · {formatMoney(a.amount, a.currency as Currency)} · reference{' '}
              {a.reference} · {formatDateTime(a.createdAt)}
              {a.resolution ? ` · ${a.resolution}` : ''}
              {a.lastMessage ? <span className="block text-gray-600">{a.lastMessage}</span> : null}
            </li>
          ))}
        </ul>
      )}
      <h3 className="mt-3 font-medium">Refunds</h3>
      {o.refunds.length === 0 ? (
        <p className="text-sm">None.</p>
      ) : (
        <ul className="space-y-1 text-sm">
          {o.refunds.map((r) => (
            <li key={r.id}>
              {formatMoney(r.amount, r.currency as Currency)} ·{' '}
              {r.how === 'void' ? 'void' : methodWords(r.method)} · {r.status}
              {r.creditNote ? ` · credit note ${r.creditNote}` : ''} · {r.reason} · by {r.by} ·{' '}
              {formatDateTime(r.at)}
              {r.message ? <span className="block text-gray-600">{r.message}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </Section>
  )
}

export function FulfilmentSection({ o }: { o: AdminOrder }) {
  return (
    <Section id="shipments" title="Shipments and invoice">
      {o.shipments.length === 0 ? (
        <p className="mt-2 text-sm">Nothing shipped yet.</p>
      ) : (
        <ul className="mt-2 space-y-1 text-sm">
          {o.shipments.map((s) => (
            <li key={s.ref}>
              {formatDateTime(s.shippedAt)} · {s.carrier} · tracking{' '}
              {s.trackingUrl ? (
                <a href={s.trackingUrl} className="underline" rel="noreferrer" target="_blank">
                  {s.trackingNumber}
                </a>
              ) : (
                s.trackingNumber
              )}{' '}
              · {s.lines.join(', ')}
            </li>
          ))}
        </ul>
      )}
      <p className="mt-2 text-sm">
        {o.invoice
          ? `Invoice ${o.invoice.number} of ${formatDateTime(o.invoice.date)} for ${moneyOf(o)(o.invoice.amount)}.`
          : 'No invoice yet.'}
      </p>
    </Section>
  )
}

export function HistorySection({ o }: { o: AdminOrder }) {
  return (
    <>
      <Section id="mails" title="E-mails">
        {o.allMails.length === 0 ? (
          <p className="mt-2 text-sm">None queued for this order.</p>
        ) : (
          <ul className="mt-2 space-y-1 text-sm">
            {o.allMails.map((m) => (
              <li key={m.key}>
                {m.subject} to <span className="wrap-anywhere">{m.to}</span>:{' '}
                {m.status === 'sent' && m.sentAt ? `sent ${formatDateTime(m.sentAt)}` : m.status}
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section id="timeline" title="Timeline">
        {o.timeline.length === 0 ? <p className="mt-2 text-sm">Nothing has happened to it yet.</p> : null}
        <ol className="mt-2 space-y-1 text-sm">
          {o.timeline.map((e) => (
            <li key={e.id}>
              <span className="font-medium">{e.type.replace(/_/g, ' ')}</span> · {e.actor} ·{' '}
              {formatDateTime(e.at)}
              {typeof e.data.reason === 'string' ? ` · ${e.data.reason}` : ''}
            </li>
          ))}
        </ol>
      </Section>
    </>
  )
}
