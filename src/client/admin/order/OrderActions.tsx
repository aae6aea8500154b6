/**
 * The order page's actions (issue 34), each a small form through the same operations as the
 * integration API: hold, release, ship (all that remains, or lines), cancel, refund (quoted first),
 * resend the acknowledgement, invoice, and an internal note. Each form is keyboard reachable, its
 * fields labelled with their errors tied to them; the result is announced at the page's top.
 */
import { useId, type ReactNode } from 'react'
import { SubmitButton, TextField } from '../../components/auth/fields.tsx'
import {
  cancelSchema,
  holdSchema,
  invoiceSchema,
  noteSchema,
  refundSchema,
  shipSchema,
} from '../../../shared/staff-orders.ts'
import { formatDateTime } from '../admin-props.ts'
import { moneyOf, Section } from './OrderSections.tsx'
import type { AdminOrder, OrderLine, RefundQuote } from './types.ts'
import { amountText } from '../edit-parts.tsx'
import { QUOTE_ID, useOrderAction } from './use-order-action.ts'

function ActionForm({
  intent,
  title,
  onSubmit,
  children,
}: {
  intent: string
  title: string
  onSubmit: (e: React.FormEvent) => void
  children: ReactNode
}) {
  const id = useId()
  return (
    <form
      data-action={intent}
      aria-labelledby={id}
      noValidate
      onSubmit={onSubmit}
      className="mt-4 border-t border-gray-100 pt-3 first:border-0"
    >
      <h3 id={id} className="font-semibold">
        {title}
      </h3>
      {/* Fields a line of text wide, not the page's: easier to read at 1366 px. */}
      <div className="max-w-xl">{children}</div>
    </form>
  )
}

function Choice({
  name,
  legend,
  value,
  options,
  onChange,
}: {
  name: string
  legend: string
  value: string
  options: [string, string][]
  onChange: (v: string) => void
}) {
  return (
    <fieldset className="mt-3">
      <legend className="text-sm font-medium">{legend}</legend>
      {options.map(([v, label]) => (
        <label key={v} className="mr-4 inline-flex items-center gap-1 text-sm">
          <input type="radio" name={name} value={v} checked={value === v} onChange={() => onChange(v)} />
          {label}
        </label>
      ))}
    </fieldset>
  )
}

function LineQuantities({
  lines,
  max,
  verb,
  values,
  error,
  onChange,
}: {
  lines: OrderLine[]
  max: (l: OrderLine) => number
  verb: string
  values: Record<string, string>
  error: string | undefined
  onChange: (v: Record<string, string>) => void
}) {
  const errorId = useId()
  return (
    <div className="mt-2">
      <ul className="space-y-1">
        {lines
          .filter((l) => max(l) > 0)
          .map((l) => (
            <li key={l.id}>
              <label className="flex flex-wrap items-center gap-2 text-sm">
                <input
                  type="text"
                  inputMode="numeric"
                  className="w-16 rounded border border-gray-300 px-2 py-1"
                  value={values[l.id] ?? ''}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? errorId : undefined}
                  onChange={(e) => onChange({ ...values, [l.id]: e.target.value })}
                />
                <span>
                  of {max(l)} × {l.name} ({l.sku}) to {verb}
                </span>
              </label>
            </li>
          ))}
      </ul>
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  )
}

const PAID = ['paid', 'partially_refunded']

function HoldRelease({ o }: { o: AdminOrder }) {
  const hold = useOrderAction('hold', holdSchema, { reason: '' })
  const release = useOrderAction('release', null, {})
  if (o.status === 'held')
    return (
      <ActionForm intent="release" title="Release" onSubmit={release.submit()}>
        <p className="text-sm">On hold: {o.holdReason}</p>
        <div className="mt-2">
          <SubmitButton processing={release.processing}>Release the order</SubmitButton>
        </div>
      </ActionForm>
    )
  if (o.status !== 'placed' && o.status !== 'partially_shipped') return null
  return (
    <ActionForm intent="hold" title="Hold" onSubmit={hold.submit()}>
      <TextField
        label="Reason for the hold"
        name="reason"
        required
        value={String(hold.data.reason)}
        error={hold.errorFor('reason')}
        onChange={(e) => hold.set('reason', e.target.value)}
      />
      <div className="mt-2">
        <SubmitButton processing={hold.processing}>Hold the order</SubmitButton>
      </div>
    </ActionForm>
  )
}

