/**
 * Customer/EditYourDetails 'Edit Details' (spec §2, §4 Account, §5, §7, §8): contacts and shipping
 * and billing addresses, each selectable (made primary), editable and deletable (not the primary
 * one), new ones added with the duplicate rules; saved cards with remove. The shared rules check
 * every field on blur and submit; the server checks them again and its messages go under the field.
 */
import { router } from '@inertiajs/react'
import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { useFocusFirstInvalid } from '../../lib/focus-invalid.ts'
import { ACCOUNT_TEXT } from '../../../shared/account-text.ts'
import type { EditDetailsProps } from '../../../shared/account.ts'
import { fieldErrors } from '../../../shared/cart.schemas.ts'
import {
  addressDataSchema,
  contactDataSchema,
  CUSTOMER_TEXT,
  type Address,
  type Contact,
  type Country,
  type Section,
} from '../../../shared/customer.ts'
import {
  AccountLayout,
  failureText,
  mainButton,
  smallButton,
  type Notice,
} from '../../components/account/AccountLayout.tsx'
import { requestJson, type JsonAnswer } from '../../lib/json-client.ts'

type Values = Record<string, string>

interface FieldDef {
  name: string
  label: string
  required?: boolean
  type?: 'text' | 'email' | 'tel' | 'country'
  autoComplete?: string
}

const CONTACT_FIELDS: FieldDef[] = [
  { name: 'firstName', label: 'First name', required: true, autoComplete: 'given-name' },
  { name: 'lastName', label: 'Last name', required: true, autoComplete: 'family-name' },
  { name: 'email', label: 'Email', required: true, type: 'email', autoComplete: 'email' },
  { name: 'phone', label: 'Phone', required: true, type: 'tel', autoComplete: 'tel' },
  { name: 'company', label: 'Company', autoComplete: 'organization' },
]

function addressFields(section: 'shipping' | 'billing', club: boolean): FieldDef[] {
  return [
    { name: 'company', label: club ? 'Club' : 'Company', required: club, autoComplete: 'organization' },
    { name: 'address1', label: 'Address 1', required: true, autoComplete: 'address-line1' },
    { name: 'address2', label: 'Address 2', autoComplete: 'address-line2' },
    { name: 'town', label: 'Town', required: true, autoComplete: 'address-level2' },
    { name: 'county', label: 'County', autoComplete: 'address-level1' },
    { name: 'postcode', label: 'Postcode', required: true, autoComplete: 'postal-code' },
    {
      name: 'country',
      label: 'Country',
      required: section === 'shipping',
      type: 'country',
      autoComplete: 'country',
    },
  ]
}

const EMPTY: Record<Section, Values> = {
  contact: { firstName: '', lastName: '', email: '', phone: '', company: '' },
  shipping: { company: '', address1: '', address2: '', town: '', county: '', postcode: '', country: 'GB' },
  billing: { company: '', address1: '', address2: '', town: '', county: '', postcode: '', country: 'GB' },
}

type CallResult = JsonAnswer<{ message?: string; errors?: Record<string, string[]> }>

const send = (method: 'POST' | 'PATCH', url: string, data: unknown): Promise<CallResult> =>
  requestJson(method, url, data)

/** Server field errors (data.firstName) as form field errors (firstName). */
function serverErrors(body: CallResult['data']): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(body?.errors ?? {})) out[k.replace(/^data\./, '')] = v[0] ?? ''
  return out
}

