/** The paya checkout method: follows in its own commit. */
import type { CheckoutMethodFactory } from './index.ts'

export const payaMethod: CheckoutMethodFactory = () => null
