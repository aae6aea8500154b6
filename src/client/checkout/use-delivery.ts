/**
 * Delivery at checkout: the options follow the shipping country and postcode (§7
 * /checkout/update-delivery; PayPal and Amazon send both as null, their address being the
 * provider's), and choosing one goes through the basket (/cart/update-cart). `loading` is true
 * while either call is under way.
 */
import { useEffect, useRef, useState } from 'react'
import type { Cart } from '../../shared/cart.ts'
import { CHECKOUT_TEXT } from '../../shared/checkout.ts'
import { cartCall, CartApiError, publishCart } from '../lib/cart-api.ts'
import { joinErrors, requestJson } from '../lib/json-client.ts'
import { useMessages } from '../lib/messages.tsx'
import type { Values } from './fields.tsx'

export function useDelivery({
  shipping,
  isWallet,
  provider,
  countries,
  onCountryRefused,
}: {
  shipping: Values
  isWallet: boolean
  provider: string
  countries: { code: string; name: string }[]
  /** A country the site does not deliver to: the message goes under the Country field too. */
  onCountryRefused: (message: string) => void
}) {
  const { pushError } = useMessages()
  const [loading, setLoading] = useState(false)
  const deliveryKey = isWallet ? `wallet|${provider}` : `${shipping.country}|${shipping.postcode}|${provider}`
  const lastDelivery = useRef('')
  useEffect(() => {
    const country = shipping.country ?? ''
    if (!isWallet && (!country || !countries.some((c) => c.code === country))) return
    if (lastDelivery.current === deliveryKey) return
    lastDelivery.current = deliveryKey
    setLoading(true)
    void requestJson('POST', '/checkout/update-delivery', {
      countryCode: isWallet ? null : country,
      regionCode: isWallet ? null : shipping.postcode || null,
    })
      .then(({ ok, data }) => {
        if (ok && data?.cart) return publishCart(data.cart as Cart, { basket: true })
        pushError(`${CHECKOUT_TEXT.shippingRateError} ${joinErrors(data)}`)
        const refused = (data?.errors as Record<string, string[]> | undefined)?.countryCode?.[0]
        if (refused) onCountryRefused(refused)
      })
      .finally(() => setLoading(false))
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [deliveryKey])

  const setDelivery = async (despatchType: string) => {
    setLoading(true)
    try {
      publishCart(await cartCall('POST', '/cart/update-cart', { despatch_type: despatchType }), {
        basket: true,
      })
    } catch (err) {
      pushError(`${CHECKOUT_TEXT.shippingRateError} ${err instanceof CartApiError ? err.message : ''}`.trim())
    } finally {
      setLoading(false)
    }
  }

  return { loading, setDelivery }
}
