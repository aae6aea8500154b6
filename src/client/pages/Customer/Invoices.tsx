/**
 * Customer/Invoices 'Your Invoices' (spec §2, §3 Invoice): the list (Invoice_Number,
 * Invoice_Date, Invoice_Amount) and the invoice view by invoiceNumber with its lines and a PDF
 * download made by the server from the same invoice.
 */
import { Link } from '@inertiajs/react'
import { Fragment } from 'react'
import { ACCOUNT_TEXT } from '../../../shared/account-text.ts'
import type { InvoicesProps } from '../../../shared/account.ts'
import { AccountLayout, mainButton } from '../../components/account/AccountLayout.tsx'
import { useFormat } from '../../components/account/format.ts'

export default function Invoices({ greeting, invoices, invoice }: InvoicesProps) {
  const f = useFormat()
  return (
    <AccountLayout
      title="Your Invoices"
      titleFor={{ page: 'invoices' }}
      greeting={greeting}
      here="/customer/invoices"
    >
      {invoice ? (
        <section
          aria-labelledby="invoice-heading"
          className="mb-8 rounded-md border border-gray-200 p-4"
          data-testid="invoice-view"
        >
          <h2 id="invoice-heading" className="text-xl font-semibold">
            Invoice {invoice.Invoice_Number}
          </h2>
          <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_1fr]">
            <dt className="font-semibold">Invoice date</dt>
            <dd>{f.date(invoice.Invoice_Date)}</dd>
            <dt className="font-semibold">Order</dt>
            <dd>
              <Link href={`/customer/orders/${invoice.OrderNumber}`} className="text-primary underline">
                {invoice.OrderNumber}
              </Link>
            </dd>
            <dt className="font-semibold">Amount</dt>
            <dd>{f.money(invoice.Invoice_Amount, invoice.currency)}</dd>
          </dl>
          <div className="relative mt-4 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Invoice lines</caption>
              <thead className="border-b border-gray-300">
                <tr>
                  <th scope="col" className="py-2 pr-3">
                    Item
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right">
                    Qty
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right">
                    Unit
                  </th>
                  <th scope="col" className="py-2 text-right">
                    Total
                  </th>
                </tr>
              </thead>
              <tbody>
                {invoice.lines.map((l, i) => (
                  <tr key={i} className="border-b border-gray-100">
                    <td className="py-2 pr-3">
                      {l.name} <span className="text-xs text-gray-700">({l.sku})</span>
                    </td>
                    <td className="py-2 pr-3 text-right">{l.quantity}</td>
                    <td className="py-2 pr-3 text-right">{f.money(l.unitPrice, invoice.currency)}</td>
                    <td className="py-2 text-right">{f.money(l.lineTotal, invoice.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <dl className="mt-3 grid grid-cols-[1fr_auto] gap-x-4 text-sm sm:max-w-xs">
            {invoice.totals.lines.map((l) => (
              <Fragment key={l.kind}>
                <dt>{l.label}</dt>
                <dd className="text-right">{f.money(l.amount, invoice.currency)}</dd>
              </Fragment>
            ))}
            <dt className="font-semibold">{invoice.totals.total.label}</dt>
            <dd className="text-right font-semibold">
              {f.money(invoice.totals.total.amount, invoice.currency)}
            </dd>
          </dl>
          <a href={invoice.pdfUrl} download className={`${mainButton} mt-4`}>
            Download PDF
          </a>
        </section>
      ) : null}
      {invoices.length === 0 ? (
        <p>{ACCOUNT_TEXT.noInvoices}</p>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Your invoices, newest first</caption>
            <thead className="border-b border-gray-300">
              <tr>
                <th scope="col" className="py-2 pr-2 sm:pr-3">
                  Invoice
                </th>
                <th scope="col" className="py-2 pr-2 sm:pr-3">
                  Date
                </th>
                <th scope="col" className="py-2 pr-2 sm:pr-3">
                  Order
                </th>
                <th scope="col" className="py-2 text-right">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {invoices.map((i) => (
                <tr key={i.Invoice_Number} className="border-b border-gray-100">
                  <td className="py-2 pr-2 sm:pr-3">
                    <Link href={`/customer/invoices/${i.Invoice_Number}`} className="text-primary underline">
                      {i.Invoice_Number}
                    </Link>
                  </td>
                  <td className="py-2 pr-2 sm:pr-3 sm:whitespace-nowrap">{f.date(i.Invoice_Date)}</td>
                  <td className="py-2 pr-2 sm:pr-3">{i.OrderNumber}</td>
                  <td className="py-2 text-right">{f.money(i.Invoice_Amount, i.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </AccountLayout>
  )
}
