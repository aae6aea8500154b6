/**
 * The back office's order actions (issue 34): one zod schema per form, used by the order page
 * (on blur and on submit) and by the server (on every request). Quantities and amounts arrive as
 * typed text; amounts become integer minor units (pence, cents) here and nowhere else.
 */
import { z } from 'zod'
import { AUTH_MESSAGES } from './auth-text.ts'
import { text } from './text.ts'

export const ORDER_ACTION_INTENTS = [
  'hold',
  'release',
  'ship',
  'cancel',
  'quote',
  'refund',
  'resend',
  'invoice',
  'note',
] as const

const required = (label: string, max: number) =>
  text({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, AUTH_MESSAGES.tooLong(max))

/** Money as typed ("12.50", "12"): integer minor units, or a message. */
export function parseMoney(value: string): number | null {
  const m = /^\s*(\d{1,9})(?:\.(\d{1,2}))?\s*$/.exec(value)
  if (!m) return null
  return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'))
}

const moneyField = text({ error: 'Please enter an amount.' }).refine(
  (v) => (parseMoney(v) ?? 0) > 0,
  'Please enter an amount such as 12.50 (more than zero).',
)

/** Line quantities by line id as typed; blank or 0 means none of that line. */
const lineQuantities = z
  .record(
    z.string().regex(/^\d{1,12}$/),
    text().regex(/^\s*\d{0,6}\s*$/, 'Please enter a whole number of items.'),
  )
  .optional()

/** The lines with a quantity above zero, for the lifecycle. */
export function chosenLines(lines: Record<string, string> | undefined) {
  return Object.entries(lines ?? {})
    .map(([id, q]) => ({ lineId: Number(id), quantity: Number(q.trim() || '0') }))
    .filter((l) => l.quantity > 0)
}

export const holdSchema = z.object({ reason: required('The reason', 500) })
export const cancelSchema = z.object({ reason: required('The reason', 500) })
export const noteSchema = z.object({ note: required('The note', 2000) })

export const shipSchema = z
  .object({
    carrier: required('The carrier', 100),
    trackingNumber: required('The tracking number', 100),
    trackingUrl: text()
      .trim()
      .max(2000, AUTH_MESSAGES.tooLong(2000))
      .refine((v) => v === '' || /^https:\/\/\S+$/.test(v), 'A tracking link must start with https://.')
      .optional(),
    scope: z.enum(['all', 'lines'], { error: 'Please choose what this parcel holds.' }),
    lines: lineQuantities,
  })
  .refine((v) => v.scope === 'all' || chosenLines(v.lines).length > 0, {
    message: 'Enter how many of at least one line this parcel holds.',
    path: ['lines'],
  })

export const refundSchema = z
  .object({
    reason: required('The reason', 500),
    scope: z.enum(['all', 'lines', 'amount'], { error: 'Please choose what to refund.' }),
    amount: text().optional(),
    lines: lineQuantities,
  })
  .superRefine((v, ctx) => {
    if (v.scope === 'amount' && !((parseMoney(v.amount ?? '') ?? 0) > 0))
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: 'Please enter an amount such as 12.50 (more than zero).',
      })
    if (v.scope === 'lines' && chosenLines(v.lines).length === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['lines'],
        message: 'Enter how many of at least one line to refund.',
      })
  })

export const invoiceSchema = z.object({
  invoiceNumber: text()
    .trim()
    .regex(/^\d{0,15}$/, 'An invoice number is digits only (or leave it blank for the next number).')
    .optional(),
  invoiceDate: text({ error: 'Please enter the invoice date.' }).regex(
    /^\d{4}-\d{2}-\d{2}$/,
    'Please enter a date as YYYY-MM-DD.',
  ),
  amount: moneyField,
  pdfBase64: text().max(7_000_000, 'The PDF must be at most 5 MB.').optional(),
})
