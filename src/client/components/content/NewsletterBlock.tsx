/**
 * Newsletter signup (spec §4): idle -> 'Signing up...' -> the configured message or 'Signed up!'.
 * A failure returns to idle with the error message and the form stays usable; a second submit
 * once signed up is ignored.
 */
import { useId, useRef, useState, type FormEvent } from 'react'
import {
  NEWSLETTER_ERROR,
  NEWSLETTER_SIGNED_UP,
  NEWSLETTER_SIGNING_UP,
  type PresentedBlok,
} from '../../../shared/content.ts'
import { requestJson } from '../../lib/json-client.ts'
import { Html } from './Html.tsx'
import { str } from './fields.ts'

export const NEWSLETTER_URL = '/newsletter/subscribe'
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

type State = 'idle' | 'signing-up' | 'signed-up'

export function NewsletterBlock({ blok }: { blok: PresentedBlok }) {
  const id = useId()
  const [state, setState] = useState<State>('idle')
  const [error, setError] = useState<string | null>(null)
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({})
  const busy = useRef(false)
  const firstNameRequired = blok.firstNameRequired === true
  const showFirstName = firstNameRequired || blok.show_first_name === true
  const done = str(blok.successMessage) || NEWSLETTER_SIGNED_UP

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    if (state === 'signed-up' || busy.current) return
    const form = new FormData(e.currentTarget)
    const email = String(form.get('email') ?? '').trim()
    const firstName = String(form.get('firstName') ?? '').trim()
    const errors: Record<string, string> = {}
    if (!email) errors.email = 'Please enter your email address.'
    else if (!EMAIL.test(email)) errors.email = 'Please enter a valid email address.'
    if (firstNameRequired && !firstName) errors.firstName = 'Please enter your first name.'
    setFieldErrors(errors)
    setError(null)
    if (Object.keys(errors).length) return
    busy.current = true
    setState('signing-up')
    const res = await requestJson<{ errors?: Record<string, string> }>('POST', NEWSLETTER_URL, {
      email,
      firstName,
      block: blok._uid,
      source: window.location.pathname,
    })
    busy.current = false
    if (res.status === 200) {
      setState('signed-up')
      return
    }
    if (res.status === 422 && res.data?.errors) setFieldErrors(res.data.errors)
    setError(NEWSLETTER_ERROR)
    setState('idle')
  }

  const input = 'mt-1 block w-full rounded-md border border-gray-300 px-3 py-2'
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-lg bg-gray-50 p-6" data-testid="newsletter">
      <h2 id={`${id}-title`} className="text-xl font-semibold">
        {str(blok.title, 'Newsletter')}
      </h2>
      <Html html={blok.text} className="mt-1" />
      <form
        noValidate
        onSubmit={submit}
        className="mt-4 grid gap-3 md:grid-cols-[1fr_1fr_auto] md:items-start"
      >
        {showFirstName ? (
          <div>
            <label htmlFor={`${id}-first`} className="text-sm font-medium">
              First name{firstNameRequired ? ' (required)' : ''}
            </label>
            <input
              id={`${id}-first`}
              name="firstName"
              autoComplete="given-name"
              maxLength={100}
              className={input}
              aria-invalid={fieldErrors.firstName ? true : undefined}
              aria-describedby={fieldErrors.firstName ? `${id}-first-error` : undefined}
            />
            {fieldErrors.firstName ? (
              <p id={`${id}-first-error`} className="mt-1 text-sm text-red-700">
                {fieldErrors.firstName}
              </p>
            ) : null}
          </div>
        ) : null}
        <div>
          <label htmlFor={`${id}-email`} className="text-sm font-medium">
            Email address (required)
          </label>
          <input
            id={`${id}-email`}
            name="email"
            type="email"
            autoComplete="email"
            maxLength={254}
            className={input}
            aria-invalid={fieldErrors.email ? true : undefined}
            aria-describedby={fieldErrors.email ? `${id}-email-error` : undefined}
          />
          {fieldErrors.email ? (
            <p id={`${id}-email-error`} className="mt-1 text-sm text-red-700">
              {fieldErrors.email}
            </p>
          ) : null}
        </div>
        <button
          type="submit"
          className="mt-6 inline-flex items-center justify-center gap-2 rounded-md bg-primary px-4 py-2 font-semibold text-on-primary disabled:opacity-60"
          disabled={state === 'signing-up'}
          aria-disabled={state === 'signed-up' || undefined}
        >
          {state === 'signing-up' ? (
            <>
              <span
                aria-hidden="true"
                className="h-4 w-4 animate-spin rounded-full border-2 border-current border-t-transparent"
              />
              {NEWSLETTER_SIGNING_UP}
            </>
          ) : state === 'signed-up' ? (
            done
          ) : (
            'Sign up'
          )}
        </button>
      </form>
      <Html html={blok.consent_text} className="mt-3 text-xs text-gray-600" />
      <div role="status" aria-live="polite" className="mt-2 text-sm">
        {state === 'signed-up' ? <p className="font-semibold text-green-800">{done}</p> : null}
        {error ? <p className="text-red-700">{error}</p> : null}
      </div>
    </section>
  )
}
