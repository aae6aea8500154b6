/**
 * Order Complete (spec §2 "Order complete", §4): the order number and confirmation, who will
 * invoice, sister-site logos, delivery warnings and the estimated delivery date, the feedback
 * form (2000 characters with a counter), the marketing opt-out (site setting YES and registered
 * today), and a printable order acknowledgement that opens 1 s after Print. The basket is
 * forgotten; a guest's browser forgets any customer (force_logout); analytics fire once per order.
 */
import { Head } from '@inertiajs/react'
import { useEffect, useRef, useState } from 'react'
import { CHECKOUT, CHECKOUT_TEXT, orderTotal } from '../../shared/checkout-text.ts'
import type { CheckoutCompletePageProps } from '../../shared/checkout.ts'
import { formatMoney } from '../../shared/money.ts'
import { endSentence } from '../../shared/text.ts'
import { orderDataTotals, orderTotalLines } from '../../shared/order-totals.ts'
import { Modal, primaryButton, secondaryButton } from '../components/cart/Modal.tsx'
import { placedOrder, rememberPlaced } from '../checkout/placed-order.ts'
import { tagManagerPhone } from '../checkout/tag-manager.ts'
import { CART_STORAGE_KEY } from '../lib/cart-api.ts'
import { joinErrors, requestJson } from '../lib/json-client.ts'
import { useShared } from '../lib/shared-props.ts'

/** §9: success flags on forms last 2 seconds. */
const FEEDBACK_SUCCESS_MS = 2000

function formatDate(iso: string, locale: string): string {
  return new Date(`${iso.slice(0, 10)}T12:00:00Z`).toLocaleDateString(locale, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  })
}

