/**
 * Which payment methods a site offers: THE function the checkout calls to list them.
 *
 * The list is the site setting `paymentMethods` when set, else the currency's default: GBP sites
 * offer card (Opayo), PayPal, Amazon Pay and purchase order; USD sites Paya, PayPal and purchase
 * order. A method is then dropped when it cannot work: its provider is not configured, or the
 * currency is one the provider does not take (Paya is USD only, Amazon's UK checkout GBP only).
 */
import type { ProviderConfigs } from '../../config/payments.ts'
import type { Currency, MethodId } from './payments.types.ts'

export const DEFAULT_METHODS: Record<Currency, readonly MethodId[]> = {
  GBP: ['sagepay', 'paypal', 'amazon', 'purchase_order'],
  USD: ['paya', 'paypal', 'purchase_order'],
}

const CURRENCIES: Record<MethodId, readonly Currency[]> = {
  sagepay: ['GBP'],
  paya: ['USD'],
  paypal: ['GBP', 'USD'],
  amazon: ['GBP'],
  purchase_order: ['GBP', 'USD'],
}

export interface SiteForPayments {
  currency: Currency
  /** The checkout's per-site list of step-1 options (ids in display order). */
  settings: { paymentMethods?: { id: string }[] | undefined }
}

export function offeredPaymentMethods(site: SiteForPayments, providers: ProviderConfigs): MethodId[] {
  const listed = site.settings.paymentMethods?.map((m) => m.id)
  const wanted = listed ?? DEFAULT_METHODS[site.currency]
  return [...new Set(wanted)].filter(
    (m): m is MethodId =>
      m in CURRENCIES &&
      CURRENCIES[m as MethodId].includes(site.currency) &&
      (m === 'purchase_order' || providers[m as Exclude<MethodId, 'purchase_order'>] !== null),
  )
}
