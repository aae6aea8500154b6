/** The sagepay component: follows in its own commit. */
import type { PaymentMethodEntry } from './types.ts'

export const sagepayEntry: PaymentMethodEntry | null = null
