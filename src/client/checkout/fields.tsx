/**
 * Checkout form pieces: a field rendered from its metadata (§3 Field metadata) with the §5
 * validation, and the contact and address fieldsets. A field's message shows once the buyer has
 * left it (blur) and then follows every keystroke, so it disappears as the value is corrected;
 * `showAll` (Continue or submit tried) shows every message at once.
 */
import { useState } from 'react'
import { checkoutAddressSchema, checkoutContactSchema, type FieldMeta } from '../../shared/checkout.ts'

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
  onBlur,
  idPrefix,
}: {
  meta: FieldMeta
  value: string
  error?: string | undefined
  onChange: (v: string) => void
  onBlur?: () => void
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
    onBlur,
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
      {/* A live region that exists before its message does: the message is announced on blur. */}
      <div aria-live="polite">
        {error ? (
          <p
            id={errorId}
            className="mt-1 text-sm text-red-700"
            data-testid={`error-${idPrefix}-${meta.name}`}
          >
            {error}
          </p>
        ) : null}
      </div>
    </div>
  )
}

export function Fieldset({
  legend,
  fields,
  values,
  errors,
  serverErrors = {},
  showAll,
  onChange,
  idPrefix,
  children,
}: {
  legend: string
  fields: FieldMeta[]
  values: Values
  /** The §5 messages of the values (shown for touched fields, or all with `showAll`) */
  errors: Record<string, string>
  /** The server's messages from the last submit: always shown */
  serverErrors?: Record<string, string>
  showAll: boolean
  onChange: (values: Values) => void
  idPrefix: string
  children?: React.ReactNode
}) {
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set())
  const shown = (name: string) =>
    serverErrors[name] ?? (showAll || touched.has(name) ? errors[name] : undefined)
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
            error={shown(f.name)}
            onChange={(v) => onChange({ ...values, [f.name]: v })}
            onBlur={() => setTouched((t) => (t.has(f.name) ? t : new Set(t).add(f.name)))}
          />
        ))}
      </div>
    </fieldset>
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
