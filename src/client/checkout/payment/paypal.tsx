/**
 * PayPal (Orders v2, JS SDK buttons) in the payment box (ADR 0073). The SDK comes from the
 * server's config (simulator in test mode) with credit and card funding disabled; if it has not
 * loaded after 6 seconds PayPal is removed with 'Loading of PayPal timed out after 6 seconds'.
 *
 * Click → POST checkout/paypal/create-order → PayPal's window → onApprove → GET
 * checkout/paypal/get-order-information (the buyer's details, shown read-only) → the order is
 * posted with orderID. PAYER_ACTION_REQUIRED (the total grew after approval) shows the
 * re-approval button, whose order is created with reApproval; a declined funding source
 * reopens PayPal's window (actions.restart). Any other error reopens step 3.
 */
import { useEffect, useRef, useState } from 'react'
import { publishCart } from '../../lib/cart-api.ts'
import type { Cart } from '../../../shared/cart.ts'
import type { PaymentMethodEntry, PaymentMethodProps } from './types.ts'
import {
  callJson,
  errorText,
  ImportedView,
  loadScript,
  ScriptLoadError,
  WALLET_TEXT,
  type ImportedDetails,
} from './wallet-shared.tsx'

interface PaypalActions {
  restart?: () => void
  resolve?: () => unknown
  reject?: () => unknown
}
interface PaypalButtons {
  render(target: HTMLElement): Promise<void>
  close?(): Promise<void>
}
declare global {
  interface Window {
    paypal?: { Buttons(options: Record<string, unknown>): PaypalButtons }
  }
}

function Paypal(props: PaymentMethodProps) {
  const latest = useRef(props)
  useEffect(() => {
    latest.current = props
  })
  const container = useRef<HTMLDivElement>(null)
  const [reApproval, setReApproval] = useState(false)
  // Which button (first approval or re-approval) has rendered.
  const [renderedFor, setRenderedFor] = useState<boolean | null>(null)
  const ready = renderedFor === reApproval
  const [imported, setImported] = useState<ImportedDetails | null>(null)
  const sdkUrl = typeof props.config.sdkUrl === 'string' ? props.config.sdkUrl : ''
  const timeoutMs = typeof props.config.loadTimeoutMs === 'number' ? props.config.loadTimeoutMs : 6000

  useEffect(() => {
    let cancelled = false
    let buttons: PaypalButtons | null = null
    const p = () => latest.current
    const fail = (message: string) => {
      p().reportError(message)
      p().reopenStep3()
    }
    ;(sdkUrl ? loadScript(sdkUrl, timeoutMs) : Promise.reject(new ScriptLoadError('error')))
      .then(async () => {
        if (cancelled || !container.current || !window.paypal) {
          if (!cancelled && !window.paypal) p().removeMethod()
          return
        }
        container.current.innerHTML = ''
        buttons = window.paypal.Buttons({
          style: { layout: 'vertical', label: 'paypal' },
          onClick: (_data: unknown, actions: PaypalActions) => {
            if (p().canSubmit) return actions.resolve?.() ?? true
            p().reportError('Required address field is empty or invalid.')
            return actions.reject?.() ?? false
          },
          createOrder: async () => {
            const res = await callJson('POST', '/checkout/paypal/create-order', { reApproval })
            const id = (res.data?.result as { id?: unknown } | undefined)?.id
            if (!res.ok || typeof id !== 'string') throw new Error(errorText(res.data))
            return id
          },
          onShippingOptionsChange: async (
            data: { orderID: string; selectedShippingOption?: { id: string } },
            actions: PaypalActions,
          ) => {
            const res = await callJson('POST', '/checkout/paypal/update-shipping-options', { data })
            if (!res.ok) {
              p().reportError(WALLET_TEXT.paypalShipping)
              return actions.reject?.()
            }
            publishCart(res.data?.cart as Cart, { basket: true })
          },
          onApprove: async (data: { orderID: string }, actions: PaypalActions) => {
            const info = await callJson(
              'GET',
              `/checkout/paypal/get-order-information?paypalOrderId=${encodeURIComponent(data.orderID)}`,
            )
            if (!info.ok || !info.data) return fail(WALLET_TEXT.paypalAddress)
            setImported(info.data as unknown as ImportedDetails)
            const details = { orderID: data.orderID, reApprovalRequired: reApproval }
            const result = await p().submitOrder(details, {
              orderID: data.orderID,
              paypalReApproval: reApproval,
            })
            if (result.placed || result.status === 0) return
            const status = result.data?.status
            if (status === 'paypalRestart' && actions.restart) {
              p().reportError(errorText(result.data))
              return actions.restart()
            }
            if (status === 'paypalReApprovalRequired') {
              setReApproval(true)
              return fail(errorText(result.data))
            }
            fail(errorText(result.data))
          },
          onError: () => fail(WALLET_TEXT.paypalOpen),
        })
        await buttons.render(container.current)
        if (!cancelled) setRenderedFor(reApproval)
      })
      .catch((err: unknown) => {
        if (cancelled) return
        // The time-out says so (§8) and removes PayPal; a script that failed just removes it.
        if (err instanceof ScriptLoadError && err.kind === 'timeout')
          p().reportError(WALLET_TEXT.paypalTimeout)
        p().removeMethod()
      })
    return () => {
      cancelled = true
      void buttons?.close?.()
    }
  }, [sdkUrl, timeoutMs, reApproval])

  return (
    <div className="mt-3" data-testid="paypal-payment">
      {reApproval ? (
        <p className="mb-2 text-sm font-semibold" id="paypal-reapproval-label">
          PayPal re-approval: please approve the new total of your order.
        </p>
      ) : null}
      {!ready ? (
        <p className="text-sm text-gray-600" role="status">
          Loading PayPal…
        </p>
      ) : null}
      <div
        ref={container}
        data-testid={reApproval ? 'paypal-reapproval-button' : 'paypal-button'}
        aria-labelledby={reApproval ? 'paypal-reapproval-label' : undefined}
      />
      {imported ? <ImportedView title="Your PayPal details" details={imported} /> : null}
    </div>
  )
}

export const paypalEntry: PaymentMethodEntry | null = {
  Component: Paypal,
  replacesCompleteButton: true,
}
