/**
 * The three-step checkout (spec §2 "Checkout (3 steps)", §4 "Checkout steps", §5): payment
 * method, then login or guest and the contact and addresses, then delivery, notes, the order
 * summary and the payment box with Complete Order. The server re-prices on submit; a moved total
 * answers 409 with the fresh basket, shown with a warning.
 */
import { Head, Link, router } from '@inertiajs/react'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { Cart } from '../../shared/cart.ts'
import {
  addressFields,
  CHECKOUT,
  CHECKOUT_TEXT,
  CONTACT_FIELDS,
  type CheckoutPageProps,
} from '../../shared/checkout.ts'
import type { Address, Contact, CustomerData } from '../../shared/customer.ts'
import { formatMoney } from '../../shared/money.ts'
import { botToken } from '../components/auth/bot-check.ts'
import { CartTotals } from '../components/cart/CartTotals.tsx'
import { Modal, primaryButton, secondaryButton } from '../components/cart/Modal.tsx'
import { PromoForm } from '../components/cart/PromoForm.tsx'
import {
  AddressSearch,
  checkoutErrors,
  EMPTY_ADDRESS,
  EMPTY_CONTACT,
  Fieldset,
  type Values,
} from '../components/checkout/forms.tsx'
import { VatRelief } from '../components/checkout/VatRelief.tsx'
import { cartCall, CartApiError, publishCart } from '../lib/cart-api.ts'
import { useMessages } from '../lib/messages.tsx'
import { postJson, xsrfToken } from '../lib/post-json.ts'
import { useShared } from '../lib/shared-props.ts'
import { PAYMENT_COMPONENTS, type SubmitResult, type WalletOrder } from '../checkout/payment/index.ts'

const COOKIE = 'payment_method'

function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null
  const m = document.cookie.match(new RegExp(`(?:^|;\\s*)${name}=([^;]*)`))
  return m ? decodeURIComponent(m[1] ?? '') : null
}

function pushStep(step: number, option: string) {
  const w = window as unknown as { dataLayer?: unknown[] }
  ;(w.dataLayer ??= []).push({ event: 'CheckoutStep', step, option })
  w.dataLayer.push({ event: 'checkout_progress', checkout_step: step, checkout_option: option })
}

const contactValues = (c: Contact | null): Values =>
  c
    ? { firstName: c.firstName, lastName: c.lastName, email: c.email, phone: c.phone, company: c.company }
    : EMPTY_CONTACT
const addressValues = (a: Address | null): Values =>
  a
    ? {
        company: a.company,
        address1: a.address1,
        address2: a.address2,
        town: a.town,
        county: a.county,
        postcode: a.postcode,
        country: a.country,
      }
    : EMPTY_ADDRESS

async function sendJson(method: 'POST' | 'PATCH', url: string, body: unknown) {
  const res = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      'x-xsrf-token': xsrfToken(),
    },
    body: JSON.stringify(body),
  })
  const data = (await res.json().catch(() => null)) as Record<string, unknown> | null
  return { ok: res.ok, status: res.status, data }
}

function joinErrors(data: Record<string, unknown> | null): string {
  const errors = (data?.errors ?? {}) as Record<string, string[] | string>
  const list = Object.values(errors).flatMap((v) => (Array.isArray(v) ? v : [v]))
  return list.length
    ? list.join('. ')
    : typeof data?.message === 'string'
      ? data.message
      : CHECKOUT_TEXT.somethingWrong
}

/**
 * Where a server field error belongs (§8 'Field errors from saves are mapped to the form'): the
 * step holding the field, the id of its input and the key the form shows it under. Null: not a
 * field of the form (shown in the red box).
 */
export function fieldOfError(key: string): { step: number; id: string; key: string } | null {
  const [head, field] = key.split('.', 2) as [string, string | undefined]
  const section =
    head === 'contact'
      ? 'contact'
      : head === 'shipping_address'
        ? 'shipping'
        : head === 'billing_address'
          ? 'billing'
          : null
  if (section && field) return { step: 2, id: `${section}-${field}`, key: `${section}.${field}` }
  if (head === 'VATNumber') return { step: 2, id: 'vat-number', key }
  if (head === 'Notes') return { step: 3, id: 'notes', key }
  if (head === 'PONumber') return { step: 3, id: 'po-number', key }
  if (head === 'payment_method') return { step: 1, id: 'payment-method-error', key }
  return null
}

function Step({
  n,
  title,
  open,
  canOpen,
  onOpen,
  children,
}: {
  n: number
  title: string
  open: boolean
  canOpen: boolean
  onOpen: () => void
  children: React.ReactNode
}) {
  return (
    <section
      aria-labelledby={`step-${n}-heading`}
      className="rounded-lg border border-gray-200 p-4"
      data-testid={`step-${n}`}
    >
      <h2 id={`step-${n}-heading`} className="text-xl font-semibold">
        <button
          type="button"
          className="text-left disabled:cursor-not-allowed"
          aria-expanded={open}
          disabled={!canOpen}
          onClick={onOpen}
        >
          {n}. {title}
        </button>
      </h2>
      {open ? <div className="mt-3">{children}</div> : null}
    </section>
  )
}

