/**
 * Checkout form pieces: a field rendered from its metadata (§3 Field metadata) with the §5
 * validation, the contact and address fieldsets, and the address search (§5, §7).
 */
import { useEffect, useId, useRef, useState } from 'react'
import {
  CHECKOUT,
  CHECKOUT_TEXT,
  checkoutAddressSchema,
  checkoutContactSchema,
  type FieldMeta,
} from '../../../shared/checkout.ts'

export type Values = Record<string, string>

/** Field errors of a contact or address by the checkout rules (empty when valid). */
export function checkoutErrors(
  kind: 'contact' | 'shipping' | 'billing',
  values: Values,
): Record<string, string> {
  const schema = kind === 'contact' ? checkoutContactSchema : checkoutAddressSchema(kind)
  const r = schema.safeParse(values)
  const out: Record<string, string> = {}
  if (!r.success) for (const i of r.error.issues) out[String(i.path[0])] ??= i.message
  return out
}

export function Field({
  meta,
  value,
  error,
  onChange,
  idPrefix,
}: {
  meta: FieldMeta
  value: string
  error?: string | undefined
  onChange: (v: string) => void
  idPrefix: string
}) {
  const id = `${idPrefix}-${meta.name}`
  const errorId = `${id}-error`
  const common = {
    id,
    name: meta.name,
    'aria-required': meta.required || undefined,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
    readOnly: meta.readonly,
    // A select cannot be read-only: a read-only one (wallet details, §4) is disabled instead.
    disabled: meta.type === 'select' && meta.readonly ? true : undefined,
    autoComplete: meta.autoComplete,
    className: `mt-1 block w-full rounded-md border px-3 py-2 shadow-sm focus:border-primary focus:ring-1 focus:ring-primary focus:outline-none ${error ? 'border-red-600' : 'border-gray-300'}`,
  }
  // A select whose value is not one of its options is reset to empty (§5).
  const options = meta.options ?? []
  const selectValue = options.some((o) => o.value === value) ? value : ''
  return (
    <div className="mt-3">
      <label htmlFor={id} className="block text-sm font-medium text-gray-800">
        {meta.label}
        {meta.required ? (
          <span aria-hidden="true" className="text-red-700">
            {' '}
            *
          </span>
        ) : null}
      </label>
      {meta.type === 'select' ? (
        <select {...common} value={selectValue} onChange={(e) => onChange(e.target.value)}>
          <option value="">Please choose one</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : meta.type === 'textarea' ? (
        <textarea {...common} value={value} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input
          {...common}
          type={meta.validation === 'email' ? 'email' : meta.validation === 'phone' ? 'tel' : 'text'}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700" data-testid={`error-${idPrefix}-${meta.name}`}>
          {error}
        </p>
      ) : null}
    </div>
  )
}

export function Fieldset({
  legend,
  fields,
  values,
  errors,
  onChange,
  idPrefix,
  children,
}: {
  legend: string
  fields: FieldMeta[]
  values: Values
  errors: Record<string, string>
  onChange: (values: Values) => void
  idPrefix: string
  children?: React.ReactNode
}) {
  return (
    <fieldset className="mt-4" data-testid={`fieldset-${idPrefix}`}>
      <legend className="text-lg font-semibold">{legend}</legend>
      {children}
      <div className="grid gap-x-4 sm:grid-cols-2">
        {fields.map((f) => (
          <Field
            key={f.name}
            meta={f}
            idPrefix={idPrefix}
            value={values[f.name] ?? ''}
            error={errors[f.name]}
            onChange={(v) => onChange({ ...values, [f.name]: v })}
          />
        ))}
      </div>
    </fieldset>
  )
}

interface Match {
  id: string
  label: string
  address: Values
}

/**
 * Address search: starts after more than one character, at most once a second, each new search
 * cancelling the one under way; picking a match fills the address fields.
 */
export function AddressSearch({
  url,
  onPick,
  idPrefix,
}: {
  url: string
  onPick: (a: Values) => void
  idPrefix: string
}) {
  const id = useId()
  const [query, setQuery] = useState('')
  const [state, setState] = useState<'idle' | 'searching' | 'done'>('idle')
  const [matches, setMatches] = useState<Match[]>([])
  const last = useRef(0)
  const controller = useRef<AbortController | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)

  useEffect(() => {
    if (timer.current) clearTimeout(timer.current)
    if (query.trim().length <= 1) {
      // Too short to search: cancel the one under way; the list is hidden below.
      controller.current?.abort()
      return
    }
    const wait = Math.max(0, last.current + CHECKOUT.addressSearchThrottleMs - Date.now())
    timer.current = setTimeout(() => {
      controller.current?.abort()
      const c = new AbortController()
      controller.current = c
      last.current = Date.now()
      setState('searching')
      fetch(`${url}?${new URLSearchParams({ searchInput: query })}`, {
        signal: c.signal,
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
      })
        .then((r) => r.json() as Promise<{ matches: Match[] }>)
        .then((body) => {
          setMatches(body.matches ?? [])
          setState('done')
        })
        .catch((err: unknown) => {
          if ((err as { name?: string }).name !== 'AbortError') setState('done')
        })
    }, wait)
    return () => {
      if (timer.current) clearTimeout(timer.current)
    }
  }, [query, url])

  const active = query.trim().length > 1
  return (
    <div className="mt-3" data-testid={`address-search-${idPrefix}`}>
      <label htmlFor={id} className="block text-sm font-medium text-gray-800">
        Search for your address
      </label>
      <input
        id={id}
        type="search"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2 shadow-sm"
        autoComplete="off"
        aria-describedby={`${id}-status`}
      />
      <p id={`${id}-status`} role="status" className="mt-1 text-sm text-gray-700">
        {!active
          ? ''
          : state === 'searching'
            ? 'Searching...'
            : state === 'done' && matches.length === 0
              ? 'No results found'
              : ''}
      </p>
      {active && matches.length > 0 ? (
        <ul className="mt-1 divide-y rounded border border-gray-200">
          {matches.map((m) => (
            <li key={m.id}>
              <button
                type="button"
                className="w-full px-3 py-2 text-left hover:bg-gray-100 focus:bg-gray-100"
                onClick={() => {
                  onPick(m.address)
                  setQuery('')
                  setMatches([])
                  setState('idle')
                }}
              >
                {m.label}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

export const EMPTY_CONTACT: Values = { firstName: '', lastName: '', email: '', phone: '', company: '' }
export const EMPTY_ADDRESS: Values = {
  company: '',
  address1: '',
  address2: '',
  town: '',
  county: '',
  postcode: '',
  country: '',
}

export { CHECKOUT_TEXT }
