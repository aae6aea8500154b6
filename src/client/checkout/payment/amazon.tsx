/**
 * Amazon Pay (Checkout v2) on step 2 of the checkout (ADR 0073, spec §4). Two moments:
 *
 * - No Amazon session yet: POST /checkout/amazon/create-amazon-session (merchantId, publicKeyId,
 *   signature, payloadJSON) and render the button (GBP, en_GB, PayAndShip). A script or button
 *   that fails removes Amazon Pay with 'Amazon payment button failed to render'.
 * - Back from Amazon's review (?amazonCheckoutSessionId=…): the buyer's details and payment
 *   descriptor go to the page (imported read-only; step 2 may pass); if the delivery options
 *   were not viewed yet the server is told they now have been. Complete Order on step 3 sends
 *   amazonOrderData; the browser goes to Amazon to pay, then returns to /checkout/amazon/result,
 *   which places the order.
 */
import { useEffect, useRef, useState } from 'react'
import type { PaymentMethodEntry, PaymentMethodProps } from './types.ts'
import { joinErrors, requestJson } from '../../lib/json-client.ts'
import { loadScript } from './load-script.ts'
import { WALLET_TEXT, type ImportedDetails } from './wallet-shared.tsx'

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
  const known = props.walletOrder ?? null
  const scriptUrl = typeof props.config.scriptUrl === 'string' ? props.config.scriptUrl : ''

  // Back from Amazon: the session's details, then the delivery-viewed notice.
  useEffect(() => {
    if (!sessionId || latest.current.walletOrder) return
    let cancelled = false
    void (async () => {
      const q = encodeURIComponent(sessionId)
      const info = await requestJson(
        'GET',
        `/checkout/amazon/get-session-information?amazonCheckoutSessionId=${q}`,
      )
      if (cancelled) return
      if (!info.ok || !info.data) {
        latest.current.reportError(joinErrors(info.data))
        setSessionId(null)
        return
      }
      const data = info.data.amazonOrderData as AmazonOrderData
      const d = info.data as unknown as ImportedDetails
      const viewed = data.hasViewedDeliveryOptions
      if (!viewed) {
        // §4: the server is told the delivery options have been viewed (they are on step 3).
        await requestJson('POST', '/checkout/amazon/delivery-viewed', { amazonCheckoutSessionId: sessionId })
        if (cancelled) return
      }
      latest.current.walletApproved?.({
        paymentDetails: { amazonOrderData: { ...data, hasViewedDeliveryOptions: true } },
        extra: { amazonCheckoutSessionId: sessionId },
        contact: d.contact,
        shippingAddress: d.shipping_address,
        deliveryViewed: viewed,
        descriptor: data.paymentDescriptor,
      })
    })()
    return () => {
      cancelled = true
    }
  }, [sessionId])

  // No session: the signed button.
  useEffect(() => {
    if (sessionId || latest.current.walletOrder) return
    let cancelled = false
    const failed = () => {
      if (cancelled) return
      latest.current.reportError(WALLET_TEXT.amazonRender)
      latest.current.removeMethod()
    }
    void (async () => {
      try {
        const session = await requestJson('POST', '/checkout/amazon/create-amazon-session', {})
        if (cancelled) return
        if (!session.ok || !session.data) {
          latest.current.reportError(joinErrors(session.data))
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

  return (
    <div className="mt-3" data-testid="amazon-payment">
      {known ? (
        <p className="mt-2 text-sm" role="status" data-testid="amazon-descriptor">
          Paying with Amazon Pay: {known.descriptor}
        </p>
      ) : sessionId ? (
        <p className="text-sm text-gray-600" role="status">
          Getting your details from Amazon Pay…
        </p>
      ) : (
        <div id={BUTTON_ID} data-testid="amazon-button" />
      )}
    </div>
  )
}

export const amazonEntry: PaymentMethodEntry | null = {
  Component: Amazon,
  replacesCompleteButton: false,
  wallet: true,
}
