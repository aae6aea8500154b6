/**
 * Building blocks of the authentication forms: labelled inputs with their error, a submit button
 * that is disabled with a spinner while processing, the red error list and the status message.
 */
import type { InputHTMLAttributes, ReactNode, Ref } from 'react'
import { useEffect, useId, useRef } from 'react'
import type { AuthStatus } from '../../../shared/auth.ts'

export function TextField({
  label,
  name,
  error,
  required,
  ref,
  ...input
}: {
  label: string
  name: string
  error?: string | undefined
  required?: boolean
  ref?: Ref<HTMLInputElement>
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'name'>) {
  const id = useId()
  const errorId = `${id}-error`
  return (
    <div className="mt-4">
      <label htmlFor={id} className="block text-sm font-medium text-gray-800">
        {label}
        {required ? (
          <span aria-hidden="true" className="text-red-700">
            {' '}
            *
          </span>
        ) : null}
      </label>
      <input
        ref={ref}
        id={id}
        name={name}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={`mt-1 block w-full rounded-md border px-3 py-2 shadow-sm focus:border-primary focus:ring-1 focus:ring-primary focus:outline-none ${error ? 'border-red-600' : 'border-gray-300'}`}
        {...input}
      />
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700" data-testid={`error-${name}`}>
          {error}
        </p>
      ) : null}
    </div>
  )
}

export function Checkbox({
  label,
  name,
  checked,
  onChange,
  error,
  required,
}: {
  label: ReactNode
  name: string
  checked: boolean
  onChange: (checked: boolean) => void
  /** The field's error message, shown under it and tied to it */
  error?: string
  required?: boolean
}) {
  const id = useId()
  const errorId = `${id}-error`
  return (
    <div className="mt-4">
      <div className="flex items-center gap-2">
        <input
          id={id}
          type="checkbox"
          name={name}
          checked={checked}
          required={required}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => onChange(e.target.checked)}
          className="h-4 w-4 rounded border-gray-300 accent-primary"
        />
        <label htmlFor={id} className="text-sm text-gray-700">
          {label}
        </label>
      </div>
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700" data-testid={`error-${name}`}>
          {error}
        </p>
      ) : null}
    </div>
  )
}

export function Spinner() {
  return (
    <svg className="h-4 w-4 animate-spin" viewBox="0 0 24 24" aria-hidden="true" data-testid="spinner">
      <circle cx="12" cy="12" r="10" stroke="currentColor" strokeWidth="4" fill="none" opacity="0.25" />
      <path d="M4 12a8 8 0 018-8" stroke="currentColor" strokeWidth="4" fill="none" />
    </svg>
  )
}

export function SubmitButton({ processing, children }: { processing: boolean; children: ReactNode }) {
  return (
    <button
      type="submit"
      disabled={processing}
      aria-busy={processing || undefined}
      className="inline-flex items-center gap-2 rounded-md bg-primary px-5 py-2.5 font-semibold text-on-primary hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-60"
    >
      {processing ? <Spinner /> : null}
      {children}
    </button>
  )
}

/** Errors as a red list (spec §8: "Login errors: list of messages in red"). */
export function ErrorList({ errors }: { errors: Record<string, string | undefined> }) {
  const messages = [...new Set(Object.values(errors).filter((m): m is string => Boolean(m)))]
  const box = useRef<HTMLDivElement>(null)
  const said = messages.join('\n')
  // A submit that failed moves the focus to the error summary (announced, and the next Tab goes
  // on to the form), each time the messages change.
  useEffect(() => {
    if (said) box.current?.focus()
  }, [said])
  if (messages.length === 0) return null
  return (
    // The alert is a box around the list: role="alert" on the <ul> itself would take away its
    // list role, leaving its <li>s outside any list (axe: listitem).
    <div
      ref={box}
      tabIndex={-1}
      role="alert"
      className="mb-4 rounded-md border border-red-300 bg-red-50 py-3 pr-3 pl-8 text-sm text-red-800"
      data-testid="error-list"
    >
      <ul className="list-disc">
        {messages.map((m) => (
          <li key={m}>{m}</li>
        ))}
      </ul>
    </div>
  )
}

/** A status message: red when it has a type, green without (spec §8). */
export function StatusMessage({ status }: { status: AuthStatus | null | undefined }) {
  if (!status?.message) return null
  const red = Boolean(status.type)
  return (
    <p
      role={red ? 'alert' : 'status'}
      data-testid="status"
      className={`mb-4 rounded-md border px-3 py-2 text-sm font-medium ${red ? 'border-red-300 bg-red-50 text-red-800' : 'border-green-300 bg-green-50 text-green-800'}`}
    >
      {status.message}
    </p>
  )
}

export function Heading({ children }: { children: ReactNode }) {
  return <h1 className="mb-4 text-2xl font-bold text-gray-900">{children}</h1>
}

/** The status flash of the current page as a message (codes mapped to their text). */
export function statusFrom(
  flash: { status?: string | AuthStatus },
  codes: Record<string, string> = {},
): AuthStatus | null {
  const s = flash.status
  if (!s) return null
  if (typeof s === 'string') return codes[s] ? { message: codes[s] } : null
  return s
}
