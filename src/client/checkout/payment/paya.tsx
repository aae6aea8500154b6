/** The paya component: follows in its own commit. */
import type { PaymentMethodEntry } from './types.ts'

export const payaEntry: PaymentMethodEntry | null = null
