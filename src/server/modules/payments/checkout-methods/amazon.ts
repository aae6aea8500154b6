/**
 * The Amazon Pay checkout method (issue 14, PayPal/Amazon half): built from app.payments when the
 * provider is configured. Until that work is merged it is not registered (null), so the
 * checkout does not offer it.
 */
import type { CheckoutMethodFactory } from './index.ts'

export const amazonMethod: CheckoutMethodFactory = () => null