type Section = 'contact' | 'shipping' | 'billing'

export default function Checkout(props: CheckoutPageProps) {
  const { basket, countries, freephoneNumber, botCheck, addressSearchUrl } = props
  // A method whose script failed to load is removed for this visit (§8).
  const [removedMethods, setRemovedMethods] = useState<string[]>([])
  const paymentMethods = props.paymentMethods.filter((m) => !removedMethods.includes(m.id))
  const { site, customer: loggedIn } = useShared()
  const { pushError, pushWarning } = useMessages()
  const currency = site?.currency ?? 'GBP'
  const money = (n: number) => formatMoney(n, currency)
  const [customer, setCustomer] = useState<CustomerData | null>(props.customer)

  // --- step state machine (§4) -------------------------------------------------------------
  const [currentStep, setCurrentStep] = useState(1)
  const [stepsComplete, setStepsComplete] = useState(0)
  const [showValidationErrors, setShowValidationErrors] = useState(false)
  /** The server's field errors of the last submit, by `section.field`, until the field changes */
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({})
  const [focusField, setFocusField] = useState<string | null>(null)
  /** 'Not you? Log Out' done: the page forgets the customer before the next page arrives */
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
  const chooseProvider = (id: string) => {
    setProvider(id)
    setWallet(null)
    setPaypalReApproval(false)
  }

  // --- form --------------------------------------------------------------------------------
  const [contact, setContact] = useState<Values>(contactValues(customer?.primaryContact ?? null))
  const [shipping, setShipping] = useState<Values>(addressValues(customer?.shippingAddress ?? null))
  const [billing, setBilling] = useState<Values>(addressValues(customer?.billingAddress ?? null))
  const [showingBilling, setShowingBilling] = useState(false)
  const [saved, setSaved] = useState<{
    contact: number | null
    shipping: number | null
    billing: number | null
  }>({
    contact: customer?.primaryContact?.id ?? null,
    shipping: customer?.shippingAddress?.id ?? null,
    billing: customer?.billingAddress?.id ?? null,
  })
  const [vatNumber, setVatNumber] = useState('')
  const [notes, setNotes] = useState('')
  // What the chosen method's component says the order's paymentDetails are (payment seam).
  const [detailsBy, setDetailsBy] = useState<Record<string, Record<string, unknown>>>({})
  const paymentDetails = detailsBy[provider] ?? {}
  const setPaymentDetails = useCallback(
    (details: Record<string, unknown>) => setDetailsBy((d) => ({ ...d, [provider]: details })),
    [provider],
  )
  const [loading, setLoading] = useState(false)
  const [submitting, setSubmitting] = useState(false)
  const [modal, setModal] = useState<null | 'login' | `change-${Section}` | `new-${Section}`>(null)
  const summaryOpenDefault =
    typeof window !== 'undefined' ? window.innerWidth > CHECKOUT.summaryOpenAbove : true
  const [summaryOpen, setSummaryOpen] = useState(summaryOpenDefault)

  const contactErrors = useMemo(() => checkoutErrors('contact', contact), [contact])
  const countryCodes = countries.map((c) => c.code)
  const shippingErrors = useMemo(() => {
    const e = checkoutErrors('shipping', shipping)
    if (!e.country && !countryCodes.includes(shipping.country ?? '')) e.country = CHECKOUT_TEXT.countryInvalid
    return e
  }, [shipping, countryCodes])
  const billingErrors = useMemo(() => checkoutErrors('billing', billing), [billing])
  // §5: the form is valid if PayPal or Amazon is used (the provider's details are used).
  const formValid =
    isWallet ||
    (Object.keys(contactErrors).length === 0 &&
      Object.keys(shippingErrors).length === 0 &&
      (!showingBilling || Object.keys(billingErrors).length === 0))
  const selectedRate = basket.shippingRates.find((r) => r.selected) ?? null
  const showVat = shipping.country === 'IE' && provider !== 'paypal' && provider !== 'amazon'

  // Keep the payment method in a cookie for a day; restore it on load.
  useEffect(() => {
    const fromCookie = readCookie(COOKIE)
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the cookie exists only in the browser
    if (fromCookie && ids.includes(fromCookie)) setProvider(fromCookie)
    // After 200 ms (§4): PayPal and Amazon go to step 2 (Amazon on to step 3 once its details
    // are back and the delivery options were viewed); card and purchase order only if logged in.
    const chosen = fromCookie && ids.includes(fromCookie) ? fromCookie : provider
    const t = setTimeout(() => {
      if (PAYMENT_COMPONENTS[chosen]?.wallet || (loggedIn && chosen)) {
        setStepsComplete((c) => Math.max(c, 1))
        setCurrentStep(2)
      }
    }, CHECKOUT.stepJumpDelayMs)
    return () => clearTimeout(t)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  useEffect(() => {
    if (provider)
      document.cookie = `${COOKIE}=${encodeURIComponent(provider)}; max-age=${86_400 * CHECKOUT.paymentMethodCookieDays}; path=/; samesite=lax`
  }, [provider])

  // Delivery options follow the shipping country and postcode (§7 update-delivery).
  const deliveryKey = `${shipping.country}|${shipping.postcode}|${provider}`
  const lastDelivery = useRef('')
  useEffect(() => {
    if (!shipping.country || !countryCodes.includes(shipping.country)) return
    if (lastDelivery.current === deliveryKey) return
    lastDelivery.current = deliveryKey

    setLoading(true)
    void sendJson('POST', '/checkout/update-delivery', {
      countryCode: shipping.country,
      regionCode: shipping.postcode || null,
    })
      .then(({ ok, data }) => {
        if (ok && data?.cart) {
          publishCart(data.cart as Cart, { basket: true })
          return
        }
        pushError(`${CHECKOUT_TEXT.shippingRateError} ${joinErrors(data)}`)
        // A country the site does not deliver to: the message also goes under the Country field.
        const country = (data?.errors as Record<string, string[]> | undefined)?.countryCode?.[0]
        if (country) setServerErrors((e) => ({ ...e, 'shipping.country': country }))
      })
      .finally(() => setLoading(false))
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [deliveryKey])

  // A field the server refused takes the focus once its step is open (its message is under it).
  useEffect(() => {
    if (!focusField) return
    const el = document.getElementById(focusField)
    if (el) {
      el.focus()
      // eslint-disable-next-line react-hooks/set-state-in-effect -- focus once, after the step opened
      setFocusField(null)
    }
  }, [focusField, currentStep])

  const serverFor = (section: string) =>
    Object.fromEntries(
      Object.entries(serverErrors)
        .filter(([k]) => k.startsWith(`${section}.`))
        .map(([k, v]) => [k.slice(section.length + 1), v]),
    )
  const clearServer = (section: string) =>
    setServerErrors((e) =>
      Object.fromEntries(Object.entries(e).filter(([k]) => k !== section && !k.startsWith(`${section}.`))),
    )
  /** A server message under a field outside the fieldsets (PO number, notes, VAT number, method). */
  const fieldError = (key: string, id: string) =>
    serverErrors[key] ? (
      <p id={`${id}-error`} className="mt-1 text-sm text-red-700" tabIndex={-1} data-testid={`error-${id}`}>
        {serverErrors[key]}
      </p>
    ) : null

  /** Puts the server's field errors under their fields, opens the first one's step and focuses it. */
  const showServerErrors = (errors: Record<string, string[] | string>): boolean => {
    const mapped: Record<string, string> = {}
    let first: { step: number; id: string } | null = null
    for (const [key, value] of Object.entries(errors)) {
      const target = fieldOfError(key)
      const message = Array.isArray(value) ? value[0] : value
      if (!target || !message) continue
      mapped[target.key] = message
      if (!first || target.step < first.step) first = target
    }
    if (!first) return false
    if (Object.keys(mapped).some((k) => k.startsWith('billing.'))) setShowingBilling(true)
    setServerErrors(mapped)
    setShowValidationErrors(true)
    setStepsComplete((c) => Math.max(c, first.step - 1))
    setCurrentStep(first.step)
    setFocusField(first.id)
    return true
  }

  const complete = (step: number) => {
    setStepsComplete((c) => (c < CHECKOUT.completedCeiling ? Math.max(c, step) : c))
    pushStep(step, provider)
  }
  const canOpen = (step: number) => stepsComplete + 1 >= step
  const openStep = (step: number) => {
    if (!canOpen(step)) return
    // PayPal and Amazon cannot pass step 2 before their order exists (§4).
    if (step > 2 && isWallet && !wallet) {
      setCurrentStep(2)
      return
    }
    if (step > 2 && !formValid) {
      setShowValidationErrors(true)
      setCurrentStep(2)
      return
    }
    setCurrentStep(step)
  }
  const next = () => {
    if (currentStep === 2 && isWallet && !wallet) return
    complete(currentStep)
    if (currentStep === 2 && !formValid) {
      setShowValidationErrors(true)
      return
    }
    setCurrentStep(Math.min(CHECKOUT.numberOfSteps, currentStep + 1))
  }
  const continueEnabled =
    currentStep === 1 ? !!provider : currentStep === 2 ? (isWallet ? !!wallet : formValid) : false

  const reloadCustomer = async () => {
    const res = await fetch('/customer/data', {
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
    })
    if (res.ok) {
      const user = ((await res.json()) as { user: CustomerData }).user
      setCustomer(user)
      return user
    }
    return null
  }

  /**
   * 'Not you? Log Out' (§7 POST /logout, redirect false): the customer is forgotten here and the
   * steps are reset with everything that was theirs (details, saved entries, PO and VAT number),
   * then the page is asked again: the basket stays with the account (design checkout.md).
   */
  const logout = async () => {
    await postJson('/logout', { redirect: false })
    try {
      sessionStorage.removeItem('customer')
    } catch {
      // Storage unavailable: nothing kept there.
    }
    setModal(null)
    setLoggedOut(true)
    setCustomer(null)
    setContact(EMPTY_CONTACT)
    setShipping(EMPTY_ADDRESS)
    setBilling(EMPTY_ADDRESS)
    setShowingBilling(false)
    setSaved({ contact: null, shipping: null, billing: null })
    setVatNumber('')
    setNotes('')
    setGuestChosen(false)
    setServerErrors({})
    setShowValidationErrors(false)
    setStepsComplete(0)
    setCurrentStep(1)
    router.visit('/checkout', { replace: true })
  }

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
      ...(token ? { 'g-recaptcha-response': token } : {}),
      ...extra,
    }
  }

  /** Posts the order; answers what the page did not handle itself (payment seam). */
  const submitOrder = async (
    details: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ): Promise<SubmitResult> => {
    if (!formValid) {
      setShowValidationErrors(true)
      setCurrentStep(2)
      return { placed: false, status: 0, data: null }
    }
    setSubmitting(true)
    try {
      const { ok, status, data } = await sendJson(
        'POST',
        '/checkout/complete',
        await orderBody(details, extra),
      )
      if (ok && data?.redirect) {
        if (data.force_logout) sessionStorage.removeItem('customer')
        router.visit(String(data.redirect))
        return { placed: true, status, data }
      }
      setSubmitting(false)
      if (status === 409 && data?.cart) {
        publishCart(data.cart as Cart, { basket: true })
        pushWarning(String(data.warning ?? CHECKOUT_TEXT.totalChanged))
        setCurrentStep(3)
        return { placed: false, status, data: null }
      }
      if (status === 422 && data?.redirect === '/cart') {
        router.visit('/cart')
        return { placed: false, status, data: null }
      }
      const errors = (data?.errors ?? {}) as Record<string, string[] | string>
      if (status === 422 && showServerErrors(errors)) {
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

  const submit = async () => {
    if (isWallet) return submitWallet()
    const result = await submitOrder(paymentDetails)
    if (!result.placed && result.data) pushError(joinErrors(result.data))
  }

  /** Complete Order with PayPal or Amazon Pay: the provider's order, placed by the server. */
  const submitWallet = async () => {
    if (!wallet) {
      setCurrentStep(2)
      return
    }
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
      if (status === 'paypalReApprovalRequired') setPaypalReApproval(true)
      setWallet(null)
      setCurrentStep(2)
      return
    }
    // Other errors reopen step 3 for PayPal (§4).
    if (provider === 'paypal') setCurrentStep(3)
  }

  /**
   * The provider has the order (§4): its details are imported read-only, billing copies shipping,
   * the delivery option chosen in PayPal's window is taken; Amazon goes on to step 3 when the
   * delivery options were already viewed.
   */
  const walletApproved = (order: WalletOrder) => {
    setWallet(order)
    const imported = { ...EMPTY_ADDRESS, ...order.shippingAddress }
    setContact({ ...EMPTY_CONTACT, ...order.contact })
    setShipping(imported)
    setBilling(imported)
    setShowingBilling(false)
    setSaved({ contact: null, shipping: null, billing: null })
    setServerErrors({})
    const rate = basket.shippingRates.find((r) => r.id === order.deliveryOption)
    if (rate && !rate.selected) void setDelivery(rate.despatch_type)
    if (provider === 'amazon' && order.deliveryViewed) {
      setStepsComplete((c) => Math.max(c, 2))
      setCurrentStep(3)
    }
  }

  const removeMethod = (id: string) => {
    // Removing a failed payment method closes all steps (§4) and says so (§8).
    setRemovedMethods((r) => (r.includes(id) ? r : [...r, id]))
    setProvider((p) => (p === id ? '' : p))
    setStepsComplete(0)
    setCurrentStep(1)
    pushError(CHECKOUT_TEXT.methodFailedToLoad(id))
  }

  const method = PAYMENT_COMPONENTS[provider] ?? null
  const methodElement = method ? (
    <method.Component
      key={provider}
      methodId={provider}
      site={{ name: site?.name ?? 'us', currency }}
      total={basket.cart_total_price_inc_tax}
      cartId={basket.id ?? ''}
      form={{
        contact,
        shippingAddress: shipping,
        billingAddress: showingBilling ? billing : shipping,
        showingBillingAddress: showingBilling,
      }}
      customer={customer}
      config={props.paymentConfig[provider] ?? {}}
      loading={loading || submitting}
      canSubmit={formValid && !!selectedRate && !loading && !submitting}
      setPaymentDetails={setPaymentDetails}
      orderBody={orderBody}
      submitOrder={submitOrder}
      reportError={pushError}
      reopenStep3={() => setCurrentStep(3)}
      removeMethod={() => removeMethod(provider)}
      walletOrder={wallet}
      walletReApproval={paypalReApproval}
      walletApproved={walletApproved}
    />
  ) : null
  /** Wallet details are the provider's: shown read-only (§4); PayPal may not share the phone. */
  const readOnlyFields = <T extends { name: string }>(fields: T[], except: string[] = []): T[] =>
    isWallet ? fields.map((f) => (except.includes(f.name) ? f : { ...f, readonly: true })) : fields

  const siteName = site?.name ?? 'us'
  const errorsIf = (e: Record<string, string>) => (showValidationErrors ? e : {})

  const summarySection = (title: string, lines: string[], step: number) => (
    <div className="mt-3">
      <div className="flex items-baseline justify-between">
        <h3 className="font-semibold">{title}</h3>
        <button
          type="button"
          className="text-sm underline"
          onClick={() => openStep(step)}
          aria-label={`Edit ${title}`}
        >
          Edit
        </button>
      </div>
      {lines.filter(Boolean).length ? (
        <p className="text-sm text-gray-800">{lines.filter(Boolean).join(', ')}</p>
      ) : (
        <p className="text-sm text-gray-700">No {title} Provided</p>
      )}
    </div>
  )

  const addressLine = (a: Values): string[] =>
    ['company', 'address1', 'address2', 'town', 'county', 'postcode', 'country'].map((k) => a[k] ?? '')

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

      <div className="mt-4 grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <form onSubmit={(e) => e.preventDefault()} aria-label="Checkout" className="space-y-4" noValidate>
          <Step
            n={1}
            title="Payment Method"
            open={currentStep === 1}
            canOpen={canOpen(1)}
            onOpen={() => openStep(1)}
          >
            <fieldset>
              <legend className="sr-only">Payment method</legend>
              {paymentMethods.map((m) => (
                <label key={m.id} className="flex items-start gap-2 py-1">
                  <input
                    type="radio"
                    name="payment_method"
                    value={m.id}
                    checked={provider === m.id}
                    onChange={() => chooseProvider(m.id)}
                  />
                  {m.img ? (
                    <img src={m.img} alt={m.label} className="h-6 w-auto shrink-0" width={60} height={24} />
                  ) : null}
                  <span>
                    <span className="font-medium">{m.label}</span>
                    {m.detail ? <span className="block text-sm text-gray-700">{m.detail}</span> : null}
                  </span>
                </label>
              ))}
              {fieldError('payment_method', 'payment-method')}
            </fieldset>
          </Step>

          <Step
            n={2}
            title="Your Details"
            open={currentStep === 2}
            canOpen={canOpen(2)}
            onOpen={() => openStep(2)}
          >
            <div className="rounded bg-gray-50 p-3" data-testid="login-area">
              {loggedIn && !loggedOut ? (
                <p>
                  Logged in as {loggedIn.firstName} {loggedIn.lastName}.{' '}
                  <button type="button" className="underline" onClick={() => void logout()}>
                    Not you? Log Out
                  </button>
                </p>
              ) : (
                <div className="flex flex-wrap gap-3">
                  <button type="button" className={secondaryButton} onClick={() => setModal('login')}>
                    Login to Your Account
                  </button>
                  <button
                    type="button"
                    className={secondaryButton}
                    aria-pressed={guestChosen}
                    onClick={() => setGuestChosen(true)}
                  >
                    Checkout as New Customer
                  </button>
                </div>
              )}
            </div>

            {isWallet ? (
              <section
                aria-labelledby="wallet-heading"
                className="mt-4 rounded border border-gray-300 p-3"
                data-testid="wallet-step"
              >
                <h3 id="wallet-heading" className="font-semibold">
                  {provider === 'paypal' ? 'Pay with PayPal' : 'Pay with Amazon Pay'}
                </h3>
                <p className="text-sm">
                  {wallet
                    ? `Your name and address come from ${provider === 'paypal' ? 'PayPal' : 'Amazon Pay'} and cannot be changed here.`
                    : `Your name and address come from ${provider === 'paypal' ? 'PayPal' : 'Amazon Pay'}: use the button below, then continue.`}
                </p>
                {methodElement}
              </section>
            ) : null}

            {isWallet && !wallet ? null : (
              <>
                <Fieldset
                  legend="Contact Details"
                  fields={readOnlyFields(CONTACT_FIELDS, wallet?.contact.phone ? [] : ['phone'])}
                  values={contact}
                  errors={{ ...errorsIf(contactErrors), ...serverFor('contact') }}
                  idPrefix="contact"
                  onChange={(v) => {
                    clearServer('contact')
                    setContact(v)
                    setSaved((s) => ({ ...s, contact: null }))
                  }}
                >
                  {customer && !isWallet ? (
                    <SavedButtons
                      section="contact"
                      onChange={() => setModal('change-contact')}
                      onNew={() => setModal('new-contact')}
                    />
                  ) : null}
                </Fieldset>

                <Fieldset
                  legend="Delivery Address"
                  fields={readOnlyFields(addressFields('shipping', countries))}
                  values={shipping}
                  errors={{ ...errorsIf(shippingErrors), ...serverFor('shipping') }}
                  idPrefix="shipping"
                  onChange={(v) => {
                    clearServer('shipping')
                    setShipping(v)
                    if (!showingBilling) setBilling(v)
                    setSaved((s) => ({ ...s, shipping: null }))
                  }}
                >
                  {customer && !isWallet ? (
                    <SavedButtons
                      section="shipping"
                      onChange={() => setModal('change-shipping')}
                      onNew={() => setModal('new-shipping')}
                    />
                  ) : null}
                  {isWallet ? null : (
                    <AddressSearch
                      url={addressSearchUrl}
                      idPrefix="shipping"
                      onPick={(a) => {
                        setShipping({ ...shipping, ...a })
                        setSaved((s) => ({ ...s, shipping: null }))
                      }}
                    />
                  )}
                </Fieldset>
              </>
            )}

            {isWallet ? null : (
              <label className="mt-4 flex items-center gap-2">
                <input
                  type="checkbox"
                  checked={showingBilling}
                  onChange={(e) => {
                    setShowingBilling(e.target.checked)
                    if (!e.target.checked) setBilling(shipping)
                  }}
                />
                Bill to a different address.
              </label>
            )}
            {showingBilling && !isWallet ? (
              <Fieldset
                legend="Billing Address"
                fields={addressFields('billing', countries)}
                values={billing}
                errors={{ ...errorsIf(billingErrors), ...serverFor('billing') }}
                idPrefix="billing"
                onChange={(v) => {
                  clearServer('billing')
                  setBilling(v)
                  setSaved((s) => ({ ...s, billing: null }))
                }}
              >
                {customer ? (
                  <SavedButtons
                    section="billing"
                    onChange={() => setModal('change-billing')}
                    onNew={() => setModal('new-billing')}
                  />
                ) : null}
                <AddressSearch
                  url={addressSearchUrl}
                  idPrefix="billing"
                  onPick={(a) => setBilling({ ...billing, ...a })}
                />
              </Fieldset>
            ) : null}

            {showVat ? (
              <div className="mt-4">
                <label htmlFor="vat-number" className="block text-sm font-medium">
                  VAT Number
                </label>
                <input
                  id="vat-number"
                  className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2"
                  value={vatNumber}
                  maxLength={30}
                  aria-describedby={serverErrors.VATNumber ? 'vat-number-error' : undefined}
                  onChange={(e) => {
                    clearServer('VATNumber')
                    setVatNumber(e.target.value)
                  }}
                />
                {fieldError('VATNumber', 'vat-number')}
              </div>
            ) : null}
          </Step>

          <Step
            n={3}
            title="Delivery and Payment"
            open={currentStep === 3}
            canOpen={canOpen(3)}
            onOpen={() => openStep(3)}
          >
            <fieldset>
              <legend className="text-lg font-semibold">Delivery Options</legend>
              {basket.shippingRates.map((r) => (
                <label key={r.id} className="flex items-center gap-2 py-1">
                  <input
                    type="radio"
                    name="delivery_option"
                    checked={r.selected}
                    disabled={loading}
                    onChange={() => void setDelivery(r.despatch_type)}
                  />
                  {r.name} - {money(r.price)}
                </label>
              ))}
            </fieldset>
            <div className="mt-4">
              <label htmlFor="notes" className="block text-sm font-medium">
                Delivery Notes
              </label>
              <textarea
                id="notes"
                className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2"
                maxLength={CHECKOUT.notesMax}
                value={notes}
                onChange={(e) => {
                  clearServer('Notes')
                  setNotes(e.target.value.slice(0, CHECKOUT.notesMax))
                }}
                aria-describedby={serverErrors.Notes ? 'notes-count notes-error' : 'notes-count'}
              />
              <p id="notes-count" className="text-sm text-gray-700">
                {CHECKOUT.notesMax - notes.length} characters remaining
              </p>
              {fieldError('Notes', 'notes')}
            </div>
            <div className="mt-4">
              <PromoForm cart={basket} insideForm />
            </div>
            <VatRelief
              basket={basket}
              delivery={{
                despatchType: selectedRate?.despatch_type ?? '',
                country: shipping.country ?? '',
                postcode: shipping.postcode ?? '',
              }}
              onCart={(cart) => publishCart(cart, { basket: true })}
              disabled={loading || submitting}
            />

            <section aria-labelledby="order-summary-heading" className="mt-4 rounded border p-3">
              <h3 id="order-summary-heading" className="font-semibold">
                <button
                  type="button"
                  aria-expanded={summaryOpen}
                  onClick={() => setSummaryOpen(!summaryOpen)}
                >
                  Order Summary
                </button>
              </h3>
              {summaryOpen ? (
                <div>
                  {summarySection(
                    'Contact Information',
                    [
                      contact.firstName ?? '',
                      contact.lastName ?? '',
                      contact.email ?? '',
                      contact.phone ?? '',
                    ],
                    2,
                  )}
                  {summarySection('Delivery Address', addressLine(shipping), 2)}
                  {showingBilling ? summarySection('Billing Address', addressLine(billing), 2) : null}
                  {summarySection('Delivery Notes', [notes], 3)}
                </div>
              ) : null}
            </section>

            <section
              aria-labelledby="payment-box-heading"
              className="mt-4 rounded border border-green-700 p-3"
              data-testid="payment-box"
            >
              <h3 id="payment-box-heading" className="font-semibold">
                Payment
              </h3>
              <p className="text-sm">
                Buying from {siteName} is safe and secure. Your order is sent over an encrypted connection and
                we never store card details.
              </p>
              <p className="mt-1 text-xs text-gray-700">Secured by TLS encryption</p>
              <p className="mt-2 text-sm">
                We will send you order updates by e-mail. We may also e-mail you about offers; you can opt out
                at any time, including on the next page.
              </p>
              <p className="mt-2 font-semibold">Total to pay: {money(basket.cart_total_price_inc_tax)}</p>
              {props.testMode ? (
                <p
                  className="mt-2 rounded border border-amber-600 bg-amber-50 p-2 text-sm"
                  data-testid="test-mode"
                >
                  <strong>Test mode</strong>: {CHECKOUT_TEXT.testMode}
                </p>
              ) : null}
              {!formValid ? (
                <p className="mt-2 text-sm text-red-700" role="alert">
                  {CHECKOUT_TEXT.addressInvalid}
                </p>
              ) : null}
              {isWallet ? (
                <p className="mt-2 text-sm" data-testid="wallet-payment">
                  {provider === 'paypal'
                    ? 'Paying with PayPal: approved.'
                    : `Paying with Amazon Pay: ${wallet?.descriptor ?? ''}`}
                </p>
              ) : (
                methodElement
              )}
              {provider === 'purchase_order' ? fieldError('PONumber', 'po-number') : null}
              {method?.replacesCompleteButton ? null : (
                <button
                  type="button"
                  className={`${primaryButton} mt-3 w-full`}
                  disabled={loading || submitting || !formValid || !selectedRate || (isWallet && !wallet)}
                  onClick={() => void submit()}
                  data-testid="complete-order"
                >
                  Complete Order
                </button>
              )}
            </section>
          </Step>

          <nav aria-label="Checkout navigation" className="flex justify-between">
            <Link href="/cart" className={secondaryButton}>
              Return to Cart
            </Link>
            {currentStep < CHECKOUT.numberOfSteps ? (
              <button
                type="button"
                className={primaryButton}
                disabled={!continueEnabled}
                onClick={next}
                data-testid="continue"
              >
                Continue
              </button>
            ) : null}
          </nav>
        </form>

        <aside
          className="hidden self-start rounded-lg border border-gray-200 bg-gray-50 p-4 lg:block"
          aria-label="Your order"
        >
          <h2 className="text-lg font-semibold">Contact</h2>
          <p className="text-sm">
            {[contact.firstName, contact.lastName].filter(Boolean).join(' ') ||
              'No Contact Information Provided'}
          </p>
          <h2 className="mt-4 text-lg font-semibold">Your {site?.cartName ?? 'Basket'}</h2>
          <ul className="mt-2 space-y-1 text-sm">
            {basket.items.map((i) => (
              <li key={i.id}>
                {i.quantity} x {i.product.name} - {money(i.line_total)}
              </li>
            ))}
          </ul>
          <div className="mt-3">
            <CartTotals cart={basket} currency={currency} testId="checkout-totals" />
          </div>
        </aside>
      </div>

      <LoginModal open={modal === 'login'} onClose={() => setModal(null)} />
      {customer
        ? (['contact', 'shipping', 'billing'] as const).map((section) => (
            <SavedModals
              key={section}
              section={section}
              customer={customer}
              countries={countries}
              modal={modal}
              onClose={() => setModal(null)}
              onPicked={(values, id) => {
                if (section === 'contact') setContact(values)
                else if (section === 'shipping') setShipping(values)
                else setBilling(values)
                setSaved((s) => ({ ...s, [section]: id }))
              }}
              reload={reloadCustomer}
            />
          ))
        : null}

      <Modal open={submitting} title="Processing" onClose={() => {}} testId="processing-modal">
        <p role="status">{CHECKOUT_TEXT.processing}</p>
      </Modal>
    </>
  )
}

function SavedButtons({
  section,
  onChange,
  onNew,
}: {
  section: Section
  onChange: () => void
  onNew: () => void
}) {
  const label =
    section === 'contact'
      ? 'Add New Contact'
      : section === 'shipping'
        ? 'New Shipping Address'
        : 'New Billing Address'
  return (
    <div className="mt-2 flex gap-3">
      <button type="button" className="underline" onClick={onChange}>
        Change
      </button>
      <button type="button" className="underline" onClick={onNew}>
        {label}
      </button>
    </div>
  )
}

function SavedModals({
  section,
  customer,
  countries,
  modal,
  onClose,
  onPicked,
  reload,
}: {
  section: Section
  customer: CustomerData
  countries: { code: string; name: string }[]
  modal: string | null
  onClose: () => void
  onPicked: (values: Values, id: number) => void
  reload: () => Promise<CustomerData | null>
}) {
  const [values, setValues] = useState<Values>(section === 'contact' ? EMPTY_CONTACT : EMPTY_ADDRESS)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [message, setMessage] = useState('')
  const entries: (Contact | Address)[] =
    section === 'contact' ? customer.contacts : customer.addresses.filter((a) => a.type === section)
  const title =
    section === 'contact' ? 'Contact' : section === 'shipping' ? 'Shipping Address' : 'Billing Address'
  const describe = (e: Contact | Address) =>
    'firstName' in e
      ? `${e.firstName} ${e.lastName}, ${e.email}, ${e.phone}`
      : [e.company, e.address1, e.address2, e.town, e.postcode, e.country].filter(Boolean).join(', ')
  const toValues = (e: Contact | Address): Values => ('firstName' in e ? contactValues(e) : addressValues(e))
  const kind = section === 'contact' ? 'contact' : section
  const local = checkoutErrors(kind, values)

  const pick = async (e: Contact | Address) => {
    await sendJson('POST', '/customer/update-contact', { section, id: e.id })
    await reload()
    onPicked(toValues(e), e.id)
    onClose()
  }
  const add = async () => {
    setMessage('')
    const flag =
      section === 'contact'
        ? 'selectNewContact'
        : section === 'shipping'
          ? 'selectNewShipping'
          : 'selectNewBilling'
    const { ok, data } = await sendJson('POST', '/customer/update-contact', {
      section,
      data: values,
      [flag]: true,
    })
    if (!ok) {
      const fieldErrors = (data?.errors ?? {}) as Record<string, string[]>
      setErrors(
        Object.fromEntries(
          Object.entries(fieldErrors).map(([k, v]) => [k.replace(/^data\./, ''), v[0] ?? '']),
        ),
      )
      setMessage(
        typeof data?.message === 'string' ? data.message : 'Errors occurred when submitting your details',
      )
      return
    }
    const user = (data?.user ?? (await reload())) as CustomerData
    const chosen =
      section === 'contact'
        ? user.primaryContact
        : section === 'shipping'
          ? user.shippingAddress
          : user.billingAddress
    await reload()
    if (chosen) onPicked(toValues(chosen), chosen.id)
    onClose()
  }

  return (
    <>
      <Modal open={modal === `change-${section}`} title={`Change ${title}`} onClose={onClose}>
        <ul className="space-y-2">
          {entries.map((e) => (
            <li key={e.id}>
              <button
                type="button"
                className="w-full rounded border px-3 py-2 text-left hover:bg-gray-50"
                onClick={() => void pick(e)}
              >
                {describe(e)}
              </button>
            </li>
          ))}
        </ul>
      </Modal>
      <Modal
        open={modal === `new-${section}`}
        title={
          section === 'contact'
            ? 'Add New Contact'
            : section === 'shipping'
              ? 'New Shipping Address'
              : 'New Billing Address'
        }
        onClose={onClose}
      >
        <Fieldset
          legend={title}
          fields={section === 'contact' ? CONTACT_FIELDS : addressFields(section, countries)}
          values={values}
          errors={{ ...local, ...errors }}
          idPrefix={`new-${section}`}
          onChange={(v) => {
            setValues(v)
            setErrors({})
          }}
        />
        {message ? (
          <p className="mt-2 text-sm text-red-700" role="alert">
            {message}
          </p>
        ) : null}
        <button
          type="button"
          className={`${primaryButton} mt-4`}
          disabled={Object.keys(local).length > 0}
          onClick={() => void add()}
        >
          Add
        </button>
      </Modal>
    </>
  )
}

function LoginModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<string[]>([])
  const [processing, setProcessing] = useState(false)
  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    setProcessing(true)
    router.post(
      '/login',
      { email, password, remember: '', redirect: false },
      {
        preserveScroll: true,
        onSuccess: (page) => {
          const errs = (page.props.errors ?? {}) as Record<string, string>
          if (Object.keys(errs).length) setErrors(Object.values(errs))
          else window.location.reload()
        },
        onError: (errs) => setErrors(Object.values(errs)),
        onFinish: () => {
          setPassword('')
          setProcessing(false)
        },
      },
    )
  }
  return (
    <Modal open={open} title="Log In" onClose={onClose} testId="login-modal">
      <form onSubmit={submit} noValidate>
        {errors.length ? (
          <ul className="text-sm text-red-700" role="alert">
            {errors.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        ) : null}
        <label htmlFor="login-email" className="mt-2 block text-sm font-medium">
          Email
        </label>
        <input
          id="login-email"
          type="email"
          autoComplete="email"
          className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <label htmlFor="login-password" className="mt-2 block text-sm font-medium">
          Password
        </label>
        <input
          id="login-password"
          type="password"
          autoComplete="current-password"
          className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <p className="mt-2 text-sm">
          <a href="/forgot-password" className="underline">
            Forgot your password?
          </a>
        </p>
        <button type="submit" className={`${primaryButton} mt-4`} disabled={processing}>
          Log In
        </button>
      </form>
    </Modal>
  )
}
