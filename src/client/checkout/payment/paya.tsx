/**
 * Card payment by Paya Connect (USD): Paya's hosted form in an iframe on Paya's origin. Its
 * postMessage (from that origin only) says the form finished; the server then asks Paya by
 * transaction_api_id. Complete Order does the same when the message never came.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { primaryButton } from '../../components/cart/Modal.tsx'
import { errorText, postJsonData, sleep } from './shared.ts'
import type { PaymentMethodEntry, PaymentMethodProps } from './types.ts'

interface HostedForm {
  reference: string
  iframeUrl: string
  expectedOrigin: string
}

const PENDING_RETRIES = 5

function Paya({ canSubmit, orderBody, submitOrder, reportError }: PaymentMethodProps) {
  const [form, setForm] = useState<HostedForm | null>(null)
  const [busy, setBusy] = useState(false)
  const creating = useRef(false)

  const complete = useCallback(
    async (reference: string) => {
      setBusy(true)
      try {
        for (let i = 0; ; i++) {
          const r = await submitOrder({ reference })
          if (r.placed || !r.data) return
          if (r.status === 202 && i < PENDING_RETRIES) {
            await sleep(2000 * (i + 1))
            continue
          }
          reportError(errorText(r.data))
          // A declined card: a new form (a new attempt) for the next card.
          if (r.data.retry) setForm(null)
          return
        }
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
        const { ok, data } = await postJsonData('/checkout/paya/create-form', await orderBody({}))
        if (!ok || !data) return reportError(errorText(data))
        if (data.paid) return void complete(String(data.reference))
        if (typeof data.iframeUrl === 'string')
          setForm({
            reference: String(data.reference),
            iframeUrl: data.iframeUrl,
            expectedOrigin: String(data.expectedOrigin),
          })
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

  return (
    <div className="mt-3" data-testid="paya">
      {form ? (
        <iframe
          key={form.reference}
          src={form.iframeUrl}
          title="Card payment form"
          className="h-80 w-full border-0"
          data-testid="paya-frame"
        />
      ) : (
        <p className="text-sm text-gray-700">The card form appears once your details are complete.</p>
      )}
      <button
        type="button"
        className={`${primaryButton} mt-3 w-full`}
        disabled={!canSubmit || !form || busy}
        onClick={() => form && void complete(form.reference)}
        data-testid="complete-order"
      >
        Complete Order
      </button>
    </div>
  )
}

export const payaEntry: PaymentMethodEntry = { Component: Paya, replacesCompleteButton: true }
