/**
 * The checkout form's state (§3 Checkout form): contact, shipping and billing with the saved
 * entries they came from, the separate-billing choice, VAT number and notes; their §5 errors and
 * validity; and the server's field errors of the last submit, kept until the field changes.
 */
import { useMemo, useState } from 'react'
import { CHECKOUT_TEXT } from '../../shared/checkout.ts'
import { countryInList } from '../../shared/checkout-rules.ts'
import type { CustomerData } from '../../shared/customer.ts'
import { addressValues, contactValues } from './checkout-data.ts'
import { checkoutErrors, EMPTY_ADDRESS, EMPTY_CONTACT, type Values } from './fields.tsx'
import type { Section } from './SavedDialogs.tsx'

type Saved = Record<Section, number | null>

export function useCheckoutForm(
  customer: CustomerData | null,
  countries: { code: string; name: string }[],
  isWallet: boolean,
) {
  const [contact, setContact] = useState<Values>(contactValues(customer?.primaryContact ?? null))
  const [shipping, setShipping] = useState<Values>(addressValues(customer?.shippingAddress ?? null))
  const [billing, setBilling] = useState<Values>(addressValues(customer?.billingAddress ?? null))
  const [showingBilling, setShowingBilling] = useState(false)
  const [saved, setSaved] = useState<Saved>({
    contact: customer?.primaryContact?.id ?? null,
    shipping: customer?.shippingAddress?.id ?? null,
    billing: customer?.billingAddress?.id ?? null,
  })
  const [vatNumber, setVatNumber] = useState('')
  const [notes, setNotes] = useState('')
  /** The server's field errors of the last submit, by `section.field`, until the field changes */
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({})

  const contactErrors = useMemo(() => checkoutErrors('contact', contact), [contact])
  const shippingErrors = useMemo(() => {
    const e = checkoutErrors('shipping', shipping)
    if (!e.country && !countryInList(countries, shipping.country)) e.country = CHECKOUT_TEXT.countryInvalid
    return e
  }, [shipping, countries])
  const billingErrors = useMemo(() => checkoutErrors('billing', billing), [billing])
  // §5: the form is valid if PayPal or Amazon is used (the provider's details are used).
  const formValid =
    isWallet ||
    (Object.keys(contactErrors).length === 0 &&
      Object.keys(shippingErrors).length === 0 &&
      (!showingBilling || Object.keys(billingErrors).length === 0))

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

  const edit = (section: Section, values: Values) => {
    clearServer(section)
    if (section === 'contact') setContact(values)
    else if (section === 'shipping') {
      setShipping(values)
      // Billing follows shipping unless a separate billing address is shown (§4).
      if (!showingBilling) setBilling(values)
    } else setBilling(values)
    setSaved((s) => ({ ...s, [section]: null }))
  }
  const pick = (section: Section, values: Values, id: number) => {
    clearServer(section)
    if (section === 'contact') setContact(values)
    else if (section === 'shipping') {
      setShipping(values)
      if (!showingBilling) setBilling(values)
    } else setBilling(values)
    setSaved((s) => ({ ...s, [section]: id }))
  }
  const showBilling = (show: boolean) => {
    setShowingBilling(show)
    // Unticking 'Bill to a different address.' copies shipping to billing (§4).
    if (!show) setBilling(shipping)
  }
  /** A wallet's details (§4): contact and shipping imported, billing copies shipping. */
  const importWallet = (c: Values, address: Values) => {
    const imported = { ...EMPTY_ADDRESS, ...address }
    setContact({ ...EMPTY_CONTACT, ...c })
    setShipping(imported)
    setBilling(imported)
    setShowingBilling(false)
    setSaved({ contact: null, shipping: null, billing: null })
    setServerErrors({})
  }
  /** Logged out: everything that was the customer's is forgotten. */
  const reset = () => {
    setContact(EMPTY_CONTACT)
    setShipping(EMPTY_ADDRESS)
    setBilling(EMPTY_ADDRESS)
    setShowingBilling(false)
    setSaved({ contact: null, shipping: null, billing: null })
    setVatNumber('')
    setNotes('')
    setServerErrors({})
  }

  return {
    contact,
    shipping,
    billing,
    showingBilling,
    saved,
    vatNumber,
    notes,
    serverErrors,
    contactErrors,
    shippingErrors,
    billingErrors,
    formValid,
    setVatNumber,
    setNotes,
    setServerErrors,
    serverFor,
    clearServer,
    edit,
    pick,
    showBilling,
    setShowingBilling,
    importWallet,
    reset,
  }
}

export type CheckoutForm = ReturnType<typeof useCheckoutForm>
