/**
 * The back office's customers and payments-needing-attention pages: their query strings and
 * actions, checked by the pages and by the server on every request (issue 34).
 */
import { z } from 'zod'
import { AUTH_MESSAGES } from './auth-text.ts'
import { text } from './text.ts'

export const CUSTOMER_SEARCH_KINDS = ['auto', 'email', 'name', 'company', 'postcode'] as const
export type CustomerSearchKind = (typeof CUSTOMER_SEARCH_KINDS)[number]

const optionalText = (max: number) =>
  text()
    .trim()
    .max(max, AUTH_MESSAGES.tooLong(max))
    .optional()
    .transform((v) => (v ? v : undefined))

/** What a search looks like when its kind is `auto`: an e-mail, a postcode, else a name or company. */
export function searchKindOfCustomer(
  q: string,
  kind: CustomerSearchKind | undefined,
): Exclude<CustomerSearchKind, 'auto'> | 'name_or_company' {
  if (kind && kind !== 'auto') return kind
  const t = q.trim()
  if (t.includes('@')) return 'email'
  // A UK postcode, whole or its start (SW1A 1AA, BS1 4, EC1A), or a US ZIP code.
  if (/^[A-Za-z]{1,2}\d[A-Za-z\d]?(\s*\d[A-Za-z]{0,2})?$/.test(t) || /^\d{5}$/.test(t)) return 'postcode'
  return 'name_or_company'
}

export const customerListQuerySchema = z
  .object({
    site: z.coerce.number().int().positive().optional().catch(undefined),
    q: optionalText(100),
    kind: z.enum(CUSTOMER_SEARCH_KINDS).optional().catch('auto'),
    /** Keyset cursor: the id of the last customer shown. */
    after: text()
      .regex(/^\d{1,10}$/, 'The page link is not valid.')
      .transform(Number)
      .optional(),
  })
  // A name or company is found anywhere in it: a single letter matches nearly everyone.
  .refine(
    (v) => {
      if (!v.q) return true
      const kind = searchKindOfCustomer(v.q, v.kind)
      return !['name', 'company', 'name_or_company'].includes(kind) || v.q.trim().length >= 2
    },
    { message: 'Please enter at least 2 letters of the name or company.', path: ['q'] },
  )

export type CustomerListQuery = z.infer<typeof customerListQuerySchema>

export const CUSTOMER_ACTIONS = ['reset_two_factor', 'disable', 'enable'] as const

export const customerActionSchema = z.object({
  intent: z.enum(CUSTOMER_ACTIONS, { error: 'Please choose an action.' }),
})

export const ATTENTION_ACTIONS = ['resolve', 'give_back', 'place', 'reconcile', 'refund_status'] as const

export const attentionActionSchema = z.object({
  intent: z.enum(ATTENTION_ACTIONS, { error: 'Please choose an action.' }),
  id: text({ error: 'A payment or refund reference is required.' }).regex(
    /^[0-9a-f-]{36}$/,
    'That is not a payment or refund reference.',
  ),
})

/** The payments page's cursors, one per list. */
const cursor = text()
  .regex(/^\d{1,15}\.[0-9a-f-]{36}$/, 'The page link is not valid.')
  .optional()

export const attentionQuerySchema = z.object({
  paid: cursor,
  unknown: cursor,
  refunds: cursor,
})
