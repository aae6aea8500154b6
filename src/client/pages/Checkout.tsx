/**
 * The three-step checkout (spec §2 "Checkout (3 steps)", §4 "Checkout steps", §5): payment
 * method, then login or guest and the contact and addresses, then delivery, notes, the order
 * summary and the payment box with Complete Order. The step rules are the pure transition of
 * shared/checkout-steps.ts (driven by useReducer here); each step is its own component in
 * client/checkout/. After every change of step the focus goes to the new step's heading. The
 * server re-prices on submit; a moved total answers 409 with the fresh basket and a warning.
 */
import { Head, router } from '@inertiajs/react'
import { useCallback, useEffect, useReducer, useState } from 'react'
import { CHECKOUT, CHECKOUT_TEXT, type CheckoutPageProps } from '../../shared/checkout.ts'
import { vatNumberApplies } from '../../shared/checkout-rules.ts'
import {
  canOpen,
  continueEnabled,
  INITIAL_STEPS,
  stepsReducer,
  type StepContext,
  type StepEvent,
} from '../../shared/checkout-steps.ts'
import type { CustomerData } from '../../shared/customer.ts'
import { formatMoney } from '../../shared/money.ts'
import { CheckoutAside } from '../checkout/CheckoutAside.tsx'
import { CheckoutStep, ContinueNav } from '../checkout/CheckoutStep.tsx'
import { mapServerErrors, pushStep, readCookie, REQUIRED_NOTE } from '../checkout/checkout-data.ts'
import { placedOrder, type PlacedOrder } from '../checkout/placed-order.ts'
import { DeliveryStep } from '../checkout/DeliveryStep.tsx'
import { DetailsStep } from '../checkout/DetailsStep.tsx'
import { focusClear, useHeaderScrollPadding, useStepFocus } from '../checkout/focus.ts'
import { LoginDialog } from '../checkout/LoginDialog.tsx'
import { PaymentMethodStep } from '../checkout/PaymentMethodStep.tsx'
import { PAYMENT_COMPONENTS, type WalletOrder } from '../checkout/payment/index.ts'
import { PlacedNotice } from '../checkout/PlacedNotice.tsx'
import { ProcessingDialog } from '../checkout/ProcessingDialog.tsx'
import { SavedDialogs, type CheckoutModal, type Section } from '../checkout/SavedDialogs.tsx'
import { useCheckoutForm } from '../checkout/use-checkout-form.ts'
import { useDelivery } from '../checkout/use-delivery.ts'
import { useOrderSubmit } from '../checkout/use-order-submit.ts'
import { useMessages } from '../lib/messages.tsx'
import { requestJson } from '../lib/json-client.ts'
import { useShared } from '../lib/shared-props.ts'

export { fieldOfError } from '../checkout/checkout-data.ts'

const COOKIE = 'payment_method'
const NO_STATUS: Record<Section, string> = { contact: '', shipping: '', billing: '' }

