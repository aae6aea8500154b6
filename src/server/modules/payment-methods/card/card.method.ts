/**
 * sagepay (Opayo Pi) in the checkout (spec §3 "sagepay (card_identifier)", §4 submit, §7).
 *
 *  1. The page asks `POST /checkout/sagepay/create-preorder-and-sagepay-session` with the order
 *     form: everything placing would check is checked (nothing written) and a merchant session
 *     key is minted for the drop-in (Opayo's iframe: no card data in our DOM or server). For a
 *     saved card of the logged-in customer, its reusable card identifier comes back too: the
 *     drop-in then asks only for the security code.
 *  2. The drop-in tokenises; the page posts `/checkout/complete` with card_identifier,
 *     sagePayMerchantSessionKey, save_card / saved_card and challengeWindowSize.
 *  3. `authorise` makes one payment attempt for the basket and pays it. 3-D Secure answers 402
 *     `auth3DSCheckRequired` with acsUrl and fields (creq, threeDSSessionData); the ACS posts
 *     back cross-site to /payments/3ds/notify, the page posts `/checkout/complete` again with
 *     threeDSSessionData, aCSResponse and threeDSVersion, and the attempt is found by its opaque
 *     reference. A time-out leaves the attempt unknown: the answer is 202 and the page asks
 *     again; the attempt is reconciled with Opayo before anything is paid again.
 *  4. `settle` records the verified payment in the order transaction.
 */
import { preparePayment } from '../../checkout/order-form.ts'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { CHECKOUT_TEXT } from '../../../../shared/checkout.ts'
import { currentCustomerId } from '../../../lib/customer-session.ts'
import { DomainError, type PaymentRefusalCode } from '../../../lib/domain-error.ts'
import type {
  Authorisation,
  AuthoriseContext,
  ParsedDetails,
  PaymentMethod,
} from '../../payments/payment-methods.ts'
import { listSavedCards, saveCard, savedCardToken } from '../../customers/saved-cards.service.ts'
import { SUCCESS_STATES } from '../../payments/attempt.state.ts'
import { PaymentError, type PaymentAttempt } from '../../payments/payments.service.ts'
import { isRecord, str } from '../../payments/providers/http.ts'
import { referenceFromThreeDSSessionData } from './opayo.provider.ts'
import type { CheckoutMethodFactory } from '../method-factory.ts'

export const SAGEPAY_TEXT = {
  cardMissing: 'Please enter your card details.',
  savedCardNotFound: 'This saved card is no longer available. Please choose another card.',
  declined: 'Your card was declined. Please check the details or try another card.',
  challengeFailed: 'The card check with your bank was not completed. Please try again or use another card.',
  failed: 'The payment could not be taken. Please check your card details and try again.',
  confirming: 'We are confirming your payment with the card provider. Please wait…',
  alreadyPaying: 'A payment for this basket is still being confirmed. Please wait a moment and try again.',
} as const

/** What parseDetails makes of the card fields. */
type CardDetails =
  | { kind: 'new'; cardIdentifier: string; merchantSessionKey: string; saveCard: boolean; window: Window }
  | { kind: 'saved'; savedCardId: number; merchantSessionKey: string; window: Window }
  | { kind: 'challenge'; threeDSSessionData: string; cRes: string; saveCard: boolean }
type Window = 'Small' | 'Medium'

import { basketOrderRef } from '../../payments/order-ref.ts'

export { basketOrderRef }

const id = z.string().regex(/^[A-Za-z0-9-]{8,100}$/)

