/**
 * A logged-in buyer's saved contacts and addresses at checkout (§2 Modals, §7
 * /customer/update-contact): 'Change' picks a saved entry, 'Add New Contact' / 'New Shipping
 * Address' / 'New Billing Address' saves and selects a new one. A new entry's 'This field is
 * required.' shows only once its field was left or Add was tried; Add stays focusable and, while
 * the form is invalid, shows every message and focuses the first invalid field. After a pick or a
 * save the focus returns to the section's Change button and a status says what happened.
 */
import { useState } from 'react'
import { addressFields, CONTACT_FIELDS } from '../../shared/checkout.ts'
import type { Address, Contact, CustomerData } from '../../shared/customer.ts'
import { Modal, primaryButton } from '../components/cart/Modal.tsx'
import { requestJson } from '../lib/json-client.ts'
import { addressValues, contactValues, countryName, REQUIRED_NOTE } from './checkout-data.ts'
import { checkoutErrors, EMPTY_ADDRESS, EMPTY_CONTACT, Fieldset, type Values } from './fields.tsx'

export type Section = 'contact' | 'shipping' | 'billing'
export type CheckoutModal = null | 'login' | `change-${Section}` | `new-${Section}`

const NEW_LABEL: Record<Section, string> = {
  contact: 'Add New Contact',
  shipping: 'New Shipping Address',
  billing: 'New Billing Address',
}
const TITLE: Record<Section, string> = {
  contact: 'Contact',
  shipping: 'Shipping Address',
  billing: 'Billing Address',
}

/** Focus after a dialog: the section's Change button (rendered again by then). */
export function focusSection(section: Section) {
  setTimeout(() => document.getElementById(`${section}-change`)?.focus(), 0)
}

export function SavedButtons({
  section,
  status,
  onChange,
  onNew,
}: {
  section: Section
  status: string
  onChange: () => void
  onNew: () => void
}) {
  return (
    <div className="mt-2">
      <div className="flex gap-3">
        <button id={`${section}-change`} type="button" className="underline" onClick={onChange}>
          Change
        </button>
        <button type="button" className="underline" onClick={onNew}>
          {NEW_LABEL[section]}
        </button>
      </div>
      <p role="status" className="text-sm text-green-800">
        {status}
      </p>
    </div>
  )
}

export function SavedDialogs({
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
  modal: CheckoutModal
  onClose: () => void
  onPicked: (values: Values, id: number, status: string) => void
  reload: () => Promise<CustomerData | null>
}) {
  const [values, setValues] = useState<Values>(section === 'contact' ? EMPTY_CONTACT : EMPTY_ADDRESS)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [message, setMessage] = useState('')
  const [tried, setTried] = useState(false)
  const entries: (Contact | Address)[] =
    section === 'contact' ? customer.contacts : customer.addresses.filter((a) => a.type === section)
  const describe = (e: Contact | Address) =>
    'firstName' in e
      ? [`${e.firstName} ${e.lastName}`.trim(), e.email, e.phone].filter(Boolean).join(', ')
      : [e.company, e.address1, e.address2, e.town, e.postcode, countryName(e.country, countries)]
          .filter(Boolean)
          .join(', ')
  const toValues = (e: Contact | Address): Values => ('firstName' in e ? contactValues(e) : addressValues(e))
  const local = checkoutErrors(section, values)
  const invalid = Object.keys(local).length > 0
  const idPrefix = `new-${section}`

  const close = () => {
    setTried(false)
    setMessage('')
    onClose()
  }
  const pick = async (e: Contact | Address) => {
    await requestJson('POST', '/customer/update-contact', { section, id: e.id })
    await reload()
    onPicked(toValues(e), e.id, `${TITLE[section]} changed.`)
    close()
    focusSection(section)
  }
  const add = async () => {
    setMessage('')
    if (invalid) {
      setTried(true)
      setTimeout(
        () => document.querySelector<HTMLElement>(`#${idPrefix}-fields [aria-invalid="true"]`)?.focus(),
        0,
      )
      return
    }
    const flag =
      section === 'contact'
        ? 'selectNewContact'
        : section === 'shipping'
          ? 'selectNewShipping'
          : 'selectNewBilling'
    const { ok, data } = await requestJson('POST', '/customer/update-contact', {
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
    if (chosen) onPicked(toValues(chosen), chosen.id, `${TITLE[section]} saved.`)
    setValues(section === 'contact' ? EMPTY_CONTACT : EMPTY_ADDRESS)
    close()
    focusSection(section)
  }

  return (
    <>
      <Modal open={modal === `change-${section}`} title={`Change ${TITLE[section]}`} onClose={close}>
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
      <Modal open={modal === `new-${section}`} title={NEW_LABEL[section]} onClose={close}>
        <p className="text-sm text-gray-700">{REQUIRED_NOTE}</p>
        <div id={`${idPrefix}-fields`}>
          <Fieldset
            legend={TITLE[section]}
            fields={section === 'contact' ? CONTACT_FIELDS : addressFields(section, countries)}
            values={values}
            errors={local}
            serverErrors={errors}
            showAll={tried}
            idPrefix={idPrefix}
            onChange={(v) => {
              setValues(v)
              setErrors({})
            }}
          />
        </div>
        {message ? (
          <div className="mt-2 text-sm text-red-700" role="alert">
            {message}
          </div>
        ) : null}
        <p id={`${idPrefix}-add-help`} className="sr-only">
          {invalid ? 'Some fields are empty or invalid.' : ''}
        </p>
        <button
          type="button"
          className={`${primaryButton} mt-4 aria-disabled:cursor-not-allowed aria-disabled:opacity-60`}
          aria-disabled={invalid || undefined}
          aria-describedby={`${idPrefix}-add-help`}
          onClick={() => void add()}
        >
          Add
        </button>
      </Modal>
    </>
  )
}
