/**
 * One action form of the order page: its values, the shared zod rules on submit, and the post
 * to the order's own address with the intent, the version the page shows (the server's optimistic
 * check) and the form's submission key (a second submit of the same form does nothing twice).
 * After the answer, the focus moves to the page's result message.
 */
import { useForm, usePage } from '@inertiajs/react'
import { useState, type FormEvent } from 'react'
import type { z } from 'zod'
import { fieldErrors } from '../../../shared/auth.ts'
import { adminProps, csrfHeaders } from '../admin-props.ts'
import type { OrderPageProps } from './types.ts'

export const RESULT_ID = 'order-result'
/** The refund quote to confirm: the focus goes there when a quote comes back. */
export const QUOTE_ID = 'refund-quote'

const newKey = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`

/** Moves the focus to the quote a quote asked for, else to the result message, once the new page is drawn. */
function focusResult(sent: string) {
  requestAnimationFrame(() =>
    ((sent === 'quote' && document.getElementById(QUOTE_ID)) || document.getElementById(RESULT_ID))?.focus(),
  )
}

type Values = Record<string, unknown>

export function useOrderAction<T extends Values>(intent: string, schema: z.ZodType | null, initial: T) {
  const page = usePage()
  const props = page.props as unknown as OrderPageProps & Record<string, unknown>
  const { admin } = adminProps(page.props)
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Inertia's FormDataType is stricter than a record
  const form = useForm<any>(initial) as ReturnType<typeof useForm<any>> & { data: T }
  const [submission, setSubmission] = useState(newKey)
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({})
  const serverErrors =
    props.action === intent || (intent === 'quote' && props.action === 'refund') ? props.errors : {}
  const url = `/admin/orders/${props.order.number}`

  const send = (sent: string, data: Values, onDone?: () => void) => {
    form.transform(() => ({ ...data, intent: sent, version: props.order.version, submission }))
    form.post(url, {
      headers: csrfHeaders(admin),
      preserveScroll: true,
      preserveState: true,
      onSuccess: (p) => {
        const next = p.props as unknown as OrderPageProps
        if (next.notice && sent !== 'quote') {
          form.reset()
          setSubmission(newKey())
          onDone?.()
        }
      },
      onFinish: () => focusResult(sent),
    })
  }

  return {
    data: form.data,
    processing: form.processing,
    set: (name: keyof T & string, value: unknown) => form.setData(name as never, value as never),
    errorFor: (name: string): string | undefined => clientErrors[name] ?? serverErrors[name],
    submit:
      (sent: string = intent, onDone?: () => void) =>
      (event?: FormEvent) => {
        event?.preventDefault()
        const errors = schema ? fieldErrors(schema, form.data) : {}
        const flat: Record<string, string> = {}
        for (const [k, v] of Object.entries(errors)) flat[k.split('.')[0]!] ??= v
        setClientErrors(flat)
        if (Object.keys(flat).length > 0) {
          requestAnimationFrame(() =>
            document.querySelector<HTMLElement>(`[data-action="${intent}"] [aria-invalid="true"]`)?.focus(),
          )
          return
        }
        send(sent, form.data, onDone)
      },
    /** Posts these values as they are (the refund's confirmation sends exactly what was quoted). */
    sendAs: (sent: string, data: Values) => send(sent, data),
  }
}
