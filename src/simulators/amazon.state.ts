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
  /** While Authorized: when the authorisation lapses unless captured (30 days after it was made) */
  expirationTimestamp: string | null
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

/** An authorisation not captured lapses 30 days after it was made (Amazon Pay's Charge object). */
const AUTHORIZATION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000

/** When an authorisation made at `atMs` lapses, as the Charge object states it. */
export const expiresAfter = (atMs: number) => new Date(atMs + AUTHORIZATION_LIFETIME_MS).toISOString()

/**
 * An Authorized charge past its expiration becomes Canceled with reason ExpiredUnused, as Amazon
 * moves it: nothing is held any more, and it can be neither captured nor cancelled. True if it moved.
 */
export function expireIfDue(c: Charge, nowMs: number): boolean {
  if (c.statusDetails.state !== 'Authorized' || !c.expirationTimestamp) return false
  if (nowMs < Date.parse(c.expirationTimestamp)) return false
  c.statusDetails = { state: 'Canceled', reasonCode: 'ExpiredUnused' }
  c.expirationTimestamp = null
  return true
}
