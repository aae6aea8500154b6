/** The Opayo Pi simulator's records: merchant session keys, card identifiers, transactions. */
export const PREFIX = '/opayo/api/v1'
export const MSK_TTL_MS = 400_000
export const DECLINE_CARD = '4929602110085639'

export interface Msk {
  key: string
  expiresAt: number
  failures: number
  used: boolean
}
export interface Card {
  id: string
  msk: string
  number: string
  name: string
  expiryDate: string
  securityCode: string | null
  reusable: boolean
  expiresAt: number
}
export interface Tx {
  body: Record<string, unknown>
  amount: number
  notificationURL: string | null
  challenge: { acsTransID: string; result: 'Y' | 'N' | null; completed: boolean } | null
  instructions: string[]
  refunded: number
  /** The batch this payment was in has settled (after midnight): a void is refused from then on. */
  settled: boolean
  /** Refund transactions made against this one. */
  refunds: string[]
}

export function cardType(n: string): string {
  if (n.startsWith('4')) return 'Visa'
  if (/^5[1-5]/.test(n)) return 'MasterCard'
  if (/^3[47]/.test(n)) return 'AmericanExpress'
  if (/^(6759|5641)/.test(n)) return 'Maestro'
  return 'Visa'
}
