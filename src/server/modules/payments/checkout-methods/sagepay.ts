/** The sagepay checkout method: follows in its own commit. */
import type { CheckoutMethodFactory } from './index.ts'

export const sagepayMethod: CheckoutMethodFactory = () => null
