/**
 * PayPal (Orders v2, JS SDK buttons) on step 2 of the checkout (ADR 0073, spec §4). The SDK comes
 * from the server's config (simulator in test mode) with credit and card funding disabled; if it
 * has not loaded after 6 seconds PayPal is removed with 'Loading of PayPal timed out after 6
 * seconds'.
 *
 * Click → POST checkout/paypal/create-order → PayPal's window → onApprove → GET
 * checkout/paypal/get-order-information: the order id and the buyer's details go to the page,
 * which imports them read-only and lets step 2 pass. Complete Order on step 3 posts the order with
 * orderID. When the total grew after approval the page comes back here with re-approval set: the
 * re-approval button's order is created with reApproval.
 */
import { useEffect, useRef, useState } from 'react'
import { publishCart } from '../../lib/cart-api.ts'
import { joinErrors, requestJson } from '../../lib/json-client.ts'
import type { Cart } from '../../../shared/cart.ts'
import type { PaymentMethodEntry, PaymentMethodProps } from './types.ts'
import { loadScript, ScriptLoadError } from './load-script.ts'
import { WALLET_TEXT, type ImportedDetails } from './wallet-shared.tsx'

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
  const reApproval = props.walletReApproval === true
  // Which button (first approval or re-approval) has rendered.
  const [renderedFor, setRenderedFor] = useState<boolean | null>(null)
  const ready = renderedFor === reApproval
  const sdkUrl = typeof props.config.sdkUrl === 'string' ? props.config.sdkUrl : ''
  const timeoutMs = typeof props.config.loadTimeoutMs === 'number' ? props.config.loadTimeoutMs : 6000

  useEffect(() => {
    let cancelled = false
    let buttons: PaypalButtons | null = null
    const p = () => latest.current
    const fail = (message: string) => p().reportError(message)
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
            if (!p().loading) return actions.resolve?.() ?? true
            return actions.reject?.() ?? false
          },
          createOrder: async () => {
            const res = await requestJson('POST', '/checkout/paypal/create-order', { reApproval })
            const id = (res.data?.result as { id?: unknown } | undefined)?.id
            if (!res.ok || typeof id !== 'string') throw new Error(joinErrors(res.data))
            return id
          },
          onShippingOptionsChange: async (
            data: { orderID: string; selectedShippingOption?: { id: string } },
            actions: PaypalActions,
          ) => {
            const res = await requestJson('POST', '/checkout/paypal/update-shipping-options', { data })
            if (!res.ok) {
              p().reportError(WALLET_TEXT.paypalShipping)
              return actions.reject?.()
            }
            publishCart(res.data?.cart as Cart, { basket: true })
          },
          onApprove: async (data: { orderID: string }) => {
            const info = await requestJson(
              'GET',
              `/checkout/paypal/get-order-information?paypalOrderId=${encodeURIComponent(data.orderID)}`,
            )
            if (!info.ok || !info.data) return fail(WALLET_TEXT.paypalAddress)
            const d = info.data as unknown as ImportedDetails & { delivery_option?: number | null }
            p().walletApproved?.({
              paymentDetails: { orderID: data.orderID, reApprovalRequired: reApproval },
              extra: { orderID: data.orderID, paypalReApproval: reApproval },
              contact: d.contact,
              shippingAddress: d.shipping_address,
              deliveryOption: typeof d.delivery_option === 'number' ? d.delivery_option : null,
            })
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
      {props.walletOrder ? (
        <p className="mt-2 text-sm" role="status" data-testid="paypal-approved">
          PayPal has approved your payment: your details from PayPal are below. Continue to choose your
          delivery and complete your order.
        </p>
      ) : null}
    </div>
  )
}

export const paypalEntry: PaymentMethodEntry | null = {
  Component: Paypal,
  replacesCompleteButton: false,
  wallet: true,
}
