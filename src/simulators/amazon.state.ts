/** The Amazon Pay simulator's records: checkout sessions, charges, refunds, and the sandbox wallet. */
export const WALLET = [
  { ending: '1111', label: 'Visa ending 1111 (approves)' },
  { ending: '3434', label: 'Visa ending 3434 (declined)' },
  { ending: '3064', label: 'Visa ending 3064 (buyer cancels)' },
  { ending: '0701', label: 'Visa ending 0701 (authorisation pending)' },
]

export interface Session {
  id: string
  payload: Record<string, unknown>
  state: 'Open' | 'Completed' | 'Canceled'
  reasonCode: string | null
  resultReturnUrl: string | null
  paymentDetails: Record<string, unknown> | null
  merchantMetadata: Record<string, unknown> | null
  card: string | null
  returnedFromAmazon: boolean
  chargeId: string | null
  chargePermissionId: string | null
  createdAt: number
}
export interface Money {
  amount: string
  currencyCode: string
}
export interface Charge {
  chargeId: string
  chargePermissionId: string
  chargeAmount: Money
  /** Set once captured: what Amazon took. */
  captureAmount: Money | null
  refundedAmount: Money
  statusDetails: { state: string; reasonCode: string | null }
  creationTimestamp: string
}
export interface Refund {
  refundId: string
  chargeId: string
  refundAmount: Money
  softDescriptor: string | null
  statusDetails: { state: 'RefundInitiated' | 'Refunded' | 'Declined'; reasonCode: string | null }
  creationTimestamp: string
}

export const cents = (m: Money | null | undefined) => Math.round(Number(m?.amount ?? NaN) * 100)
export const money = (minor: number, currencyCode: string): Money => ({
  amount: (minor / 100).toFixed(2),
  currencyCode,
})