export default function EditYourDetails({ greeting, user, countries, club, cards }: EditDetailsProps) {
  const [notice, setNotice] = useState<Notice | null>(null)
  const done = (n: Notice) => {
    setNotice(n)
    if (n.kind === 'success') router.reload({ only: ['user', 'cards'] })
  }
  const contacts = user.contacts
  const shipping = user.addresses.filter((a) => a.type === 'shipping')
  const billing = user.addresses.filter((a) => a.type === 'billing')
  return (
    <AccountLayout
      title="Edit Details"
      titleFor={{ page: 'editDetails' }}
      greeting={greeting}
      here="/customer/update"
      notice={notice}
    >
      <p className="text-sm text-gray-700">Fields marked * are required.</p>
      <Book
        section="contact"
        title="Contacts"
        addLabel="Add New Contact"
        entries={contacts}
        countries={countries}
        club={club}
        onDone={done}
      />
      <Book
        section="shipping"
        title="Shipping addresses"
        addLabel="New Shipping Address"
        entries={shipping}
        countries={countries}
        club={club}
        onDone={done}
      />
      <Book
        section="billing"
        title="Billing addresses"
        addLabel="New Billing Address"
        entries={billing}
        countries={countries}
        club={club}
        onDone={done}
      />
      <Cards cards={cards} onDone={done} />
    </AccountLayout>
  )
}

function describe(section: Section, e: Contact | Address): string {
  if (section === 'contact') {
    const c = e as Contact
    return [`${c.firstName} ${c.lastName}`, c.email, c.phone, c.company].filter(Boolean).join(', ')
  }
  const a = e as Address
  return [a.company, a.address1, a.address2, a.town, a.county, a.postcode, a.country]
    .filter(Boolean)
    .join(', ')
}

function valuesOf(section: Section, e: Contact | Address): Values {
  const out: Values = {}
  for (const k of Object.keys(EMPTY[section]))
    out[k] = String((e as unknown as Record<string, unknown>)[k] ?? '')
  return out
}