export default function Checkout(props: CheckoutPageProps) {
  const { basket, countries, freephoneNumber, addressSearchUrl } = props
  // A method whose script failed to load is removed for this visit (§8).
  const [removedMethods, setRemovedMethods] = useState<string[]>([])
  const paymentMethods = props.paymentMethods.filter((m) => !removedMethods.includes(m.id))
  const { site, customer: loggedIn } = useShared()
  const { pushError } = useMessages()
  const currency = site?.currency ?? 'GBP'
  const money = (n: number) => formatMoney(n, currency)
  const [customer, setCustomer] = useState<CustomerData | null>(props.customer)
  /** 'Not you? Log Out' done: the page forgets the customer here (§7). */
  const [loggedOut, setLoggedOut] = useState(false)
  const ids = paymentMethods.map((m) => m.id)
  const [provider, setProvider] = useState<string>(() =>
    ids.includes('sagepay') ? 'sagepay' : (ids[0] ?? ''),
  )
  const [guestChosen, setGuestChosen] = useState(false)
  /** PayPal and Amazon Pay (§4): their order, once the provider has it, and PayPal's re-approval. */
  const isWallet = PAYMENT_COMPONENTS[provider]?.wallet === true
  const [wallet, setWallet] = useState<WalletOrder | null>(null)
  const [paypalReApproval, setPaypalReApproval] = useState(false)
  const [modal, setModal] = useState<CheckoutModal>(null)
  const [sectionStatus, setSectionStatus] = useState(NO_STATUS)
  /** This basket's order was already placed (Back from Order Complete): null until known. */
  const [placed, setPlaced] = useState<PlacedOrder | null>(null)

  const form = useCheckoutForm(customer, countries, isWallet)
  const ctx: StepContext = {
    provider,
    wallet: isWallet,
    walletOrder: wallet !== null,
    formValid: form.formValid,
    loggedIn: !!loggedIn && !loggedOut,
  }
  const [steps, dispatchStep] = useReducer(stepsReducer, INITIAL_STEPS)
  const step = (event: StepEvent, context: StepContext = ctx) => dispatchStep({ ...event, ctx: context })
  useStepFocus(steps.focus)
  useHeaderScrollPadding()

  const selectedRate = basket.shippingRates.find((r) => r.selected) ?? null
  const showVat = vatNumberApplies(form.shipping.country, provider)

  const chooseProvider = (id: string) => {
    setProvider(id)
    setWallet(null)
    setPaypalReApproval(false)
  }

  // Back from Order Complete: Inertia restores this page from history; its basket is gone.
  useEffect(() => {
    const p = placedOrder()
    // eslint-disable-next-line react-hooks/set-state-in-effect -- session storage exists only in the browser
    if (p && p.cartId === basket.id) setPlaced(p)
  }, [basket.id])

  // Keep the payment method in a cookie for a day; restore it on load, then the 200 ms jump (§4).
  useEffect(() => {
    const fromCookie = readCookie(COOKIE)
    const chosen = fromCookie && ids.includes(fromCookie) ? fromCookie : provider
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the cookie exists only in the browser
    if (chosen !== provider) setProvider(chosen)
    const t = setTimeout(
      () =>
        step(
          { type: 'jump' },
          { ...ctx, provider: chosen, wallet: PAYMENT_COMPONENTS[chosen]?.wallet === true },
        ),
      CHECKOUT.stepJumpDelayMs,
    )
    return () => clearTimeout(t)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  useEffect(() => {
    if (provider)
      document.cookie = `${COOKIE}=${encodeURIComponent(provider)}; max-age=${86_400 * CHECKOUT.paymentMethodCookieDays}; path=/; samesite=lax`
  }, [provider])

  const { loading, setDelivery } = useDelivery({
    shipping: form.shipping,
    isWallet,
    provider,
    countries,
    onCountryRefused: (m) => form.setServerErrors((e) => ({ ...e, 'shipping.country': m })),
  })

  /** A server message under a field outside the fieldsets (PO number, notes, VAT number, method). */
  const fieldError = (key: string, id: string) =>
    form.serverErrors[key] ? (
      <p id={`${id}-error`} className="mt-1 text-sm text-red-700" tabIndex={-1} data-testid={`error-${id}`}>
        {form.serverErrors[key]}
      </p>
    ) : null

  /** Puts the server's field errors under their fields, opens the first one's step and focuses it. */
  const showServerErrors = (errors: Record<string, string[] | string>): boolean => {
    const { mapped, first } = mapServerErrors(errors)
    if (!first) return false
    if (Object.keys(mapped).some((k) => k.startsWith('billing.'))) form.setShowingBilling(true)
    form.setServerErrors(mapped)
    step({ type: 'fieldErrors', step: first.step })
    // Fields outside the fieldsets carry no aria-invalid: their message takes the focus.
    const id = first.id
    setTimeout(() => {
      const el = document.getElementById(id)
      if (el && !el.matches('[aria-invalid="true"]')) focusClear(document.getElementById(`${id}-error`) ?? el)
    }, 0)
    return true
  }

  const walletApproved = (order: WalletOrder) => {
    setWallet(order)
    form.importWallet(order.contact, order.shippingAddress)
    const rate = basket.shippingRates.find((r) => r.id === order.deliveryOption)
    if (rate && !rate.selected) void setDelivery(rate.despatch_type)
    step({ type: 'walletApproved', toStep3: provider === 'amazon' && !!order.deliveryViewed })
  }

  const order = useOrderSubmit({
    props,
    form,
    provider,
    isWallet,
    customer,
    wallet,
    selectedRate,
    showVat,
    onFieldErrors: showServerErrors,
    onShowStep: (n) => step({ type: 'show', step: n }),
    onInvalid: () => step({ type: 'fieldErrors', step: 2 }),
    onWalletReset: (reApproval) => {
      if (reApproval) setPaypalReApproval(true)
      setWallet(null)
    },
  })

  const removeMethod = useCallback(
    (id: string) => {
      // Removing a failed payment method closes all steps (§4) and says so (§8).
      setRemovedMethods((r) => (r.includes(id) ? r : [...r, id]))
      setProvider((p) => (p === id ? '' : p))
      dispatchStep({ type: 'closeAll', ctx })
      pushError(CHECKOUT_TEXT.methodFailedToLoad(id))
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [pushError],
  )

  const reloadCustomer = async () => {
    const res = await requestJson<{ user?: CustomerData }>('GET', '/customer/data')
    const user = res.ok ? res.data?.user : undefined
    if (!user) return null
    setCustomer(user)
    return user
  }

  /**
   * 'Not you? Log Out' (§7 POST /logout, redirect false): the customer is forgotten here and the
   * steps reset with everything that was theirs (details, saved entries, PO and VAT number). The
   * page stays: no visit that would leave the checkout for the basket.
   */
  const logout = async () => {
    await requestJson('POST', '/logout', { redirect: false })
    try {
      sessionStorage.removeItem('customer')
    } catch {
      // Storage unavailable: nothing kept there.
    }
    setModal(null)
    setLoggedOut(true)
    setCustomer(null)
    form.reset()
    setSectionStatus(NO_STATUS)
    setGuestChosen(false)
    step({ type: 'reset' })
    // The header's account link and basket summary follow: only those shared props are asked for.
    router.reload({ only: ['auth', 'cart'] })
  }

  const method = PAYMENT_COMPONENTS[provider] ?? null
  const canSubmit = form.formValid && !!selectedRate && !loading && !order.submitting
  const methodElement = method ? (
    <method.Component
      key={provider}
      methodId={provider}
      site={{ name: site?.name ?? 'us', currency }}
      total={basket.cart_total_price_inc_tax}
      cartId={basket.id ?? ''}
      form={order.paymentForm}
      customer={customer}
      config={props.paymentConfig[provider] ?? {}}
      loading={loading || order.submitting}
      canSubmit={canSubmit}
      setPaymentDetails={order.setPaymentDetails}
      orderBody={order.orderBody}
      submitOrder={order.submitOrder}
      reportError={pushError}
      reopenStep3={() => step({ type: 'show', step: 3 })}
      removeMethod={() => removeMethod(provider)}
      walletOrder={wallet}
      walletReApproval={paypalReApproval}
      walletApproved={walletApproved}
    />
  ) : null

  const onContinue = () => {
    const enabled = continueEnabled(steps, ctx)
    if (enabled) pushStep(steps.current, provider)
    step({ type: 'continue' })
  }
  const enabled = continueEnabled(steps, ctx)
  const continueHelp = enabled
    ? ''
    : steps.current === 1
      ? 'Choose a payment method to continue.'
      : isWallet
        ? `Use the ${provider === 'paypal' ? 'PayPal' : 'Amazon Pay'} button above to continue.`
        : CHECKOUT_TEXT.addressInvalid
  const siteName = site?.name ?? 'us'
  const loggedInName =
    loggedIn && !loggedOut ? [loggedIn.firstName, loggedIn.lastName].filter(Boolean).join(' ') : null

  return (
    <>
      <Head title="Checkout" />
      <header
        className="flex flex-wrap items-center justify-between gap-3 border-b pb-3"
        data-testid="secure-checkout-header"
      >
        <h1 className="text-3xl font-bold tracking-tight">Secure Checkout</h1>
        {freephoneNumber ? (
          <p>
            Need help? Call free on{' '}
            <a href={`tel:${freephoneNumber.replace(/\s/g, '')}`}>{freephoneNumber}</a>
          </p>
        ) : null}
      </header>

      {placed ? (
        <PlacedNotice placed={placed} />
      ) : (
        <div className="mt-4 grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <form onSubmit={(e) => e.preventDefault()} aria-label="Checkout" className="space-y-4" noValidate>
            <p className="text-sm text-gray-700" data-testid="required-note">
              {REQUIRED_NOTE}
            </p>
            <CheckoutStep
              n={1}
              title="Payment Method"
              open={steps.current === 1}
              canOpen={canOpen(steps, 1)}
              onOpen={() => step({ type: 'open', step: 1 })}
            >
              <PaymentMethodStep
                methods={paymentMethods}
                provider={provider}
                onChoose={chooseProvider}
                error={fieldError('payment_method', 'payment-method')}
              />
            </CheckoutStep>

            <CheckoutStep
              n={2}
              title="Your Details"
              open={steps.current === 2}
              canOpen={canOpen(steps, 2)}
              onOpen={() => step({ type: 'open', step: 2 })}
            >
              <DetailsStep
                form={form}
                customer={customer}
                loggedInName={loggedInName}
                countries={countries}
                addressSearchUrl={addressSearchUrl}
                provider={provider}
                isWallet={isWallet}
                wallet={wallet}
                walletElement={isWallet ? methodElement : null}
                showErrors={steps.showErrors}
                showVat={showVat}
                guestChosen={guestChosen}
                sectionStatus={sectionStatus}
                onGuest={() => setGuestChosen(true)}
                onLogout={() => void logout()}
                onModal={setModal}
                fieldError={fieldError}
              />
            </CheckoutStep>

            <CheckoutStep
              n={3}
              title="Delivery and Payment"
              open={steps.current === 3}
              canOpen={canOpen(steps, 3)}
              onOpen={() => step({ type: 'open', step: 3 })}
            >
              <DeliveryStep
                basket={basket}
                form={form}
                countries={countries}
                money={money}
                siteName={siteName}
                testMode={props.testMode}
                loading={loading}
                busy={loading || order.submitting}
                provider={provider}
                walletText={
                  isWallet
                    ? provider === 'paypal'
                      ? 'Paying with PayPal: approved.'
                      : `Paying with Amazon Pay: ${wallet?.descriptor ?? ''}`
                    : null
                }
                methodElement={isWallet ? null : methodElement}
                showCompleteButton={!method?.replacesCompleteButton}
                canComplete={canSubmit && (!isWallet || !!wallet)}
                onDelivery={(d) => void setDelivery(d)}
                onEdit={(n) =>
                  n === 3 ? focusClear(document.getElementById('notes')) : step({ type: 'open', step: n })
                }
                onComplete={() => void order.submit()}
                fieldError={fieldError}
              />
            </CheckoutStep>

            <ContinueNav
              offered={steps.current < CHECKOUT.numberOfSteps}
              enabled={enabled}
              help={continueHelp}
              onContinue={onContinue}
            />
          </form>

          <CheckoutAside
            basket={basket}
            contact={form.contact}
            currency={currency}
            cartName={site?.cartName}
          />
        </div>
      )}

      <LoginDialog open={modal === 'login'} onClose={() => setModal(null)} />
      {customer
        ? (['contact', 'shipping', 'billing'] as const).map((section) => (
            <SavedDialogs
              key={section}
              section={section}
              customer={customer}
              countries={countries}
              modal={modal}
              onClose={() => setModal(null)}
              onPicked={(values, id, status) => {
                form.pick(section, values, id)
                setSectionStatus({ ...NO_STATUS, [section]: status })
              }}
              reload={reloadCustomer}
            />
          ))
        : null}

      <ProcessingDialog open={order.submitting} />
    </>
  )
}
