/**
 * Step 2 (§2): login or guest, then the contact, the delivery address, an optional different
 * billing address and (IE only, not for wallets) the VAT number. For PayPal and Amazon Pay the
 * provider's button comes first and its details are shown read-only once its order exists.
 * Every field's §5 message shows once the buyer leaves it and follows the corrections.
 */
import { addressFields, CONTACT_FIELDS } from '../../shared/checkout.ts'
import { VAT_NUMBER_MAX } from '../../shared/checkout-rules.ts'
import type { CustomerData } from '../../shared/customer.ts'
import { secondaryButton } from '../components/cart/Modal.tsx'
import { AddressSearch } from './AddressSearch.tsx'
import { Fieldset } from './fields.tsx'
import { SavedButtons, type CheckoutModal, type Section } from './SavedDialogs.tsx'
import type { CheckoutForm } from './use-checkout-form.ts'
import type { WalletOrder } from './payment/index.ts'

export function DetailsStep({
  form,
  customer,
  loggedInName,
  countries,
  addressSearchUrl,
  provider,
  isWallet,
  wallet,
  walletElement,
  showErrors,
  showVat,
  guestChosen,
  sectionStatus,
  onGuest,
  onLogout,
  onModal,
  fieldError,
}: {
  form: CheckoutForm
  customer: CustomerData | null
  /** 'Logged in as {name}': null for a guest (or once logged out here) */
  loggedInName: string | null
  countries: { code: string; name: string }[]
  addressSearchUrl: string
  provider: string
  isWallet: boolean
  wallet: WalletOrder | null
  walletElement: React.ReactNode
  showErrors: boolean
  showVat: boolean
  guestChosen: boolean
  sectionStatus: Record<Section, string>
  onGuest: () => void
  onLogout: () => void
  onModal: (m: CheckoutModal) => void
  fieldError: (key: string, id: string) => React.ReactNode
}) {
  const walletName = provider === 'paypal' ? 'PayPal' : 'Amazon Pay'
  /** Wallet details are the provider's: read-only (§4); PayPal may not share the phone. */
  const readOnly = <T extends { name: string }>(fields: T[], except: string[] = []): T[] =>
    isWallet ? fields.map((f) => (except.includes(f.name) ? f : { ...f, readonly: true })) : fields
  const saved = (section: Section) =>
    customer && !isWallet ? (
      <SavedButtons
        section={section}
        status={sectionStatus[section]}
        onChange={() => onModal(`change-${section}`)}
        onNew={() => onModal(`new-${section}`)}
      />
    ) : null

  return (
    <>
      <div className="rounded bg-gray-50 p-3" data-testid="login-area">
        {loggedInName !== null ? (
          <p>
            Logged in as {loggedInName}.{' '}
            <button type="button" className="underline" onClick={onLogout}>
              Not you? Log Out
            </button>
          </p>
        ) : (
          <div className="flex flex-wrap gap-3">
            <button type="button" className={secondaryButton} onClick={() => onModal('login')}>
              Login to Your Account
            </button>
            <button type="button" className={secondaryButton} aria-pressed={guestChosen} onClick={onGuest}>
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
            Pay with {walletName}
          </h3>
          <p className="text-sm">
            {wallet
              ? `Your name and address come from ${walletName} and cannot be changed here.`
              : `Your name and address come from ${walletName}: use the button below, then continue.`}
          </p>
          {walletElement}
        </section>
      ) : null}

      {isWallet && !wallet ? null : (
        <>
          <Fieldset
            legend="Contact Details"
            fields={readOnly(CONTACT_FIELDS, wallet?.contact.phone ? [] : ['phone'])}
            values={form.contact}
            errors={form.contactErrors}
            serverErrors={form.serverFor('contact')}
            showAll={showErrors}
            idPrefix="contact"
            onChange={(v) => form.edit('contact', v)}
          >
            {saved('contact')}
          </Fieldset>

          <Fieldset
            legend="Delivery Address"
            fields={readOnly(addressFields('shipping', countries))}
            values={form.shipping}
            errors={form.shippingErrors}
            serverErrors={form.serverFor('shipping')}
            showAll={showErrors}
            idPrefix="shipping"
            onChange={(v) => form.edit('shipping', v)}
          >
            {saved('shipping')}
            {isWallet ? null : (
              <AddressSearch
                url={addressSearchUrl}
                idPrefix="shipping"
                onPick={(a) => form.edit('shipping', { ...form.shipping, ...a })}
              />
            )}
          </Fieldset>
        </>
      )}

      {isWallet ? null : (
        <label className="mt-4 flex items-center gap-2">
          <input
            type="checkbox"
            checked={form.showingBilling}
            onChange={(e) => form.showBilling(e.target.checked)}
          />
          Bill to a different address.
        </label>
      )}
      {form.showingBilling && !isWallet ? (
        <Fieldset
          legend="Billing Address"
          fields={addressFields('billing', countries)}
          values={form.billing}
          errors={form.billingErrors}
          serverErrors={form.serverFor('billing')}
          showAll={showErrors}
          idPrefix="billing"
          onChange={(v) => form.edit('billing', v)}
        >
          {customer ? saved('billing') : null}
          <AddressSearch
            url={addressSearchUrl}
            idPrefix="billing"
            onPick={(a) => form.edit('billing', { ...form.billing, ...a })}
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
            value={form.vatNumber}
            maxLength={VAT_NUMBER_MAX}
            aria-describedby={form.serverErrors.VATNumber ? 'vat-number-error' : undefined}
            onChange={(e) => {
              form.clearServer('VATNumber')
              form.setVatNumber(e.target.value)
            }}
          />
          {fieldError('VATNumber', 'vat-number')}
        </div>
      ) : null}
    </>
  )
}