function Book({
  section,
  title,
  addLabel,
  entries,
  countries,
  club,
  onDone,
}: {
  section: Section
  title: string
  addLabel: string
  entries: (Contact | Address)[]
  countries: Country[]
  club: boolean
  onDone: (n: Notice) => void
}) {
  const [editing, setEditing] = useState<number | 'new' | null>(null)
  /** The entry whose deletion is being asked about */
  const [confirming, setConfirming] = useState<number | null>(null)
  const [busy, setBusy] = useState(false)
  const headingId = useId()
  const noun = section === 'contact' ? 'contact' : `${section} address`

  const call = async (
    method: 'POST' | 'PATCH',
    payload: unknown,
    success: string = CUSTOMER_TEXT.edited,
  ): Promise<CallResult> => {
    setBusy(true)
    const res = await send(method, '/customer/update-contact', payload)
    setBusy(false)
    if (res.ok) {
      setEditing(null)
      setConfirming(null)
      onDone({ kind: 'success', text: success })
    } else {
      onDone({ kind: 'error', text: failureText(res.data, CUSTOMER_TEXT.failed) })
    }
    return res
  }

  return (
    <section aria-labelledby={headingId} className="mt-6" data-testid={`book-${section}`}>
      <h2 id={headingId} className="text-xl font-semibold">
        {title}
      </h2>
      <ul className="mt-2 space-y-2">
        {entries.map((e) => (
          <li key={e.id} className="rounded-md border border-gray-200 p-3" data-testid={`${section}-entry`}>
            <p className="text-sm">
              {describe(section, e)}{' '}
              {e.primary ? (
                <span className="ml-1 rounded bg-gray-200 px-2 py-0.5 text-xs font-semibold">Primary</span>
              ) : null}
            </p>
            {editing === e.id ? (
              <EntryForm
                section={section}
                club={club}
                countries={countries}
                initial={valuesOf(section, e)}
                submitLabel={`Save ${noun}`}
                busy={busy}
                onCancel={() => setEditing(null)}
                onSubmit={(data) => call('PATCH', { section, id: e.id, data })}
              />
            ) : confirming === e.id ? (
              <ConfirmDelete
                question={ACCOUNT_TEXT.entryDeleteAsk(noun, describe(section, e))}
                confirmLabel={`Delete ${noun}`}
                busy={busy}
                onKeep={() => {
                  setConfirming(null)
                  // Back to the Delete button the question came from.
                  setTimeout(() => document.getElementById(`${headingId}-delete-${e.id}`)?.focus())
                }}
                onDelete={() =>
                  void call(
                    'POST',
                    { type: 'delete', section, data: [{ id: e.id, delete: true }] },
                    ACCOUNT_TEXT.entryDeleted(noun, describe(section, e)),
                  )
                }
              />
            ) : (
              <div className="mt-2 flex flex-wrap gap-2">
                <button
                  type="button"
                  className={smallButton}
                  onClick={() => setEditing(e.id)}
                  aria-label={`Edit ${noun}: ${describe(section, e)}`}
                >
                  Edit
                </button>
                <button
                  type="button"
                  className={smallButton}
                  disabled={busy || e.primary}
                  onClick={() => void call('POST', { section, id: e.id })}
                  aria-label={`Make primary ${noun}: ${describe(section, e)}`}
                >
                  Make primary
                </button>
                <button
                  type="button"
                  className={smallButton}
                  disabled={busy || e.primary}
                  title={e.primary ? `The primary ${noun} cannot be deleted.` : undefined}
                  id={`${headingId}-delete-${e.id}`}
                  onClick={() => setConfirming(e.id)}
                  aria-label={`Delete ${noun}: ${describe(section, e)}`}
                >
                  Delete
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      {editing === 'new' ? (
        <div className="mt-3 rounded-md border border-gray-300 p-3">
          <h3 className="font-semibold">{addLabel}</h3>
          <EntryForm
            section={section}
            club={club}
            countries={countries}
            initial={EMPTY[section]}
            submitLabel={addLabel}
            disableWhileInvalid
            busy={busy}
            onCancel={() => setEditing(null)}
            onSubmit={(data) => call('POST', { section, data })}
          />
        </div>
      ) : (
        <button type="button" className={`${smallButton} mt-3`} onClick={() => setEditing('new')}>
          {addLabel}
        </button>
      )}
    </section>
  )
}

/**
 * Deleting asks first, in place (WCAG 3.3.4): the question names what goes, focus moves to it,
 * and 'Keep' (or Escape) leaves everything as it was.
 */
function ConfirmDelete({
  question,
  confirmLabel,
  busy,
  onKeep,
  onDelete,
}: {
  question: string
  confirmLabel: string
  busy: boolean
  onKeep: () => void
  onDelete: () => void
}) {
  const id = useId()
  const keepRef = useRef<HTMLButtonElement>(null)
  useEffect(() => keepRef.current?.focus(), [])
  return (
    <div
      role="group"
      aria-labelledby={id}
      className="mt-2 rounded-md border border-red-300 bg-red-50 p-3"
      data-testid="confirm-delete"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onKeep()
      }}
    >
      <p id={id} className="text-sm font-semibold text-red-900">
        {question}
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        <button type="button" className={smallButton} onClick={onDelete} disabled={busy}>
          {confirmLabel}
        </button>
        <button type="button" className={smallButton} onClick={onKeep} ref={keepRef} data-testid="keep-entry">
          Keep
        </button>
      </div>
    </div>
  )
}

function EntryForm({
  section,
  club,
  countries,
  initial,
  submitLabel,
  disableWhileInvalid = false,
  busy,
  onCancel,
  onSubmit,
}: {
  section: Section
  club: boolean
  countries: Country[]
  initial: Values
  submitLabel: string
  disableWhileInvalid?: boolean
  busy: boolean
  onCancel: () => void
  onSubmit: (data: Values) => Promise<CallResult>
}) {
  const [values, setValues] = useState<Values>(initial)
  const [touched, setTouched] = useState<Record<string, boolean>>({})
  const [server, setServer] = useState<Record<string, string>>({})
  const [submitted, setSubmitted] = useState(false)
  const fields = section === 'contact' ? CONTACT_FIELDS : addressFields(section, club)
  const schema = useMemo(
    () => (section === 'contact' ? contactDataSchema : addressDataSchema(section, { club })),
    [section, club],
  )
  const parsed = schema.safeParse(values)
  const errors = parsed.success ? {} : fieldErrors(parsed.error)
  const errorFor = (name: string) => server[name] || ((touched[name] || submitted) && errors[name]?.[0]) || ''
  const uid = useId()

  const form = useRef<HTMLFormElement>(null)
  const [failed, setFailed] = useState(0)
  // A refused save: the focus goes to the first field in error (its message is its description).
  useFocusFirstInvalid(form, failed)
  const submit = async () => {
    setSubmitted(true)
    if (!parsed.success) return setFailed((n) => n + 1)
    const res = await onSubmit(values)
    if (!res.ok) {
      setServer(serverErrors(res.data))
      setFailed((n) => n + 1)
    }
  }

  return (
    <form
      ref={form}
      noValidate
      className="mt-2 grid gap-3 sm:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
    >
      {fields.map((f) => {
        const id = `${uid}-${f.name}`
        const error = errorFor(f.name)
        const common = {
          id,
          name: f.name,
          value: values[f.name] ?? '',
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? `${id}-error` : undefined,
          'aria-required': f.required || undefined,
          autoComplete: f.autoComplete,
          onBlur: () => setTouched((t) => ({ ...t, [f.name]: true })),
          className: `mt-1 block w-full rounded border px-3 py-2 ${error ? 'border-red-600' : 'border-gray-400'}`,
        }
        const change = (v: string) => {
          setValues((old) => ({ ...old, [f.name]: v }))
          setServer((s) => {
            const { [f.name]: _drop, form: _form, ...rest } = s
            return rest
          })
        }
        return (
          <div key={f.name}>
            <label htmlFor={id} className="block text-sm font-medium">
              {f.label}
              {f.required ? (
                <span aria-hidden="true" className="text-red-700">
                  {' '}
                  *
                </span>
              ) : null}
            </label>
            {f.type === 'country' ? (
              <select {...common} onChange={(e) => change(e.target.value)}>
                <option value="">Please choose one</option>
                {countries.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.name}
                  </option>
                ))}
              </select>
            ) : (
              <input {...common} type={f.type ?? 'text'} onChange={(e) => change(e.target.value)} />
            )}
            {error ? (
              <p id={`${id}-error`} className="mt-1 text-sm text-red-700" data-testid={`error-${f.name}`}>
                {error}
              </p>
            ) : null}
          </div>
        )
      })}
      {server.form || server.id ? (
        <p className="text-sm font-semibold text-red-700 sm:col-span-2" role="alert">
          {server.form || server.id}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2 sm:col-span-2">
        <button
          type="submit"
          className={mainButton}
          disabled={busy || (disableWhileInvalid && !parsed.success)}
        >
          {submitLabel}
        </button>
        <button type="button" className={smallButton} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}

function Cards({ cards, onDone }: { cards: EditDetailsProps['cards']; onDone: (n: Notice) => void }) {
  const [busy, setBusy] = useState(false)
  const remove = async (id: number) => {
    setBusy(true)
    const res = await send('POST', '/customer/destroy-card', { id })
    setBusy(false)
    if (res.ok) onDone({ kind: 'success', text: res.data?.message || ACCOUNT_TEXT.cardRemoved })
    else onDone({ kind: 'error', text: ACCOUNT_TEXT.cardFailed })
  }
  return (
    <section aria-labelledby="cards-heading" className="mt-8">
      <h2 id="cards-heading" className="text-xl font-semibold">
        Saved cards
      </h2>
      {cards.length === 0 ? (
        <p className="mt-2">{ACCOUNT_TEXT.noCards}</p>
      ) : (
        <ul className="mt-2 space-y-2">
          {cards.map((c) => (
            <li
              key={c.id}
              className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-gray-200 p-3"
              data-testid="saved-card"
            >
              <span>
                {c.cardType} ending {c.last4Digits}
                {c.expiry ? `, expires ${c.expiry.slice(0, 2)}/${c.expiry.slice(2)}` : ''}
              </span>
              <button
                type="button"
                className={smallButton}
                disabled={busy}
                onClick={() => void remove(c.id)}
                aria-label={`Remove ${c.cardType} ending ${c.last4Digits}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
