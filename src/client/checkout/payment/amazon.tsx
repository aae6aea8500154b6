/** The amazon component (issue 14, PayPal/Amazon half) replaces this file; until then none. */
import type { PaymentMethodEntry } from './types.ts'

export const amazonEntry: PaymentMethodEntry | null = null