function Ship({ o }: { o: AdminOrder }) {
  const f = useOrderAction('ship', shipSchema, {
    carrier: '',
    trackingNumber: '',
    trackingUrl: '',
    scope: 'all',
    lines: {} as Record<string, string>,
  })
  if (o.status !== 'placed' && o.status !== 'partially_shipped') return null
  return (
    <ActionForm intent="ship" title="Ship" onSubmit={f.submit()}>
      <TextField
        label="Carrier"
        name="carrier"
        required
        value={String(f.data.carrier)}
        error={f.errorFor('carrier')}
        onChange={(e) => f.set('carrier', e.target.value)}
      />
      <TextField
        label="Tracking number"
        name="trackingNumber"
        required
        value={String(f.data.trackingNumber)}
        error={f.errorFor('trackingNumber')}
        onChange={(e) => f.set('trackingNumber', e.target.value)}
      />
      <TextField
        label="Tracking link (optional, https://)"
        name="trackingUrl"
        value={String(f.data.trackingUrl)}
        error={f.errorFor('trackingUrl')}
        onChange={(e) => f.set('trackingUrl', e.target.value)}
      />
      <Choice
        name="ship-scope"
        legend="This parcel holds"
        value={String(f.data.scope)}
        options={[
          ['all', 'everything not shipped yet'],
          ['lines', 'some lines'],
        ]}
        onChange={(v) => f.set('scope', v)}
      />
      {f.data.scope === 'lines' ? (
        <LineQuantities
          lines={o.lines}
          max={(l) => l.remaining}
          verb="ship"
          values={f.data.lines}
          error={f.errorFor('lines')}
          onChange={(v) => f.set('lines', v)}
        />
      ) : null}
      <div className="mt-3">
        <SubmitButton processing={f.processing}>Record the shipment</SubmitButton>
      </div>
    </ActionForm>
  )
}

function Cancel({ o }: { o: AdminOrder }) {
  const f = useOrderAction('cancel', cancelSchema, { reason: '' })
  if (o.status === 'cancelled' || o.fulfilmentStatus !== 'unfulfilled') return null
  return (
    <ActionForm intent="cancel" title="Cancel" onSubmit={f.submit()}>
      <p className="text-sm">Nothing is shipped yet: cancelling gives the payment back (void or refund).</p>
      <TextField
        label="Reason for cancelling"
        name="reason"
        required
        value={String(f.data.reason)}
        error={f.errorFor('reason')}
        onChange={(e) => f.set('reason', e.target.value)}
      />
      <div className="mt-2">
        <SubmitButton processing={f.processing}>Cancel the order</SubmitButton>
      </div>
    </ActionForm>
  )
}

function Refund({ o, quote, refundBy }: { o: AdminOrder; quote: RefundQuote | null; refundBy: string }) {
  const f = useOrderAction('quote', refundSchema, {
    reason: '',
    scope: 'lines',
    amount: '',
    lines: {} as Record<string, string>,
  })
  const confirm = useOrderAction('refund', null, {})
  const money = moneyOf(o)
  if (!PAID.includes(o.paymentStatus)) return null
  return (
    <ActionForm intent="quote" title="Refund" onSubmit={f.submit('quote')}>
      <TextField
        label="Reason for the refund"
        name="reason"
        required
        value={String(f.data.reason)}
        error={f.errorFor('reason')}
        onChange={(e) => f.set('reason', e.target.value)}
      />
      <Choice
        name="refund-scope"
        legend="Refund"
        value={String(f.data.scope)}
        options={[
          ['lines', 'lines'],
          ['amount', 'an amount'],
          ['all', 'everything still refundable'],
        ]}
        onChange={(v) => f.set('scope', v)}
      />
      {f.data.scope === 'lines' ? (
        <LineQuantities
          lines={o.lines}
          max={(l) => l.quantity}
          verb="refund"
          values={f.data.lines}
          error={f.errorFor('lines')}
          onChange={(v) => f.set('lines', v)}
        />
      ) : null}
      {f.data.scope === 'amount' ? (
        <TextField
          label={`Amount (${o.currency})`}
          name="amount"
          inputMode="decimal"
          required
          value={String(f.data.amount)}
          error={f.errorFor('amount')}
          onChange={(e) => f.set('amount', e.target.value)}
        />
      ) : null}
      <div className="mt-3">
        <SubmitButton processing={f.processing}>Show the refund</SubmitButton>
      </div>
      {quote ? (
        <div
          id={QUOTE_ID}
          tabIndex={-1}
          role="group"
          aria-label="The refund to confirm"
          className="mt-3 rounded border border-gray-300 bg-gray-50 p-3 text-sm"
          data-testid="refund-quote"
        >
          <p>
            This refunds <strong>{money(quote.amountMinor)}</strong> by {refundBy}. Still refundable:{' '}
            {money(quote.refundableMinor)}.
          </p>
          <button
            type="button"
            disabled={confirm.processing}
            onClick={() => confirm.sendAs('refund', quote.form)}
            className="mt-2 rounded-md bg-primary px-4 py-2 font-semibold text-on-primary disabled:opacity-60"
          >
            Refund {money(quote.amountMinor)}
          </button>
        </div>
      ) : null}
    </ActionForm>
  )
}

