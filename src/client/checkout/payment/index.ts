/**
 * The checkout's payment methods on the page: method id → the component rendered in the payment
 * box of Checkout.tsx (props in ./types.ts). A method with no entry shows nothing there and uses
 * the page's Complete Order button with empty paymentDetails.
 */
import { amazonEntry } from './amazon.tsx'
import { payaEntry } from './paya.tsx'
import { paypalEntry } from './paypal.tsx'
import { purchaseOrderEntry } from './purchase-order.tsx'
import { sagepayEntry } from './sagepay.tsx'
import type { PaymentMethodEntry } from './types.ts'

export type { PaymentMethodEntry, SubmitResult, WalletOrder } from './types.ts'

const entries: [string, PaymentMethodEntry | null][] = [
  ['purchase_order', purchaseOrderEntry],
  ['sagepay', sagepayEntry],
  ['paya', payaEntry],
  ['paypal', paypalEntry],
  ['amazon', amazonEntry],
]

export const PAYMENT_COMPONENTS: Readonly<Record<string, PaymentMethodEntry>> = Object.fromEntries(
  entries.filter((e): e is [string, PaymentMethodEntry] => e[1] !== null),
)
