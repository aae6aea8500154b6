/**
 * The PayPal Orders v2 order the shop asks for: its types and the request body built from an
 * attempt and the basket's breakdown (the amounts must add up to the attempt's amount).
 */
import { toDecimalString } from '../../payments/money.ts'
import type { Currency } from '../../payments/payments.types.ts'
import type { AttemptContext } from '../../payments/providers/types.ts'

export interface PaypalShippingOption {
  id: string
  label: string
  type: 'SHIPPING' | 'PICKUP'
  selected: boolean
  amountMinor: number
}

export interface PaypalOrderInput {
  /** Amount breakdown in minor units; value = itemTotal + shipping + taxTotal - discount. */
  itemTotalMinor: number
  shippingMinor: number
  taxTotalMinor: number
  discountMinor: number
  items?: { name: string; quantity: number; unitAmountMinor: number; sku?: string }[]
  shippingOptions?: PaypalShippingOption[]
  intent?: 'CAPTURE' | 'AUTHORIZE'
  brandName: string
  locale: string
  returnUrl: string
  cancelUrl: string
  /** GET_FROM_FILE: the buyer picks an address in PayPal; SET_PROVIDED_ADDRESS: ours, read-only. */
  shippingPreference: 'GET_FROM_FILE' | 'NO_SHIPPING' | 'SET_PROVIDED_ADDRESS'
  /** Re-approval: a new order for the same attempt needs a new request id. */
  sequence?: number
}

export interface PaypalOrder {
  id: string
  status: 'CREATED' | 'SAVED' | 'APPROVED' | 'VOIDED' | 'COMPLETED' | 'PAYER_ACTION_REQUIRED'
  links?: { rel: string; href: string }[]
  payer?: { email_address?: string; name?: { given_name?: string; surname?: string }; payer_id?: string }
  purchase_units?: {
    reference_id?: string
    amount?: { currency_code: string; value: string }
    shipping?: { name?: { full_name?: string }; address?: Record<string, string>; options?: unknown[] }
    payments?: {
      captures?: {
        id: string
        status: string
        status_details?: { reason?: string }
        amount?: { currency_code: string; value: string }
      }[]
      authorizations?: { id: string; status: string; amount?: { currency_code: string; value: string } }[]
    }
  }[]
}

export function money(minor: number, currency: Currency) {
  return { currency_code: currency, value: toDecimalString(minor, currency) }
}

export function buildOrderRequest(attempt: AttemptContext, input: PaypalOrderInput): Record<string, unknown> {
  const c = attempt.currency
  const total = input.itemTotalMinor + input.shippingMinor + input.taxTotalMinor - input.discountMinor
  if (total !== attempt.amountMinor)
    throw new RangeError(`breakdown ${total} ≠ attempt amount ${attempt.amountMinor}`)
  return {
    intent: input.intent ?? 'CAPTURE',
    purchase_units: [
      {
        reference_id: 'default',
        custom_id: attempt.id,
        invoice_id: `${attempt.orderRef}-${attempt.attemptNo}`,
        amount: {
          ...money(total, c),
          breakdown: {
            item_total: money(input.itemTotalMinor, c),
            shipping: money(input.shippingMinor, c),
            tax_total: money(input.taxTotalMinor, c),
            ...(input.discountMinor ? { discount: money(input.discountMinor, c) } : {}),
          },
        },
        ...(input.items
          ? {
              items: input.items.map((i) => ({
                name: i.name.slice(0, 127),
                quantity: String(i.quantity),
                unit_amount: money(i.unitAmountMinor, c),
                ...(i.sku ? { sku: i.sku.slice(0, 127) } : {}),
                category: 'PHYSICAL_GOODS',
              })),
            }
          : {}),
        ...(input.shippingOptions
          ? { shipping: { options: input.shippingOptions.map((o) => shippingOption(o, c)) } }
          : {}),
      },
    ],
    payment_source: {
      paypal: {
        experience_context: {
          brand_name: input.brandName.slice(0, 127),
          locale: input.locale,
          shipping_preference: input.shippingPreference,
          user_action: 'PAY_NOW',
          return_url: input.returnUrl,
          cancel_url: input.cancelUrl,
        },
      },
    },
  }
}

export function shippingOption(o: PaypalShippingOption, c: Currency) {
  return { id: o.id, label: o.label, type: o.type, selected: o.selected, amount: money(o.amountMinor, c) }
}