function Paperwork({ o }: { o: AdminOrder }) {
  const resend = useOrderAction('resend', null, {})
  const today = new Date().toISOString().slice(0, 10)
  const invoice = useOrderAction('invoice', invoiceSchema, {
    invoiceNumber: o.invoice ? String(o.invoice.number) : '',
    invoiceDate: today,
    amount: amountText(o.totals.total),
    pdfBase64: '',
  })
  const fileId = useId()
  const paid = o.status !== 'pending_payment' && o.status !== 'payment_failed'
  return (
    <>
      {paid ? (
        <ActionForm intent="resend" title="Acknowledgement e-mail" onSubmit={resend.submit()}>
          <p className="text-sm">Sends the order's acknowledgement to {o.contact.email} again.</p>
          <div className="mt-2">
            <SubmitButton processing={resend.processing}>Resend the acknowledgement</SubmitButton>
          </div>
        </ActionForm>
      ) : null}
      <ActionForm
        intent="invoice"
        title={o.invoice ? 'Invoice' : 'Create or attach an invoice'}
        onSubmit={invoice.submit()}
      >
        <TextField
          label="Invoice number (blank: the next number)"
          name="invoiceNumber"
          inputMode="numeric"
          value={String(invoice.data.invoiceNumber)}
          error={invoice.errorFor('invoiceNumber')}
          onChange={(e) => invoice.set('invoiceNumber', e.target.value)}
        />
        <TextField
          label="Invoice date"
          name="invoiceDate"
          type="date"
          required
          value={String(invoice.data.invoiceDate)}
          error={invoice.errorFor('invoiceDate')}
          onChange={(e) => invoice.set('invoiceDate', e.target.value)}
        />
        <TextField
          label={`Amount (${o.currency})`}
          name="amount"
          inputMode="decimal"
          required
          value={String(invoice.data.amount)}
          error={invoice.errorFor('amount')}
          onChange={(e) => invoice.set('amount', e.target.value)}
        />
        <div className="mt-4">
          <label htmlFor={fileId} className="block text-sm font-medium text-gray-800">
            PDF (optional; without one the shop draws it)
          </label>
          <input
            id={fileId}
            type="file"
            accept="application/pdf"
            className="admin-file mt-1 block max-w-full text-sm"
            aria-describedby={invoice.errorFor('pdfBase64') ? `${fileId}-error` : undefined}
            onChange={(e) => {
              const file = e.target.files?.[0]
              if (!file) return invoice.set('pdfBase64', '')
              const reader = new FileReader()
              reader.onload = () =>
                invoice.set('pdfBase64', String(reader.result).replace(/^data:[^,]*,/, ''))
              reader.readAsDataURL(file)
            }}
          />
          {invoice.errorFor('pdfBase64') ? (
            <p id={`${fileId}-error`} className="mt-1 text-sm text-red-700">
              {invoice.errorFor('pdfBase64')}
            </p>
          ) : null}
        </div>
        <div className="mt-3">
          <SubmitButton processing={invoice.processing}>Record the invoice</SubmitButton>
        </div>
      </ActionForm>
    </>
  )
}

export function OrderActions({
  o,
  quote,
  refundBy,
}: {
  o: AdminOrder
  quote: RefundQuote | null
  refundBy: string
}) {
  return (
    <Section id="actions" title="Actions">
      <HoldRelease o={o} />
      <Ship o={o} />
      <Cancel o={o} />
      <Refund o={o} quote={quote} refundBy={refundBy} />
      <Paperwork o={o} />
    </Section>
  )
}

export function NotesSection({ o, canAct }: { o: AdminOrder; canAct: boolean }) {
  const f = useOrderAction('note', noteSchema, { note: '' })
  return (
    <Section id="notes" title="Internal notes">
      {o.staffNotes.length === 0 ? (
        <p className="mt-2 text-sm">No notes yet.</p>
      ) : (
        <ul className="mt-2 space-y-1 text-sm">
          {o.staffNotes.map((n) => (
            <li key={n.id}>
              {n.text}{' '}
              <span className="text-gray-600">
                · {n.by} · {formatDateTime(n.at)}
              </span>
            </li>
          ))}
        </ul>
      )}
      {canAct ? (
        <ActionForm
          intent="note"
          title="Add a note (staff only; never shown to the customer)"
          onSubmit={f.submit()}
        >
          <TextField
            label="Note"
            name="note"
            required
            value={String(f.data.note)}
            error={f.errorFor('note')}
            onChange={(e) => f.set('note', e.target.value)}
          />
          <div className="mt-2">
            <SubmitButton processing={f.processing}>Add the note</SubmitButton>
          </div>
        </ActionForm>
      ) : null}
    </Section>
  )
}
