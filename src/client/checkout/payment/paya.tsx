/**
 * Card payment by Paya Connect (USD): Paya's hosted form in an iframe on Paya's origin. One
 * action completes the order: the form's own submit button. Its postMessage (from that origin
 * only) says the form finished and the page completes the order at once; the server then asks
 * Paya by transaction_api_id. A form that posted (the frame loaded again) without a message is
 * completed the same way after a short wait. There is no second 'Complete Order' to press, so no
 * 'Please enter your card details…' for a buyer who is still typing them.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { joinErrors, requestJson, untilSettled } from '../../lib/json-client.ts'
import type { PaymentMethodEntry, PaymentMethodProps } from './types.ts'

interface HostedForm {
  reference: string
  iframeUrl: string
  expectedOrigin: string
}

/** How long a posted form may take to send its message before the page asks the server itself. */
const MESSAGE_WAIT_MS = 3000

function Paya({ canSubmit, orderBody, submitOrder, reportError }: PaymentMethodProps) {
  const [form, setForm] = useState<HostedForm | null>(null)
  const [busy, setBusy] = useState(false)
  const creating = useRef(false)
  /** The frame's loads for the current form: the second one is the form posting. */
  const loads = useRef(0)
  const finished = useRef<string | null>(null)

  const complete = useCallback(
    async (reference: string) => {
      // One completion per form, whichever of the message and the fallback comes first.
      if (finished.current === reference) return
      finished.current = reference
      setBusy(true)
      try {
        // Still being confirmed with Paya (202): asked again a few times.
        const r = await untilSettled(() => submitOrder({ reference }))
        if (r.placed || !r.data) return
        reportError(joinErrors(r.data))
        // A declined card: a new form (a new attempt) for the next card.
        if (r.data.retry) setForm(null)
        else finished.current = null
      } finally {
        setBusy(false)
      }
    },
    [submitOrder, reportError],
  )

  useEffect(() => {
    if (!canSubmit || form || creating.current) return
    creating.current = true
    void (async () => {
      try {
        const { ok, data } = await requestJson('POST', '/checkout/paya/create-form', await orderBody({}))
        if (!ok || !data) return reportError(joinErrors(data))
        if (data.paid) return void complete(String(data.reference))
        if (typeof data.iframeUrl === 'string') {
          loads.current = 0
          setForm({
            reference: String(data.reference),
            iframeUrl: data.iframeUrl,
            expectedOrigin: String(data.expectedOrigin),
          })
        }
      } finally {
        creating.current = false
      }
    })()
  }, [canSubmit, form, orderBody, reportError, complete])

  useEffect(() => {
    if (!form) return
    const listener = (e: MessageEvent) => {
      if (e.origin !== form.expectedOrigin) return
      let data: unknown = e.data
      try {
        if (typeof data === 'string') data = JSON.parse(data)
      } catch {
        return
      }
      // The form shows its own field errors; only a finished payment moves on.
      if (!data || typeof data !== 'object' || 'errors' in data) return
      void complete(form.reference)
    }
    window.addEventListener('message', listener)
    return () => window.removeEventListener('message', listener)
  }, [form, complete])

  const fallback = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(
    () => () => {
      if (fallback.current) clearTimeout(fallback.current)
    },
    [form],
  )
  const frameLoaded = () => {
    loads.current += 1
    if (loads.current < 2 || !form) return
    // The form posted; if its message does not come, ask the server once the wait is over.
    const reference = form.reference
    if (fallback.current) clearTimeout(fallback.current)
    fallback.current = setTimeout(() => void complete(reference), MESSAGE_WAIT_MS)
  }

  return (
    <div className="mt-3" data-testid="paya">
      {form ? (
        <>
          <p className="text-sm" id="paya-help">
            Enter your card details below and press Submit payment: your order is completed as soon as your
            card is accepted.
          </p>
          <iframe
            key={form.reference}
            src={form.iframeUrl}
            title="Card payment form"
            className="h-80 w-full border-0"
            data-testid="paya-frame"
            aria-describedby="paya-help"
            onLoad={frameLoaded}
          />
        </>
      ) : (
        <p className="text-sm text-gray-700">The card form appears once your details are complete.</p>
      )}
      {busy ? (
        <p role="status" className="mt-2 text-sm" data-testid="paya-completing">
          Completing your order…
        </p>
      ) : null}
    </div>
  )
}

export const payaEntry: PaymentMethodEntry = { Component: Paya, replacesCompleteButton: true }
