/**
 * Back office: one order, read only (the actions come with the order operations): lines, totals,
 * addresses, the VAT relief declaration, the payment attempt and the e-mails sent.
 */
import { Head, Link } from '@inertiajs/react'
import type { ReactNode } from 'react'
import AdminLayout from '../../admin/AdminLayout.tsx'
import { formatDateTime } from '../../admin/admin-props.ts'
import { formatMoney } from '../../../shared/money.ts'
import type { Currency } from '../../../shared/page-props.ts'
import { STATUS_LABELS } from '../../admin/labels.ts'

interface Address {
  company: string
  address1: string
  address2: string
  town: string
  county: string
  postcode: string
  country: string
}

interface Props {
  order: {
    number: number
    site: string
    status: string
    date: string
    method: string
    currency: string
    poNumber: string | null
    vatNumber: string | null
    notes: string
    contact: { first_name: string; last_name: string; email: string; phone: string; company: string }
    shippingAddress: Address
    billingAddress: Address
    delivery: string
    promotionCodes: string[]
    vatRelief: { name: string; condition: string; declaredAt: string } | null
    totals: Record<
      'goodsNet' | 'shippingNet' | 'shippingVat' | 'vat' | 'discount' | 'customisation' | 'total',
      number
    >
    lines: {
      sku: string
      name: string
      quantity: number
      unitPrice: number
      lineTotal: number
      vat: number
      vatRate: number
      isFreeGift: boolean
    }[]
    attempts: {
      id: string
      method: string
      state: string
      amount: number
      currency: string
      reference: string
      resolution: string | null
      lastMessage: string | null
      createdAt: string
    }[]
    mails: {
      key: string
      subject: string
      status: string
      attempts: number
      sentAt: string | null
      queuedAt: string
    }[]
  }
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mt-6 rounded-lg border border-gray-200 bg-white p-4" aria-labelledby={`h-${title}`}>
      <h2 id={`h-${title}`} className="text-lg font-semibold">
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

export default function Order({ order: o }: Props) {
  const money = (n: number) => formatMoney(n, o.currency as Currency)
  const totals: [string, number][] = [
    ['Goods (ex VAT)', o.totals.goodsNet],
    ['Discount', -o.totals.discount],
    ['Customisation', o.totals.customisation],
    [`Delivery${o.delivery ? ` (${o.delivery})` : ''}`, o.totals.shippingNet],
    ['VAT', o.totals.vat],
  ]
  return (
    <div>
      <Head title={`Order ${o.number} - Shop back office`} />
      <p>
        <Link href="/admin/orders" className="text-sm underline">
          All orders
        </Link>
      </p>
      <h1 className="mt-2 text-xl font-semibold">Order {o.number}</h1>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr_auto_1fr]">
        <dt className="font-medium">Status</dt>
        <dd>{STATUS_LABELS[o.status] ?? o.status}</dd>
        <dt className="font-medium">Placed</dt>
        <dd>{formatDateTime(o.date)}</dd>
        <dt className="font-medium">Site</dt>
        <dd>{o.site}</dd>
        <dt className="font-medium">Payment</dt>
        <dd>{o.method}</dd>
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

      <Section title="Lines">
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
              {o.lines.map((l, i) => (
                <tr key={i} className="border-b border-gray-100">
                  <th scope="row" className="p-1 text-left font-normal">
                    {l.name}
                    <span className="block text-gray-600">
                      {l.sku}
                      {l.isFreeGift ? ' · free gift' : ''} · VAT {l.vatRate}%
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
        </dl>
      </Section>

      <Section title="Customer and addresses">
        <div className="mt-2 grid gap-4 text-sm sm:grid-cols-3">
          <div>
            <h3 className="font-medium">Contact</h3>
            <p>
              {o.contact.first_name} {o.contact.last_name}
              {o.contact.company ? <span className="block">{o.contact.company}</span> : null}
              <span className="block break-all">{o.contact.email}</span>
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

      <Section title="VAT relief declaration">
        {o.vatRelief ? (
          <p className="mt-2 text-sm">
            Declared by {o.vatRelief.name} on {formatDateTime(o.vatRelief.declaredAt)} for:{' '}
            {o.vatRelief.condition}
          </p>
        ) : (
          <p className="mt-2 text-sm">None: VAT was charged as usual.</p>
        )}
      </Section>

      <Section title="Payment attempts">
        {o.attempts.length === 0 ? (
          <p className="mt-2 text-sm">
            None:{' '}
            {o.method === 'purchase_order'
              ? 'a purchase order is invoiced.'
              : 'no provider payment is linked.'}
          </p>
        ) : (
          <ul className="mt-2 space-y-2 text-sm">
            {o.attempts.map((a) => (
              <li key={a.id}>
                {a.method}: {a.state} · {formatMoney(a.amount, a.currency as Currency)} · reference{' '}
                {a.reference} · {formatDateTime(a.createdAt)}
                {a.resolution ? ` · ${a.resolution}` : ''}
                {a.lastMessage ? <span className="block text-gray-600">{a.lastMessage}</span> : null}
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title="E-mails">
        {o.mails.length === 0 ? (
          <p className="mt-2 text-sm">None queued for this order.</p>
        ) : (
          <ul className="mt-2 space-y-1 text-sm">
            {o.mails.map((m) => (
              <li key={m.key}>
                {m.subject}:{' '}
                {m.status === 'sent' && m.sentAt
                  ? `sent ${formatDateTime(m.sentAt)}`
                  : `${m.status} (${m.attempts} attempt${m.attempts === 1 ? '' : 's'})`}
              </li>
            ))}
          </ul>
        )}
      </Section>
    </div>
  )
}

Order.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
