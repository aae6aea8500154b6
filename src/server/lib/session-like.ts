/**
 * The one typed view of a request's server-side session (@fastify/session's object): the auth
 * module, the basket keys and the Inertia flash/errors all read and write it through this.
 */
import type { FastifyRequest } from 'fastify'

export interface SessionLike {
  get(key: string): unknown
  set(key: string, value: unknown): void
}

/** The value as a session, or null when it is not one (no session plugin, or not yet loaded). */
export function asSession(candidate: unknown): SessionLike | null {
  if (candidate === null || typeof candidate !== 'object') return null
  const s = candidate as Partial<SessionLike>
  return typeof s.get === 'function' && typeof s.set === 'function' ? (s as SessionLike) : null
}

/** The request's session, or null. */
export function sessionOf(request: FastifyRequest): SessionLike | null {
  return asSession((request as { session?: unknown }).session)
}
