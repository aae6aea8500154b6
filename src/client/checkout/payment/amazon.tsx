/**
 * Amazon Pay (Checkout v2) in the payment box (ADR 0073). Two moments:
 *
 * - No Amazon session yet: POST /checkout/amazon/create-amazon-session (merchantId, publicKeyId,
 *   signature, payloadJSON) and render the button (GBP, en_GB, PayAndShip). A script or button
 *   that fails removes Amazon Pay with 'Amazon payment button failed to render'.
 * - Back from Amazon's review (?amazonCheckoutSessionId=…): the buyer's details and payment
 *   descriptor, read-only; the delivery-viewed notice is sent (the delivery options are on this
 *   step); Complete Order sends amazonOrderData and the browser goes to Amazon to pay, then
 *   returns to /checkout/amazon/result, which places the order.
 */
import { useEffect, useRef, useState } from 'react'
import type { PaymentMethodEntry, PaymentMethodProps } from './types.ts'
import {
  callJson,
  errorText,
  ImportedView,
  loadScript,
  WALLET_TEXT,
  type ImportedDetails,
} from './wallet-shared.tsx'

declare global {
  interface Window {
    amazon?: { Pay: { renderButton(selector: string, config: Record<string, unknown>): unknown } }
  }
}

interface AmazonOrderData {
  amazonCheckoutSessionId: string
  paymentDescriptor: string
  hasViewedDeliveryOptions: boolean
}

const BUTTON_ID = 'AmazonPayButton'

function sessionFromUrl(): string | null {
  if (typeof window === 'undefined') return null
  const id = new URLSearchParams(window.location.search).get('amazonCheckoutSessionId')
  return id && /^[A-Za-z0-9-]{8,100}$/.test(id) ? id : null
}

function Amazon(props: PaymentMethodProps) {
  const latest = useRef(props)
  useEffect(() => {
    latest.current = props
  })
  const [sessionId, setSessionId] = useState<string | null>(() => sessionFromUrl())
  const [orderData, setOrderData] = useState<AmazonOrderData | null>(null)
  const [imported, setImported] = useState<ImportedDetails | null>(null)
  const [busy, setBusy] = useState(false)
  const scriptUrl = typeof props.config.scriptUrl === 'string' ? props.config.scriptUrl : ''

  // Back from Amazon: the session's details, then the delivery-viewed notice.
  useEffect(() => {
    if (!sessionId) return
    let cancelled = false
    void (async () => {
      const q = encodeURIComponent(sessionId)
      const info = await callJson(
        'GET',
        `/checkout/amazon/get-session-information?amazonCheckoutSessionId=${q}`,
      )
      if (cancelled) return
      if (!info.ok || !info.data) {
        latest.current.reportError(errorText(info.data))
        setSessionId(null)
        return
      }
      const data = info.data.amazonOrderData as AmazonOrderData
      setImported(info.data as unknown as ImportedDetails)
      setOrderData(data)
      if (!data.hasViewedDeliveryOptions) {
        const seen = await callJson('POST', '/checkout/amazon/delivery-viewed', {
          amazonCheckoutSessionId: sessionId,
        })
        if (!cancelled && seen.ok) setOrderData({ ...data, hasViewedDeliveryOptions: true })
      }
    })()
    return () => {
      cancelled = true
    }
  }, [sessionId])

  // No session: the signed button.
  useEffect(() => {
    if (sessionId) return
    let cancelled = false
    const failed = () => {
      if (cancelled) return
      latest.current.reportError(WALLET_TEXT.amazonRender)
      latest.current.removeMethod()
    }
    void (async () => {
      try {
        const session = await callJson('POST', '/checkout/amazon/create-amazon-session')
        if (cancelled) return
        if (!session.ok || !session.data) {
          latest.current.reportError(errorText(session.data))
          return
        }
        await loadScript(scriptUrl || String(session.data.scriptUrl ?? ''), 10_000)
        if (cancelled) return
        const d = session.data
        const el = document.getElementById(BUTTON_ID)
        if (!window.amazon || !el) return failed()
        el.innerHTML = ''
        window.amazon.Pay.renderButton(`#${BUTTON_ID}`, {
          merchantId: d.merchantId,
          publicKeyId: d.publicKeyId,
          ledgerCurrency: 'GBP',
          checkoutLanguage: 'en_GB',
          productType: 'PayAndShip',
          placement: 'Checkout',
          buttonColor: 'Gold',
          sandbox: d.sandbox,
          estimatedOrderAmount: d.estimatedOrderAmount,
          createCheckoutSessionConfig: {
            payloadJSON: d.payloadJSON,
            signature: d.signature,
            algorithm: d.algorithm,
            publicKeyId: d.publicKeyId,
          },
        })
      } catch {
        failed()
      }
    })()
    return () => {
      cancelled = true
    }
  }, [sessionId, scriptUrl])

  const complete = async () => {
    if (!orderData || !sessionId) return
    setBusy(true)
    const result = await latest.current.submitOrder(
      { amazonOrderData: orderData },
      { amazonCheckoutSessionId: sessionId },
    )
    if (result.placed) return
    const url = result.data?.amazonPayRedirectUrl
    if (result.data?.status === 'amazonRedirect' && typeof url === 'string') {
      // Amazon takes the payment (and any authentication) on its own page, then sends us back.
      window.location.assign(url)
      return
    }
    setBusy(false)
    if (result.status !== 0 || result.data) {
      latest.current.reportError(errorText(result.data))
      latest.current.reopenStep3()
    }
  }

  return (
    <div className="mt-3" data-testid="amazon-payment">
      {orderData && imported ? (
        <>
          <ImportedView title="Your Amazon Pay details" details={imported} />
          <p className="mt-2 text-sm" data-testid="amazon-descriptor">
            Paying with Amazon Pay: {orderData.paymentDescriptor}
          </p>
          <button
            type="button"
            className="mt-3 w-full rounded-md bg-blue-700 px-4 py-2 font-semibold text-white disabled:opacity-50"
            disabled={busy || !props.canSubmit}
            onClick={() => void complete()}
            data-testid="complete-order"
          >
            Complete Order
          </button>
        </>
      ) : (
        <div id={BUTTON_ID} data-testid="amazon-button" />
      )}
    </div>
  )
}

export const amazonEntry: PaymentMethodEntry | null = {
  Component: Amazon,
  replacesCompleteButton: true,
}
