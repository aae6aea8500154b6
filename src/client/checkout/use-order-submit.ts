/**
 * Placing the order (§4 Submit, §7 /checkout/complete): the order form built from the page,
 * posted behind the blocking processing dialog. Success moves to Order Complete (and remembers
 * that this basket's order was placed, for Back); a moved total (409) shows the fresh basket with
 * a warning on step 3; an emptied basket goes to the basket; field errors go under their fields
 * (the first is focused); anything else goes back to the payment method or the red box.
 */
import { router } from '@inertiajs/react'
import { useCallback, useState } from 'react'
import type { Cart, ShippingRate } from '../../shared/cart.ts'
import { CHECKOUT, CHECKOUT_TEXT, type CheckoutPageProps } from '../../shared/checkout.ts'
import type { CustomerData } from '../../shared/customer.ts'
import { botToken } from '../components/auth/bot-check.ts'
import { publishCart } from '../lib/cart-api.ts'
import { joinErrors, redirectOf, requestJson } from '../lib/json-client.ts'
import { useMessages } from '../lib/messages.tsx'
import { fieldOfError } from './checkout-data.ts'
import { rememberPlaced } from './placed-order.ts'
import type { SubmitResult, WalletOrder } from './payment/index.ts'
import type { PaymentForm } from './payment/types.ts'
import type { CheckoutForm } from './use-checkout-form.ts'

export function useOrderSubmit({
  props,
  form,
  provider,
  isWallet,
  customer,
  wallet,
  selectedRate,
  showVat,
  onFieldErrors,
  onShowStep,
  onInvalid,
  onWalletReset,
}: {
  props: CheckoutPageProps
  form: CheckoutForm
  provider: string
  isWallet: boolean
  customer: CustomerData | null
  wallet: WalletOrder | null
  selectedRate: ShippingRate | null
  showVat: boolean
  /** Puts the errors under their fields; false when none of them is a field of the form. */
  onFieldErrors: (errors: Record<string, string[] | string>) => boolean
  onShowStep: (step: number) => void
  /** The form is invalid: step 2 with every message, the first invalid field focused. */
  onInvalid: () => void
  /** PayPal must approve again (re-approval when the total grew). */
  onWalletReset: (reApproval: boolean) => void
}) {
  const { basket, botCheck } = props
  const { pushError, pushWarning } = useMessages()
  const [submitting, setSubmitting] = useState(false)
  // What the chosen method's component says the order's paymentDetails are (payment seam).
  const [detailsBy, setDetailsBy] = useState<Record<string, Record<string, unknown>>>({})
  const paymentDetails = detailsBy[provider] ?? {}
  const setPaymentDetails = useCallback(
    (details: Record<string, unknown>) => setDetailsBy((d) => ({ ...d, [provider]: details })),
    [provider],
  )
  const { contact, shipping, billing, showingBilling, saved, notes, vatNumber } = form
  const paymentForm: PaymentForm = {
    contact,
    shippingAddress: shipping,
    billingAddress: showingBilling ? billing : shipping,
    showingBillingAddress: showingBilling,
  }

  const orderBody = async (details: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const token = botCheck ? await botToken(botCheck) : undefined
    return {
      cart_id: basket.id,
      payment_method: provider,
      // Stored customer data is not used for PayPal and Amazon (§6): their details are the provider's.
      customer_contact_id: customer && !isWallet ? saved.contact : null,
      customer_shipping_address_id: customer && !isWallet ? saved.shipping : null,
      customer_billing_address_id: customer && !isWallet && showingBilling ? saved.billing : null,
      contact,
      shipping_address: shipping,
      billing_address: showingBilling ? billing : shipping,
      showingBillingAddress: showingBilling,
      transactions: [
        {
          amount: basket.cart_total_price_inc_tax,
          paymentDetails: details,
          paymentProvider: provider,
          message: '',
          authCode: 'empty',
        },
      ],
      delivery_option: selectedRate?.id,
      Notes: notes,
      PONumber: typeof details.PONumber === 'string' ? details.PONumber : null,
      VATNumber: showVat ? vatNumber : null,
      challengeWindowSize: window.innerWidth > CHECKOUT.challengeWindowBreakpoint ? 'Medium' : 'Small',
      // §6: an account is created on order for a guest, whose browser then forgets the customer.
      force_logout: customer === null,
      ...(token ? { 'g-recaptcha-response': token } : {}),
      ...extra,
    }
  }

  /** Posts the order; answers what the page did not handle itself (payment seam). */
  const submitOrder = async (
    details: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ): Promise<SubmitResult> => {
    if (!form.formValid) {
      onInvalid()
      return { placed: false, status: 0, data: null }
    }
    setSubmitting(true)
    try {
      const { ok, status, data } = await requestJson(
        'POST',
        '/checkout/complete',
        await orderBody(details, extra),
      )
      const redirect = redirectOf(data)
      if (ok && redirect) {
        if (data?.force_logout) sessionStorage.removeItem('customer')
        const number = (data?.order as { OrderNumber?: unknown } | undefined)?.OrderNumber
        if (basket.id)
          rememberPlaced({
            cartId: basket.id,
            url: redirect,
            ...(typeof number === 'number' ? { orderNumber: number } : {}),
          })
        router.visit(redirect)
        return { placed: true, status, data }
      }
      setSubmitting(false)
      if (status === 409 && data?.cart) {
        publishCart(data.cart as Cart, { basket: true })
        pushWarning(String(data.warning ?? CHECKOUT_TEXT.totalChanged))
        onShowStep(3)
        return { placed: false, status, data: null }
      }
      if (status === 422 && redirect === '/cart') {
        router.visit('/cart')
        return { placed: false, status, data: null }
      }
      const errors = (data?.errors ?? {}) as Record<string, string[] | string>
      if (status === 422 && onFieldErrors(errors)) {
        // Errors that are not a field of the form still go to the red box.
        const rest = Object.fromEntries(Object.entries(errors).filter(([k]) => !fieldOfError(k)))
        if (Object.keys(rest).length) pushError(joinErrors({ errors: rest }))
        return { placed: false, status, data: null }
      }
      return { placed: false, status, data }
    } catch {
      setSubmitting(false)
      return { placed: false, status: 0, data: { message: CHECKOUT_TEXT.somethingWrong } }
    }
  }

  /** Complete Order with PayPal or Amazon Pay: the provider's order, placed by the server. */
  const submitWallet = async () => {
    if (!wallet) return onShowStep(2)
    const result = await submitOrder(wallet.paymentDetails, wallet.extra)
    if (result.placed || !result.data) return
    const status = result.data.status
    const url = result.data.amazonPayRedirectUrl
    if (provider === 'amazon' && status === 'amazonRedirect' && typeof url === 'string') {
      // Amazon takes the payment (and any authentication) on its own page, then sends us back.
      setSubmitting(true)
      window.location.assign(url)
      return
    }
    pushError(joinErrors(result.data))
    if (provider === 'paypal' && (status === 'paypalReApprovalRequired' || status === 'paypalRestart')) {
      // PayPal re-approval (§4): the total grew, or the funding source was declined: approve again.
      onWalletReset(status === 'paypalReApprovalRequired')
      onShowStep(2)
      return
    }
    // Other errors reopen step 3 for PayPal (§4).
    if (provider === 'paypal') onShowStep(3)
  }

  const submit = async () => {
    if (isWallet) return submitWallet()
    const result = await submitOrder(paymentDetails)
    if (!result.placed && result.data) pushError(joinErrors(result.data))
  }

  return { submitting, submit, submitOrder, orderBody, setPaymentDetails, paymentForm }
}
