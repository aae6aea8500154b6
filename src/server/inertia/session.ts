/**
 * Inertia's use of the session (@fastify/session API: `get(key)` / `set(key, value)`).
 *
 * Model: flash data, validation errors and the clear-history / preserve-fragment flags are written
 * to the session when the app sets them, and taken out ("pulled") by the next page render. Anything
 * that is not a page render (redirects, the version-mismatch 409, JSON endpoints, assets, prefetches)
 * leaves them in place, which is what "reflash on redirect" achieves in other adapters.
 *
 * Writes happen only when there is something to write or to remove, so a request without flash or
 * errors never modifies the session (no session row for anonymous page views). Writes are made
 * immediately rather than in onSend because @fastify/session saves in its own onSend hook, which
 * runs before ours.
 *
 * Without a session (request.session missing, or a path outside the session cookie) a per-request
 * map stands in: values set during a request still reach a render in the same request, and are lost
 * afterwards.
 */

import { asSession, type SessionLike } from '../lib/session-like.ts'

export const SESSION_KEYS = {
  flash: 'inertia.flash',
  errors: 'inertia.errors',
  clearHistory: 'inertia.clear_history',
  preserveFragment: 'inertia.preserve_fragment',
} as const

export type SessionKey = (typeof SESSION_KEYS)[keyof typeof SESSION_KEYS]

/** Validation messages per field: one message or several (undefined entries are ignored). */
export type ErrorMessages = Record<string, string | readonly string[] | undefined>
/** Stored errors: bag name → field → messages. The default bag is `'default'`. */
export type ErrorBags = Record<string, ErrorMessages>

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** What the previous requests left for the page being rendered now. */
export interface PulledState {
  flash: Record<string, unknown>
  errors: ErrorBags
  clearHistory: boolean
  preserveFragment: boolean
}

export class InertiaSession {
  private readonly getSession: () => unknown
  private readonly local = new Map<string, unknown>()

  /** `getSession` is read on every access: @fastify/session replaces the object on regenerate(). */
  constructor(getSession: () => unknown) {
    this.getSession = getSession
  }

  private get session(): SessionLike | null {
    return asSession(this.getSession())
  }

  /** Whether values survive to the next request. */
  get persistent(): boolean {
    return this.session !== null
  }

  private read(key: SessionKey): unknown {
    const session = this.session
    return session ? session.get(key) : this.local.get(key)
  }

  private write(key: SessionKey, value: unknown): void {
    const session = this.session
    if (session) session.set(key, value)
    else if (value === undefined) this.local.delete(key)
    else this.local.set(key, value)
  }

  private take(key: SessionKey): unknown {
    const value = this.read(key)
    if (value !== undefined && value !== null) this.write(key, undefined)
    return value
  }

  flash(values: Record<string, unknown>): void {
    const current = this.read(SESSION_KEYS.flash)
    this.write(SESSION_KEYS.flash, { ...(isRecord(current) ? current : {}), ...values })
  }

  addErrors(errors: ErrorMessages, bag: string): void {
    const current = this.read(SESSION_KEYS.errors)
    const bags: ErrorBags = isRecord(current) ? { ...(current as ErrorBags) } : {}
    const defined = Object.fromEntries(Object.entries(errors).filter(([, v]) => v !== undefined))
    bags[bag] = { ...(bags[bag] ?? {}), ...defined }
    this.write(SESSION_KEYS.errors, bags)
  }

  flag(key: typeof SESSION_KEYS.clearHistory | typeof SESSION_KEYS.preserveFragment): void {
    this.write(key, true)
  }

  /** Everything meant for the next page render, left in place (see `forget`). */
  peek(): PulledState {
    const flash = this.read(SESSION_KEYS.flash)
    const errors = this.read(SESSION_KEYS.errors)
    return {
      flash: isRecord(flash) ? flash : {},
      errors: isRecord(errors) ? (errors as ErrorBags) : {},
      clearHistory: this.read(SESSION_KEYS.clearHistory) === true,
      preserveFragment: this.read(SESSION_KEYS.preserveFragment) === true,
    }
  }

  /** Removes what `peek` returned, once the page that carries it is actually sent. */
  forget(): void {
    for (const key of [
      SESSION_KEYS.flash,
      SESSION_KEYS.errors,
      SESSION_KEYS.clearHistory,
      SESSION_KEYS.preserveFragment,
    ] as const)
      this.take(key)
  }

  /** Removes and returns everything meant for the next page render. */
  pull(): PulledState {
    const flash = this.take(SESSION_KEYS.flash)
    const errors = this.take(SESSION_KEYS.errors)
    return {
      flash: isRecord(flash) ? flash : {},
      errors: isRecord(errors) ? (errors as ErrorBags) : {},
      clearHistory: this.take(SESSION_KEYS.clearHistory) === true,
      preserveFragment: this.take(SESSION_KEYS.preserveFragment) === true,
    }
  }
}

/**
 * Shapes stored errors into `props.errors` (inertia.md §1.9): the default bag flat (nested under
 * the X-Inertia-Error-Bag name when the client sent one), otherwise every named bag under its name.
 * Each field gets its first message unless `allMessages` is set.
 */
export function resolveErrors(
  bags: ErrorBags,
  errorBag: string | null,
  allMessages = false,
): Record<string, unknown> {
  const shape = (messages: ErrorMessages): Record<string, unknown> => {
    const out: Record<string, unknown> = {}
    for (const [field, value] of Object.entries(messages)) {
      if (value === undefined) continue
      const list = typeof value === 'string' ? [value] : [...value]
      if (list.length === 0) continue
      out[field] = allMessages ? list : list[0]
    }
    return out
  }
  const names = Object.keys(bags)
  if (names.length === 0) return {}
  const fallback = bags.default
  if (fallback !== undefined) {
    const flat = shape(fallback)
    if (errorBag !== null && Object.keys(flat).length > 0) return { [errorBag]: flat }
    return flat
  }
  const out: Record<string, unknown> = {}
  for (const name of names) out[name] = shape(bags[name] as ErrorMessages)
  return out
}

/** The parts of a validation error used here (matches zod's ZodError, and similar libraries). */
export interface ValidationIssues {
  issues: readonly { path: readonly PropertyKey[]; message: string }[]
}

/**
 * Turns validation issues into `setErrors` input: one entry per field, keyed by the dot path the
 * client uses (`items.0.qty`), messages in order. Issues without a path go under `fallbackKey`.
 */
export function errorsFromIssues(error: ValidationIssues, fallbackKey = 'form'): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.map((p) => String(p)).join('.') : fallbackKey
    ;(out[key] ??= []).push(issue.message)
  }
  return out
}