export default function CheckoutComplete({
  order,
  invoicingEntity,
  sisterSites,
  deliveryWarnings,
  estimatedDelivery,
  showOptOut,
  forceLogout,
}: CheckoutCompletePageProps) {
  const { site } = useShared()
  const locale = site?.locale ?? 'en-GB'
  const money = (n: number) => formatMoney(n, order.currency)
  // The printable acknowledgement's totals: ex tax, then the tax, then a total they add up to.
  const printTotals = orderTotalLines(orderDataTotals(order), {
    taxName: site?.tax.name,
    chargesTax: (site?.tax.rate ?? 20) > 0,
    deliveryName: order.deliveryName,
  })
  const [feedback, setFeedback] = useState('')
  const [feedbackState, setFeedbackState] = useState<{ ok: boolean; text: string } | null>(null)
  const [gdpr, setGdpr] = useState<'1' | '0'>('1')
  const [gdprState, setGdprState] = useState<{ ok: boolean; text: string } | null>(null)
  const [printing, setPrinting] = useState(false)
  const tooLong = feedback.length > CHECKOUT.feedbackMax
  const thanksTimer = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(
    () => () => {
      if (thanksTimer.current) clearTimeout(thanksTimer.current)
    },
    [],
  )

  useEffect(() => {
    try {
      // The basket is gone; a guest's browser forgets any stored customer.
      sessionStorage.removeItem(CART_STORAGE_KEY)
      if (forceLogout) sessionStorage.removeItem('customer')
      // Back to the checkout says this order was placed (its number is known here).
      const placed = placedOrder()
      if (placed && placed.url === window.location.pathname && placed.orderNumber !== order.OrderNumber)
        rememberPlaced({ ...placed, orderNumber: order.OrderNumber })
      // Analytics once per order (session storage remembers the orders already reported).
      const key = `order-tracked-${order.OrderNumber}`
      if (!sessionStorage.getItem(key)) {
        sessionStorage.setItem(key, '1')
        const w = window as unknown as { dataLayer?: unknown[] }
        ;(w.dataLayer ??= []).push({
          event: 'purchase',
          ecommerce: {
            transaction_id: String(order.OrderNumber),
            value: orderTotal(order) / 100,
            tax: order.totalTax / 100,
            shipping: order.totalShippingCost / 100,
            currency: order.currency,
            items: order.items.map((i) => ({ item_id: i.sku, item_name: i.name, quantity: i.quantity })),
          },
          // §9: the phone number goes to the tag manager with a leading 0 turned into +44.
          ...(order.contactDetails.phone.trim()
            ? { user_data: { phone_number: tagManagerPhone(order.contactDetails.phone) } }
            : {}),
        })
      }
    } catch {
      // Storage unavailable: nothing to forget or remember.
    }
  }, [order, forceLogout])

  const sendFeedback = async (e: React.FormEvent) => {
    e.preventDefault()
    if (!feedback.trim()) return setFeedbackState({ ok: false, text: CHECKOUT_TEXT.feedbackEmpty })
    if (tooLong) return setFeedbackState({ ok: false, text: CHECKOUT_TEXT.feedbackTooLong })
    const res = await requestJson('POST', '/checkout/send-feedback', {
      OrderNumber: order.OrderNumber,
      Feedback: feedback,
    })
    if (res.ok) {
      setFeedback('')
      setFeedbackState({ ok: true, text: CHECKOUT_TEXT.feedbackThanks })
      // §9: the success flag lasts 2 seconds.
      if (thanksTimer.current) clearTimeout(thanksTimer.current)
      thanksTimer.current = setTimeout(() => setFeedbackState((s) => (s?.ok ? null : s)), FEEDBACK_SUCCESS_MS)
    } else {
      setFeedbackState({ ok: false, text: joinErrors(res.data, CHECKOUT_TEXT.feedbackFailed) })
    }
  }

  const sendGdpr = async (e: React.FormEvent) => {
    e.preventDefault()
    const res = await requestJson<{ message?: string }>('POST', '/checkout/complete/gdpr', {
      OrderNumber: order.OrderNumber,
      gdpr: Number(gdpr),
    })
    setGdprState({ ok: res.ok, text: res.ok ? (res.data?.message ?? '') : joinErrors(res.data, '') })
  }

  const print = () => {
    setPrinting(true)
    setTimeout(() => window.print(), CHECKOUT.printDelayMs)
  }

  return (
    <>
      <Head title={CHECKOUT_TEXT.orderTitle} />
      <h1 id="order-complete-heading" className="text-3xl font-bold tracking-tight">
        {CHECKOUT_TEXT.orderTitle}
      </h1>
      <section
        aria-labelledby="order-complete-heading"
        className="mt-4 rounded-lg border border-green-700 bg-green-50 p-4"
        data-testid="order-confirmation"
      >
        <p className="text-lg">
          Thank you for your order. Your order number is{' '}
          <strong data-testid="order-number">{order.OrderNumber}</strong>.
        </p>
        <p className="mt-2">
          We have e-mailed an order acknowledgement to{' '}
          {/* A long address breaks anywhere rather than running out of the box at 320 px. */}
          <span className="[overflow-wrap:anywhere]">{order.contactDetails.email}</span>. Your invoice will
          come from {endSentence(invoicingEntity)}
        </p>
        <p className="mt-2">
          Estimated delivery: <strong>{formatDate(estimatedDelivery, locale)}</strong>
        </p>
        <p className="mt-2">Order total: {money(orderTotal(order))}</p>
        <button type="button" className={`${secondaryButton} mt-3`} onClick={print}>
          Print Order Acknowledgement
        </button>
      </section>

      {deliveryWarnings.length ? (
        <section aria-labelledby="delivery-heading" className="mt-6">
          <h2 id="delivery-heading" className="text-xl font-semibold">
            Delivery information
          </h2>
          <ul className="mt-2 list-disc pl-6">
            {deliveryWarnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="feedback-heading" className="mt-6">
        <h2 id="feedback-heading" className="text-xl font-semibold">
          How was your experience?
        </h2>
        <form onSubmit={(e) => void sendFeedback(e)} noValidate>
          <label htmlFor="feedback" className="mt-2 block text-sm font-medium">
            Your feedback
          </label>
          <textarea
            id="feedback"
            className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2"
            rows={4}
            value={feedback}
            onChange={(e) => {
              setFeedback(e.target.value)
              // 'The feedback box is empty.' goes once there is text.
              if (e.target.value.trim() && feedbackState?.text === CHECKOUT_TEXT.feedbackEmpty)
                setFeedbackState(null)
            }}
            aria-invalid={tooLong || feedbackState?.ok === false || undefined}
            aria-describedby="feedback-count feedback-message"
          />
          <p id="feedback-count" className={`text-sm ${tooLong ? 'text-red-700' : 'text-gray-700'}`}>
            {feedback.length} / {CHECKOUT.feedbackMax}
          </p>
          <div id="feedback-message" role="status" data-testid="feedback-message">
            {tooLong ? (
              <p className="mt-1 text-red-700">{CHECKOUT_TEXT.feedbackTooLong}</p>
            ) : feedbackState ? (
              <p className={`mt-1 ${feedbackState.ok ? 'text-green-800' : 'text-red-700'}`}>
                {feedbackState.text}
              </p>
            ) : null}
          </div>
          <button type="submit" className={`${primaryButton} mt-2`} disabled={tooLong}>
            Send Feedback
          </button>
        </form>
      </section>

      {showOptOut ? (
        <section aria-labelledby="marketing-heading" className="mt-6" data-testid="marketing-opt-out">
          <h2 id="marketing-heading" className="text-xl font-semibold">
            Marketing e-mails
          </h2>
          <form onSubmit={(e) => void sendGdpr(e)}>
            <fieldset>
              <legend className="text-sm">
                Would you like to receive marketing e-mails from {site?.name}?
              </legend>
              <label className="mr-4">
                <input
                  type="radio"
                  name="gdpr"
                  value="1"
                  checked={gdpr === '1'}
                  onChange={() => setGdpr('1')}
                />{' '}
                Yes
              </label>
              <label>
                <input
                  type="radio"
                  name="gdpr"
                  value="0"
                  checked={gdpr === '0'}
                  onChange={() => setGdpr('0')}
                />{' '}
                No
              </label>
            </fieldset>
            <button type="submit" className={`${secondaryButton} mt-2`}>
              Save my choice
            </button>
            {gdprState ? (
              <p role="status" className={`mt-1 ${gdprState.ok ? 'text-green-800' : 'text-red-700'}`}>
                {gdprState.text}
              </p>
            ) : null}
          </form>
        </section>
      ) : null}

      {sisterSites.length ? (
        <section aria-labelledby="sister-heading" className="mt-6">
          <h2 id="sister-heading" className="text-xl font-semibold">
            Our sister sites
          </h2>
          <ul className="mt-2 flex flex-wrap gap-4">
            {sisterSites.map((s) => (
              <li key={s.name}>
                <a href={s.url}>
                  <img src={s.logo} alt={s.name} className="h-10" />
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <Modal
        open={printing}
        title="Order Acknowledgement"
        onClose={() => setPrinting(false)}
        testId="print-modal"
      >
        <div className="text-sm">
          <p>
            <strong>{site?.name}</strong> - Order {order.OrderNumber}, {formatDate(order.orderDate, locale)}
          </p>
          <p className="mt-2">
            {order.contactDetails.first_name} {order.contactDetails.last_name}
            {order.contactDetails.company ? `, ${order.contactDetails.company}` : ''}
          </p>
          <p>
            {[
              order.shippingAddress.address1,
              order.shippingAddress.address2,
              order.shippingAddress.town,
              order.shippingAddress.postcode,
            ]
              .filter(Boolean)
              .join(', ')}
          </p>
          <table className="mt-2 w-full">
            <tbody>
              {order.items.map((i) => (
                <tr key={`${i.sku}-${i.sequence_id ?? ''}-${i.line_total}`}>
                  <td>{i.quantity}</td>
                  <td>{i.name}</td>
                  <td className="text-right">{money(i.line_total_ex_discount_ex_tax)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {printTotals.lines.map((l, n) => (
            <p key={l.kind} className={n === 0 ? 'mt-2 text-right' : 'text-right'}>
              {l.label}: {money(l.amount)}
            </p>
          ))}
          <p className="text-right font-semibold">
            {printTotals.total.label}: {money(printTotals.total.amount)}
          </p>
        </div>
      </Modal>
    </>
  )
}
