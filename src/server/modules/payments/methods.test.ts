import { describe, expect, it } from 'vitest'
import { offeredPaymentMethods } from './methods.ts'
import { simulatorProviders, type ProviderConfigs } from '../../config/payments.ts'

const all = simulatorProviders('http://127.0.0.1:4194', 'unused')
const none: ProviderConfigs = { sagepay: null, paya: null, paypal: null, amazon: null }

describe('offeredPaymentMethods', () => {
  it('offers card, PayPal, Amazon Pay and purchase order on a GBP site by default', () => {
    expect(offeredPaymentMethods({ currency: 'GBP', settings: {} }, all)).toEqual([
      'sagepay',
      'paypal',
      'amazon',
      'purchase_order',
    ])
  })

  it('offers Paya, PayPal and purchase order on a USD site by default', () => {
    expect(offeredPaymentMethods({ currency: 'USD', settings: {} }, all)).toEqual([
      'paya',
      'paypal',
      'purchase_order',
    ])
  })

  it('follows the site setting but drops methods the currency cannot use', () => {
    expect(
      offeredPaymentMethods(
        {
          currency: 'USD',
          settings: { paymentMethods: [{ id: 'amazon' }, { id: 'purchase_order' }, { id: 'paypal' }] },
        },
        all,
      ),
    ).toEqual(['purchase_order', 'paypal'])
  })

  it('drops a provider that is not configured and keeps purchase order', () => {
    expect(offeredPaymentMethods({ currency: 'GBP', settings: {} }, none)).toEqual(['purchase_order'])
  })
})
