/**
 * The back office's forms and filters (ADR 0261): zod schemas used by the /admin pages (on blur
 * and on submit) and by the server (on every request), built from the customers' rules.
 */
import { z } from 'zod'
import { AUTH_MESSAGES, isStrongPassword, PASSWORD_MAX } from './auth-text.ts'
import { emailField, twoFactorConfirmSchema } from './auth.ts'
import { text } from './text.ts'

export const STAFF_ROLE_NAMES = ['owner', 'staff', 'viewer'] as const
export type StaffRoleName = (typeof STAFF_ROLE_NAMES)[number]

export const ROLE_LABELS: Record<StaffRoleName, string> = {
  owner: 'Owner (everything, including staff and the audit log)',
  staff: 'Staff (orders: view and act)',
  viewer: 'Viewer (read only)',
}

const passwordAsTyped = text({ error: AUTH_MESSAGES.required })
  .min(1, AUTH_MESSAGES.required)
  .max(PASSWORD_MAX, AUTH_MESSAGES.tooLong(PASSWORD_MAX))

export const staffLoginSchema = z.object({ email: emailField, password: passwordAsTyped })

export const staffTwoFactorSchema = twoFactorConfirmSchema

export const acceptInvitationSchema = z
  .object({
    password: passwordAsTyped.refine(isStrongPassword, AUTH_MESSAGES.password),
    password_confirmation: text({ error: AUTH_MESSAGES.required }).min(1, AUTH_MESSAGES.required),
  })
  .refine((v) => v.password === v.password_confirmation, {
    message: AUTH_MESSAGES.passwordMismatch,
    path: ['password_confirmation'],
  })

const roleField = z.enum(STAFF_ROLE_NAMES, { error: 'Please choose a role.' })

export const inviteStaffSchema = z.object({
  email: emailField,
  name: text({ error: AUTH_MESSAGES.required })
    .trim()
    .min(1, AUTH_MESSAGES.required)
    .max(100, AUTH_MESSAGES.tooLong(100)),
  role: roleField,
})

export const changeRoleSchema = z.object({ role: roleField })

/** Search kinds of the order list; `auto` guesses from the text. */
export const ORDER_SEARCH_KINDS = ['auto', 'number', 'email', 'name', 'po', 'postcode'] as const
export type OrderSearchKind = (typeof ORDER_SEARCH_KINDS)[number]

const isoDate = text()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Please enter a date as YYYY-MM-DD.')
  // A calendar day that exists (2026-02-30 does not, though Date.parse would roll it over).
  .refine((v) => {
    const t = Date.parse(`${v}T00:00:00Z`)
    return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === v
  }, 'Please enter a real date.')

const optionalText = (max: number) =>
  text()
    .trim()
    .max(max, AUTH_MESSAGES.tooLong(max))
    .optional()
    .transform((v) => (v ? v : undefined))

/** The order list's query string: every field optional, bad values refused with a message. */
export const orderListQuerySchema = z
  .object({
    site: z.coerce.number().int().positive().optional().catch(undefined),
    status: z.enum(['pending_payment', 'placed', 'payment_failed']).optional().catch(undefined),
    method: optionalText(40),
    from: isoDate.optional().or(z.literal('').transform(() => undefined)),
    to: isoDate.optional().or(z.literal('').transform(() => undefined)),
    attention: z
      .union([z.literal('1'), z.literal('true'), z.literal('on'), z.literal(''), z.literal('0')])
      .optional()
      .transform((v) => v === '1' || v === 'true' || v === 'on'),
    q: optionalText(100),
    kind: z.enum(ORDER_SEARCH_KINDS).optional().catch('auto'),
    /** Keyset cursor: `<order date ms>.<id>` of the last row shown. */
    after: text()
      .regex(/^\d{1,15}\.\d{1,10}$/, 'The page link is not valid.')
      .optional(),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, {
    message: 'The start date must be on or before the end date.',
    path: ['to'],
  })
  // A name is found anywhere in 'first last' by trigram: fewer than 3 letters match too much.
  .refine((v) => !v.q || searchKindOf(v.q, v.kind) !== 'name' || v.q.trim().length >= 3, {
    message: 'Please enter at least 3 letters of the name.',
    path: ['q'],
  })

export type OrderListQuery = z.infer<typeof orderListQuerySchema>

/** What the search text looks like, when the kind is `auto`. */
export function guessSearchKind(q: string): Exclude<OrderSearchKind, 'auto'> {
  const t = q.trim()
  if (/^\d{4,12}$/.test(t)) return 'number'
  if (t.includes('@')) return 'email'
  // A UK postcode, whole or its outward part with the start of the inward (SW1A 1AA, M1 1, EC1A).
  if (/^[A-Za-z]{1,2}\d[A-Za-z\d]?(\s*\d[A-Za-z]{0,2})?$/.test(t)) return 'postcode'
  return 'name'
}

/** The kind a search runs as: the one chosen, or the guess for `auto`. */
export function searchKindOf(q: string, kind: OrderSearchKind | undefined): Exclude<OrderSearchKind, 'auto'> {
  return !kind || kind === 'auto' ? guessSearchKind(q) : kind
}

/** A postcode as the index keeps it: upper case, no spaces. */
export function normalisePostcode(p: string): string {
  return p.replace(/\s+/g, '').toUpperCase()
}
