/**
 * `app.payments`: the payments service with each provider's client and the per-method steps the
 * checkout flows call (card pay and challenge, Paya's form, PayPal's order and capture, Amazon's
 * session). The attempt model, its state machine and the reconciler are the base class's
 * (payments/payments.service.ts); each step here is begin → the client's call → record.
 */
import type { Db } from '../../db/client.ts'
import type { PaymentsConfig, ProviderConfigs } from '../../config/payments.ts'
import {
  attemptContext,
  PaymentError,
  PaymentService,
  type PaymentAttempt,
} from '../payments/payments.service.ts'
import { AmazonAdapterWithRefunds } from './amazon/amazon.refund.ts'
import { OpayoAdapterWithRefunds } from './card/opayo.refund.ts'
import { PayaAdapterWithRefunds } from './paya/paya.refund.ts'
import { PaypalAdapterWithRefunds } from './paypal/paypal.refund.ts'
import {
  buildPaymentRequest,
  referenceFromThreeDSSessionData,
  type OpayoPayInput,
} from './card/opayo.provider.ts'
import type { PayaFormInput } from './paya/paya.provider.ts'
import type { PaypalOrderInput } from './paypal/paypal.provider.ts'

export interface PaymentAdapters {
  sagepay: OpayoAdapterWithRefunds | null
  paya: PayaAdapterWithRefunds | null
  paypal: PaypalAdapterWithRefunds | null
  amazon: AmazonAdapterWithRefunds | null
}

export function createAdapters(providers: ProviderConfigs, timeoutMs?: number): PaymentAdapters {
  return {
    sagepay: providers.sagepay ? new OpayoAdapterWithRefunds(providers.sagepay, timeoutMs) : null,
    paya: providers.paya ? new PayaAdapterWithRefunds(providers.paya, timeoutMs) : null,
    paypal: providers.paypal ? new PaypalAdapterWithRefunds(providers.paypal, timeoutMs) : null,
    amazon: providers.amazon ? new AmazonAdapterWithRefunds(providers.amazon, timeoutMs) : null,
  }
}

/** The service for the configured providers (the payments plugin's `createService`). */
export function methodPayments(
  db: Db,
  providers: ProviderConfigs,
  mode: PaymentsConfig['mode'],
  timeoutMs?: number,
): MethodPayments {
  return new MethodPayments(db, createAdapters(providers, timeoutMs), mode)
}

export class MethodPayments extends PaymentService<PaymentAdapters> {
  /** sagepay: the drop-in's merchant session key (one per card form render). */
  cardSession() {
    return this.configured('sagepay').cardSession()
  }

  /** sagepay: pay with the card identifier the drop-in produced (or a saved card). */
  async cardPay(id: string, input: OpayoPayInput): Promise<PaymentAttempt> {
    const adapter = this.configured('sagepay')
    const row = await this.get(id)
    if (!row) throw new PaymentError('not_found', 'payment attempt not found')
    const request = buildPaymentRequest(attemptContext(row), input)
    return this.perform(id, 'pay', (ctx) => adapter.send(ctx, request), request)
  }

  /** sagepay: the ACS posted cres and threeDSSessionData back (found by reference, not cookie). */
  async cardChallengeResult(threeDSSessionData: string, cRes: string): Promise<PaymentAttempt> {
    const reference = referenceFromThreeDSSessionData(threeDSSessionData)
    const row = reference ? await this.byReference(reference) : null
    if (!row || row.method !== 'sagepay') throw new PaymentError('not_found', 'payment attempt not found')
    if (row.state !== 'requires_action') return row
    const adapter = this.configured('sagepay')
    return this.perform(row.id, 'challenge', (ctx) => adapter.completeChallenge(ctx, cRes))
  }

  /** paya: the hosted form for this attempt. */
  async payaForm(id: string, input: PayaFormInput) {
    const row = await this.get(id)
    if (!row) throw new PaymentError('not_found', 'payment attempt not found')
    const form = this.configured('paya').hostedForm(attemptContext(row), input)
    await this.begin(id, 'pay')
    // The shopper is now on Paya's form: postbacks may arrive and are reconciled from here on.
    await this.record(id, 'form', {
      status: 'requires_action',
      refs: { payaTransactionApiId: form.transactionApiId },
      action: { type: 'hostedForm', url: form.iframeUrl, expectedOrigin: form.expectedOrigin },
    })
    return form
  }

  /** paya: the form said it finished; Paya is asked what happened. */
  payaConfirm(id: string): Promise<PaymentAttempt> {
    const adapter = this.configured('paya')
    return this.perform(id, 'pay', (ctx) => adapter.confirm(ctx))
  }

  /** paypal: create the PayPal order (createOrder callback); the order id is kept on the attempt. */
  async paypalCreateOrder(
    id: string,
    input: PaypalOrderInput,
  ): Promise<{ orderId: string } | PaymentAttempt> {
    const adapter = this.configured('paypal')
    const row = await this.get(id)
    if (!row) throw new PaymentError('not_found', 'payment attempt not found')
    const result = await adapter.createOrder(attemptContext(row), input)
    if ('orderId' in result) {
      await this.addRefs(id, { paypalOrderId: result.orderId })
      return { orderId: result.orderId }
    }
    return this.record(id, 'create', result)
  }

  /** paypal: onApprove → capture (re-approval and INSTRUMENT_DECLINED come back as requires_action). */
  paypalCapture(id: string, intent: 'CAPTURE' | 'AUTHORIZE' = 'CAPTURE', seq = 0): Promise<PaymentAttempt> {
    const adapter = this.configured('paypal')
    return this.perform(id, intent === 'CAPTURE' ? 'capture' : 'authorize', (ctx) =>
      adapter.capture(ctx, intent, seq),
    )
  }

  /** amazon: the session Amazon created from our signed button, attached to the attempt. */
  amazonAttachSession(id: string, checkoutSessionId: string): Promise<PaymentAttempt> {
    return this.addRefs(id, { amazonCheckoutSessionId: checkoutSessionId })
  }

  /** amazon: amount and return URL set; the attempt then requires the redirect to Amazon. */
  amazonPrepare(
    id: string,
    input: { resultReturnUrl: string; merchantReferenceId: string; storeName: string },
  ): Promise<PaymentAttempt> {
    const adapter = this.configured('amazon')
    return this.perform(id, 'update', (ctx) => adapter.prepareForPayment(ctx, input))
  }

  /** amazon: back from Amazon: complete the checkout session. */
  amazonComplete(id: string): Promise<PaymentAttempt> {
    const adapter = this.configured('amazon')
    return this.perform(id, 'complete', (ctx) => adapter.complete(ctx))
  }
}