export const sagepayMethod: CheckoutMethodFactory = (app: FastifyInstance) => {
  const payments = app.payments
  const adapter = payments.adapters.sagepay
  if (!adapter) return null

  const refusal = (code: PaymentRefusalCode, message: string, extra = {}): Authorisation => ({
    ok: false,
    code,
    message,
    answer: { errors: { card_identifier: [message] }, ...extra },
  })

  /** The attempt's state → what the checkout does next. */
  async function outcome(row: PaymentAttempt, ctx: AuthoriseContext, saveCardWanted: boolean) {
    // Paid: placement compares Opayo's amount with the basket (and gives it back if it differs).
    if (SUCCESS_STATES.has(row.state)) {
      const card = await cardOf(row)
      if (saveCardWanted && ctx.customerId !== null && card.token) {
        await saveCard(app.db, ctx.customerId, {
          provider: 'sagepay',
          token: card.token,
          last4Digits: card.last4Digits,
          cardType: card.cardType,
          expiry: card.expiry,
        })
      }
      return { ok: true as const, details: paidDetails(row, card) }
    }
    if (row.state === 'requires_action' && row.nextAction?.type === 'threeDSChallenge') {
      const a = row.nextAction
      return {
        ok: false as const,
        code: 'payment_declined' as const,
        message: 'auth3DSCheckRequired',
        answer: {
          status: 'auth3DSCheckRequired',
          acsUrl: a.acsUrl,
          fields: { creq: a.creq, threeDSSessionData: a.threeDSSessionData },
        },
      }
    }
    if (row.state === 'declined') {
      const challengeFailed = row.history.some((h) => h.cause === 'challenge')
      return refusal(
        'payment_declined',
        challengeFailed ? SAGEPAY_TEXT.challengeFailed : SAGEPAY_TEXT.declined,
      )
    }
    if (row.state === 'failed') return refusal('payment_declined', SAGEPAY_TEXT.failed)
    // Paid, but its order could not be placed and the reconciler gave the money back.
    if (row.state === 'voided')
      return refusal('payment_moved', CHECKOUT_TEXT.totalChanged, { warning: CHECKOUT_TEXT.totalChanged })
    // unknown or pending: the provider is asked again before anything is paid again.
    return {
      ok: false as const,
      code: 'payment_pending' as const,
      message: SAGEPAY_TEXT.confirming,
      answer: { status: 'paymentPending' },
    }
  }

  /** The card as Opayo recorded it (type, last four, its reusable identifier, the bank's code). */
  async function cardOf(row: PaymentAttempt) {
    const none = { token: '', cardType: 'Card', last4Digits: '', expiry: '', authCode: 'empty' }
    const txId = row.providerRefs.opayoTransactionId
    if (!txId) return none
    try {
      const res = await adapter!.client.getTransaction(txId)
      const body = isRecord(res.json) ? res.json : {}
      const pm =
        isRecord(body.paymentMethod) && isRecord(body.paymentMethod.card) ? body.paymentMethod.card : {}
      return {
        token: pm.reusable === true ? (str(pm.cardIdentifier) ?? '') : '',
        cardType: str(pm.cardType) ?? 'Card',
        last4Digits: str(pm.lastFourDigits) ?? '',
        expiry: str(pm.expiryDate) ?? '',
        authCode: str(body.bankAuthorisationCode) ?? 'empty',
      }
    } catch {
      // The payment is verified; only the card's description is missing.
      return none
    }
  }

  const method: PaymentMethod = {
    id: 'sagepay',
    available: () => true,

    parseDetails(form, ctx): ParsedDetails {
      const window: Window = form.challengeWindowSize === 'Small' ? 'Small' : 'Medium'
      const save = form.save_card === true
      if (typeof form.threeDSSessionData === 'string' && typeof form.aCSResponse === 'string') {
        if (!/^[A-Za-z0-9_-]{1,1024}$/.test(form.threeDSSessionData) || !form.aCSResponse)
          return { ok: false, errors: { card_identifier: [SAGEPAY_TEXT.challengeFailed] } }
        return {
          ok: true,
          details: {
            kind: 'challenge',
            threeDSSessionData: form.threeDSSessionData,
            cRes: form.aCSResponse,
            saveCard: save,
          } satisfies CardDetails,
        }
      }
      const msk = id.safeParse(form.sagePayMerchantSessionKey)
      if (typeof form.saved_card === 'number') {
        if (ctx.customerId === null || !msk.success)
          return { ok: false, errors: { saved_card: [SAGEPAY_TEXT.savedCardNotFound] } }
        return {
          ok: true,
          details: {
            kind: 'saved',
            savedCardId: form.saved_card,
            merchantSessionKey: msk.data,
            window,
          } satisfies CardDetails,
        }
      }
      // §3: the card identifier sits in the transaction's paymentDetails; the top-level form
      // field (§3's checkout form) is read too, and wins when both are sent.
      const nested =
        form.paymentDetails && typeof form.paymentDetails === 'object'
          ? (form.paymentDetails as Record<string, unknown>).card_identifier
          : undefined
      const card = id.safeParse(form.card_identifier ?? nested)
      if (!card.success || !msk.success)
        return { ok: false, errors: { card_identifier: [SAGEPAY_TEXT.cardMissing] } }
      return {
        ok: true,
        details: {
          kind: 'new',
          cardIdentifier: card.data,
          merchantSessionKey: msk.data,
          // Only an account keeps cards (§6).
          saveCard: save && ctx.customerId !== null,
          window,
        } satisfies CardDetails,
      }
    },

    async authorise(ctx) {
      const d = ctx.details as CardDetails
      const orderRef = basketOrderRef(ctx.cartRef)
      const attempts = await payments.forOrder(orderRef)
      const paid = attempts.find((a) => SUCCESS_STATES.has(a.state))
      if (d.kind === 'challenge') {
        // The ACS's answer must belong to this basket's attempt (found by its opaque reference)
        // before anything is sent to Opayo.
        const reference = referenceFromThreeDSSessionData(d.threeDSSessionData)
        const target = reference ? await payments.byReference(reference) : null
        if (!target || target.orderRef !== orderRef || target.method !== 'sagepay')
          return refusal('payment_not_found', SAGEPAY_TEXT.challengeFailed)
        const row = paid ?? (await payments.cardChallengeResult(d.threeDSSessionData, d.cRes).catch(notFound))
        if (!row) return refusal('payment_not_found', SAGEPAY_TEXT.challengeFailed)
        return outcome(row, ctx, d.saveCard && ctx.customerId !== null)
      }
      // An attempt whose answer was lost is first settled with Opayo: never pay twice.
      for (const a of attempts)
        if (a.state === 'unknown' || a.state === 'pending') {
          const now = await payments.reconcile(a.id)
          if (SUCCESS_STATES.has(now.state)) return outcome(now, ctx, d.kind === 'new' && d.saveCard)
          if (now.state === 'unknown' || now.state === 'pending') return outcome(now, ctx, false)
        }
      if (paid) return outcome(paid, ctx, d.kind === 'new' && d.saveCard)

      let cardIdentifier: string
      let reusable = false
      if (d.kind === 'saved') {
        const saved = ctx.customerId ? await savedCardToken(app.db, ctx.customerId, d.savedCardId) : null
        if (!saved || saved.provider !== 'sagepay')
          return { ok: false, code: 'payment_not_found', message: 'Not Found' }
        cardIdentifier = saved.token
        reusable = true
      } else {
        cardIdentifier = d.cardIdentifier
      }
      let attempt: PaymentAttempt
      try {
        attempt = await payments.createAttempt({
          siteId: ctx.site.id,
          orderRef,
          method: 'sagepay',
          amountMinor: ctx.amount,
          currency: ctx.site.currency,
          checkout: ctx.checkout,
        })
      } catch (err) {
        if (err instanceof PaymentError && err.attempt) return outcome(err.attempt, ctx, false)
        if (err instanceof PaymentError) return refusal('payment_pending', SAGEPAY_TEXT.alreadyPaying)
        throw err
      }
      const b = ctx.billing
      const row = await payments.cardPay(attempt.id, {
        merchantSessionKey: d.merchantSessionKey,
        cardIdentifier,
        reusable,
        save: d.kind === 'new' && d.saveCard,
        description: `${ctx.site.name} order`,
        customer: {
          firstName: ctx.contactDetails.firstName,
          lastName: ctx.contactDetails.lastName,
          email: ctx.contactDetails.email,
          phone: ctx.contactDetails.phone,
        },
        billingAddress: {
          address1: b.address1.slice(0, 50),
          ...(b.address2 ? { address2: b.address2.slice(0, 50) } : {}),
          city: b.town.slice(0, 40),
          postalCode: b.postcode.slice(0, 10),
          country: b.country || ctx.shipping.country,
        },
        browser: {
          browserIP: ctx.client.ip,
          browserAcceptHeader: ctx.client.accept || 'text/html',
          browserJavascriptEnabled: true,
          browserLanguage: (ctx.client.language.split(',')[0] ?? '').trim() || 'en-GB',
          browserUserAgent: ctx.client.userAgent || 'unknown',
        },
        notificationURL: `${ctx.baseUrl}/payments/3ds/notify`,
        challengeWindowSize: d.window,
      })
      return outcome(row, ctx, d.kind === 'new' && d.saveCard)
    },

    settle({ amount, details }) {
      // The payment was verified by authorise; placement compared Opayo's amount with the order's.
      return {
        transaction: {
          paymentDetails: {
            transactionId: details.transactionId,
            cardType: details.cardType,
            last4Digits: details.last4Digits,
          },
          amount,
          message: 'The Authorisation was Successful.',
          authCode: String(details.authCode ?? 'empty'),
        },
      }
    },

    async resume(row) {
      return paidDetails(row, await cardOf(row))
    },

    async clientConfig({ customerId }) {
      const cards = customerId ? await listSavedCards(app.db, customerId) : []
      return {
        scriptUrl: adapter.config.scriptUrl,
        savedCards: cards
          .filter((c) => c.provider === 'sagepay')
          .map((c) => ({ id: c.id, last4Digits: c.last4Digits, cardType: c.cardType })),
      }
    },
  }
  return method
}

