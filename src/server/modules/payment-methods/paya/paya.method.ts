/**
 * paya (Paya Connect) in the checkout: USD only (Northgate). The card goes into Paya's hosted
 * PayForm in an iframe on Paya's origin; our server never sees it.
 *
 *  1. `POST /checkout/paya/create-form` with the order form: everything placing would check is
 *     checked (nothing written), a payment attempt is made for the basket and its signed form URL
 *     returned with the attempt's opaque reference. The transaction_api_id Paya records is the
 *     attempt's (idempotency.ts), so Paya can always be asked about it.
 *  2. The form's postMessage only tells the page it finished; the page posts
 *     `/checkout/complete` with `paymentDetails.reference`.
 *  3. `authorise` asks Paya for the transaction by transaction_api_id (never trusting the
 *     browser), then `settle` records it.
 */
import { preparePayment } from '../../checkout/order-form.ts'
import type { FastifyInstance } from 'fastify'
import { currentCustomerId } from '../../../lib/customer-session.ts'
import { DomainError, type PaymentRefusalCode } from '../../../lib/domain-error.ts'
import type { Authorisation, ParsedDetails, PaymentMethod } from '../../payments/payment-methods.ts'
import { siteBaseUrl } from '../../sites/site-url.ts'
import { SUCCESS_STATES } from '../../payments/attempt.state.ts'
import { PaymentError, type PaymentAttempt } from '../../payments/payments.service.ts'
import type { CheckoutMethodFactory } from '../method-factory.ts'
import { basketOrderRef } from '../card/card.method.ts'

export const PAYA_TEXT = {
  formNotSubmitted: 'Please enter your card details in the card form and submit it.',
  declined: 'Your card was declined. Please check the details or try another card.',
  failed: 'The payment could not be taken. Please check your card details and try again.',
  confirming: 'We are confirming your payment with the card provider. Please wait…',
  unavailable: 'The card form could not be loaded. Please try again.',
} as const

const REFERENCE = /^[A-Za-z0-9_-]{16,64}$/

export const payaMethod: CheckoutMethodFactory = (app: FastifyInstance) => {
  const payments = app.payments
  if (!payments.adapters.paya) return null

  const refusal = (code: PaymentRefusalCode, message: string, extra = {}): Authorisation => ({
    ok: false,
    code,
    message,
    answer: { errors: { paya: [message] }, ...extra },
  })

  function outcome(row: PaymentAttempt): Authorisation {
    // Paid: placement compares Paya's own amount with the basket (and gives it back if it differs).
    if (SUCCESS_STATES.has(row.state)) {
      return {
        ok: true,
        details: {
          attemptId: row.id,
          amount: row.amountMinor,
          transactionId: row.providerRefs.payaTransactionId ?? '',
          transactionApiId: row.providerRefs.payaTransactionApiId ?? '',
        },
      }
    }
    if (row.state === 'requires_action') return refusal('payment_declined', PAYA_TEXT.formNotSubmitted)
    if (row.state === 'declined') return refusal('payment_declined', PAYA_TEXT.declined, { retry: true })
    if (row.state === 'failed') return refusal('payment_declined', PAYA_TEXT.failed, { retry: true })
    return refusal('payment_pending', PAYA_TEXT.confirming, { status: 'paymentPending' })
  }

  const method: PaymentMethod = {
    id: 'paya',
    available: ({ site }) => site.currency === 'USD',

    parseDetails(form): ParsedDetails {
      const details = (form.paymentDetails ?? {}) as Record<string, unknown>
      const reference = details.reference
      if (typeof reference !== 'string' || !REFERENCE.test(reference))
        return { ok: false, errors: { paya: [PAYA_TEXT.formNotSubmitted] } }
      return { ok: true, details: { reference } }
    },

    async authorise(ctx) {
      const orderRef = basketOrderRef(ctx.cartRef)
      const attempts = await payments.forOrder(orderRef)
      const paid = attempts.find((a) => SUCCESS_STATES.has(a.state))
      if (paid) return outcome(paid)
      const row = await payments.byReference(String(ctx.details.reference))
      if (!row || row.orderRef !== orderRef || row.method !== 'paya')
        return { ok: false, code: 'payment_not_found', message: 'Not Found' }
      if (row.state === 'declined' || row.state === 'failed') return outcome(row)
      // The browser's word is a hint: Paya is asked by transaction_api_id.
      const now =
        row.state === 'requires_action' || row.state === 'created'
          ? await payments.payaConfirm(row.id).catch((err: unknown) => {
              if (err instanceof PaymentError && err.attempt) return err.attempt
              throw err
            })
          : await payments.reconcile(row.id)
      return outcome(now)
    },

    resume(row) {
      return Promise.resolve({
        attemptId: row.id,
        amount: row.amountMinor,
        transactionId: row.providerRefs.payaTransactionId ?? '',
        transactionApiId: row.providerRefs.payaTransactionApiId ?? '',
      })
    },

    settle({ amount, details }) {
      return {
        transaction: {
          paymentDetails: {
            transactionId: details.transactionId,
            transaction_api_id: details.transactionApiId,
          },
          amount,
          message: 'APPROVED',
          authCode: 'empty',
        },
      }
    },
  }
  return method
}

/** `POST /checkout/paya/create-form`: the hosted form for this basket's next attempt. */
export async function payaRoutes(app: FastifyInstance) {
  app.post(
    '/checkout/paya/create-form',
    { config: { rateLimit: { max: 30, timeWindow: 60_000 } } },
    async (request, reply) => {
      const site = request.site
      if (!site) return reply.callNotFound()
      // A refusal is a domain error: plugins/error-handler.ts answers it.
      const { form, prepared } = await preparePayment(app, request, site, 'paya')
      const orderRef = basketOrderRef(prepared.cartRef)
      // A payment of this basket that succeeded (or may have): no new form, the page completes.
      for (const a of await app.payments.forOrder(orderRef)) {
        // A form handed out earlier may have been paid since: Paya is asked before a new one.
        const now =
          a.state === 'unknown' || a.state === 'pending'
            ? await app.payments.reconcile(a.id)
            : a.state === 'requires_action' && a.method === 'paya'
              ? await app.payments.payaConfirm(a.id)
              : a
        if (SUCCESS_STATES.has(now.state) || now.state === 'unknown' || now.state === 'pending')
          return reply.send({ reference: now.reference, paid: SUCCESS_STATES.has(now.state) })
      }
      try {
        const attempt = await app.payments.createAttempt({
          siteId: site.id,
          orderRef,
          method: 'paya',
          amountMinor: prepared.amount,
          currency: site.currency,
          // Kept before Paya's form can take the money (the reconciler places it if need be).
          checkout: {
            form: { ...form, 'g-recaptcha-response': undefined },
            customerId: currentCustomerId(request),
            idempotencyKey: null,
            baseUrl: siteBaseUrl(request),
          },
        })
        const b = prepared.details.billing
        const hosted = await app.payments.payaForm(attempt.id, {
          orderNumber: prepared.cartRef.replace(/[^A-Za-z0-9]/g, '').slice(0, 32),
          billingStreet: b.address1.slice(0, 64),
          billingZip: b.postcode.slice(0, 10),
        })
        return reply.header('cache-control', 'no-store').send({
          reference: attempt.reference,
          iframeUrl: hosted.iframeUrl,
          expectedOrigin: hosted.expectedOrigin,
        })
      } catch (err) {
        request.log.warn({ err }, 'Paya form not created')
        throw new DomainError('provider_unavailable', PAYA_TEXT.unavailable)
      }
    },
  )
}
