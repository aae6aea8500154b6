/**
 * The logged-in customer in the session. Other modules read it through `currentCustomerId` /
 * `currentCustomer`; the session key `customerId` (a number) is the contract with the basket.
 */
import type { FastifyRequest } from 'fastify'
import type { CustomerRow } from './auth.tables.ts'
import { sessionOf } from '../../lib/session-like.ts'

export const SESSION = {
  customerId: 'customerId',
  /** { customerId, remember, redirect, expiresAt } while the two-factor challenge is pending */
  twoFactor: 'auth.twoFactor',
  /** epoch ms of the last password confirmation */
  confirmedAt: 'auth.confirmedAt',
  /** { email } after registering, until the address is verified */
  pendingVerification: 'auth.pendingVerification',
  /** where to go after logging in */
  intended: 'auth.intended',
  /** the customer's session generation at login (customers.session_generation) */
  generation: 'auth.generation',
} as const

/** Session keys that never survive a login or logout. */
export const AUTH_SESSION_KEYS: ReadonlySet<string> = new Set(Object.values(SESSION))

export const CONFIRM_PASSWORD_TTL_MS = 3 * 60 * 60_000
export const TWO_FACTOR_PENDING_TTL_MS = 10 * 60_000

export interface PendingTwoFactor {
  customerId: number
  remember: boolean
  redirect: boolean
  /** Where to go after the challenge: the intended page, or the page logged in from (checkout) */
  intended?: string | null
  expiresAt: number
}

const session = sessionOf

export function sessionGet<T>(request: FastifyRequest, key: string): T | undefined {
  return session(request)?.get(key) as T | undefined
}

export function sessionSet(request: FastifyRequest, key: string, value: unknown): void {
  session(request)?.set(key, value)
}

/** The logged-in customer's id, or null for a visitor (and during a pending two-factor challenge). */
export function currentCustomerId(request: FastifyRequest): number | null {
  const id = sessionGet<unknown>(request, SESSION.customerId)
  return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : null
}

const loaded = new WeakMap<FastifyRequest, Promise<CustomerRow | null>>()

/**
 * The logged-in customer's row (loaded once per request), or null. A session pointing at a
 * deleted account, or at another site's account, counts as logged out.
 */
export function currentCustomer(request: FastifyRequest): Promise<CustomerRow | null> {
  const id = currentCustomerId(request)
  if (id === null) return Promise.resolve(null)
  let p = loaded.get(request)
  if (!p) {
    p = request.server.auth.service.byId(id).then((c) => (c && c.siteId === request.site?.id ? c : null))
    loaded.set(request, p)
  }
  return p
}

/** Forget the per-request cache after the customer row changed during the request. */
export function reloadCustomer(request: FastifyRequest): void {
  loaded.delete(request)
}
