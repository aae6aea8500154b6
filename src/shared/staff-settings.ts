/**
 * The back office's content, search, token and webhook forms (issue 34): zod rules the pages check
 * on blur and on submit, and the server on every request. The server then applies the same
 * service rules as the integration API (a redirect's URL, a webhook URL the shop may call).
 */
import { z } from 'zod'
import { text } from './text.ts'

const required = 'Please fill in this field.'
const tooLong = (max: number) => `Please use at most ${max} characters.`

const field = (max: number) => text({ error: required }).trim().min(1, required).max(max, tooLong(max))

export const redirectFormSchema = z.object({
  query: field(200),
  url: field(2000).regex(
    /^\/(?!\/)\S*$|^https?:\/\/\S+$/,
    'Please enter a path (/fire-signs) or an http(s) address.',
  ),
})

export const tokenFormSchema = z.object({ name: field(100) })

/** The webhook event types a person may choose (the server's list, ADR 0230). */
export const WEBHOOK_EVENT_TYPES = [
  'order.placed',
  'order.updated',
  'order.held',
  'order.released',
  'order.shipped',
  'order.cancelled',
  'order.refunded',
  'payment.needs_attention',
] as const

/** A form sends one checkbox value as a string and several as a list. */
const eventTypes = z.preprocess(
  (v) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : [v]),
  z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { error: 'Please choose from the listed events.' }))
    .min(1, 'Please choose at least one event.'),
)

export const webhookFormSchema = z.object({
  url: field(2000).regex(/^https?:\/\/\S+$/, 'Please enter an http(s) address.'),
  description: text()
    .trim()
    .max(200, tooLong(200))
    .optional()
    .transform((v) => v ?? ''),
  eventTypes,
})

export const webhookEventsSchema = z.object({ eventTypes })