/** What `settle` records of a paid card attempt (at Complete Order, or resumed by the reconciler). */
function paidDetails(
  row: PaymentAttempt,
  card: { cardType: string; last4Digits: string; authCode: string },
): Record<string, unknown> {
  return {
    attemptId: row.id,
    amount: row.amountMinor,
    transactionId: row.providerRefs.opayoTransactionId ?? '',
    cardType: card.cardType,
    last4Digits: card.last4Digits,
    authCode: card.authCode,
  }
}

function notFound(err: unknown): null {
  if (err instanceof PaymentError) return null
  throw err
}

/** `POST /checkout/sagepay/create-preorder-and-sagepay-session` (§7). */
export async function sagepayRoutes(app: FastifyInstance) {
  app.post(
    '/checkout/sagepay/create-preorder-and-sagepay-session',
    { config: { rateLimit: { max: 30, timeWindow: 60_000 } } },
    async (request, reply) => {
      const site = request.site
      if (!site) return reply.callNotFound()
      // A refusal is a domain error: plugins/error-handler.ts answers it.
      const { form } = await preparePayment(app, request, site, 'sagepay')
      const customerId = currentCustomerId(request)
      let reusableCardIdentifier: string | null = null
      if (typeof form.saved_card === 'number') {
        const saved = customerId ? await savedCardToken(app.db, customerId, form.saved_card) : null
        if (!saved || saved.provider !== 'sagepay') throw new DomainError('payment_not_found', 'Not Found')
        reusableCardIdentifier = saved.token
      }
      let session
      try {
        session = await app.payments.cardSession()
      } catch (err) {
        request.log.warn({ err }, 'Opayo merchant session key not created')
        throw new DomainError('provider_unavailable', SAGEPAY_TEXT.failed)
      }
      return reply.header('cache-control', 'no-store').send({
        merchantSessionKey: session.merchantSessionKey,
        expiry: session.expiry,
        scriptUrl: session.scriptUrl,
        ...(reusableCardIdentifier ? { reusableCardIdentifier } : {}),
      })
    },
  )
}
