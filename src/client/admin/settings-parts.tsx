/**
 * Parts of the back office's content, search, token and webhook pages: the site picker, a notice
 * that takes the focus after an action (so a keyboard or screen reader user hears what happened
 * and goes on from there), a secret shown once, and a button that posts one action.
 */
import { router, usePage } from '@inertiajs/react'
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react'
import { adminProps, csrfHeaders } from './admin-props.ts'

export interface SiteChoice {
  id: number
  name: string
}

/** Chooses the site a page shows (a GET form, so it works without script too). */
export function SitePicker({ sites, current, path }: { sites: SiteChoice[]; current: number; path: string }) {
  const id = useId()
  const [site, setSite] = useState(String(current))
  if (sites.length < 2) return null
  return (
    <form
      method="get"
      action={path}
      className="mt-3 flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault()
        router.get(path, { site })
      }}
    >
      <div>
        <label htmlFor={id} className="block text-sm font-medium text-gray-800">
          Site
        </label>
        <select
          id={id}
          name="site"
          value={site}
          onChange={(e) => setSite(e.target.value)}
          className="mt-1 rounded-md border border-gray-300 px-3 py-2"
        >
          {sites.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="rounded border border-gray-400 px-3 py-2">
        Show
      </button>
    </form>
  )
}

/** The outcome of an action: announced, and focused so the next Tab starts from it. */
export function FocusNotice({ message }: { message: string | null | undefined }) {
  const ref = useRef<HTMLParagraphElement>(null)
  useEffect(() => {
    if (message) ref.current?.focus()
  }, [message])
  return (
    <div role="status" aria-live="polite">
      {message ? (
        <p
          ref={ref}
          tabIndex={-1}
          className="mt-4 rounded border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-900"
        >
          {message}
        </p>
      ) : null}
    </div>
  )
}

/** A form-wide refusal: announced at once and focused. */
export function FocusError({ message }: { message: string | undefined }) {
  const ref = useRef<HTMLParagraphElement>(null)
  useEffect(() => {
    if (message) ref.current?.focus()
  }, [message])
  if (!message) return null
  return (
    <p
      ref={ref}
      role="alert"
      tabIndex={-1}
      className="mt-4 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800"
    >
      {message}
    </p>
  )
}

/** A secret shown this once (a new token, a webhook signing secret), with the focus on it. */
export function SecretOnce({
  title,
  secret,
  label,
  children,
}: {
  title: string
  secret: string
  label: string
  children?: ReactNode
}) {
  const ref = useRef<HTMLHeadingElement>(null)
  const id = useId()
  const [copied, setCopied] = useState(false)
  useEffect(() => ref.current?.focus(), [secret])
  return (
    <section
      aria-labelledby={`${id}-h`}
      className="mt-4 rounded-lg border-2 border-amber-500 bg-amber-50 p-4 text-sm"
    >
      <h2 id={`${id}-h`} ref={ref} tabIndex={-1} className="text-lg font-semibold">
        {title}
      </h2>
      <p className="mt-1 font-medium">
        Copy it now and keep it somewhere safe: it is shown only this once. The shop keeps no copy; if it is
        lost, make a new one.
      </p>
      {children}
      <label htmlFor={id} className="mt-3 block font-medium">
        {label}
      </label>
      <input
        id={id}
        readOnly
        value={secret}
        onFocus={(e) => e.currentTarget.select()}
        className="mt-1 block w-full rounded border border-gray-400 bg-white px-2 py-1 font-mono"
      />
      <button
        type="button"
        className="mt-2 rounded border border-gray-500 bg-white px-3 py-1"
        onClick={() => {
          void navigator.clipboard?.writeText(secret).then(() => setCopied(true))
        }}
      >
        Copy
      </button>
      <span role="status" className="ml-2">
        {copied ? 'Copied.' : ''}
      </span>
    </section>
  )
}

/** Posts one action (the back office's CSRF header, the scroll kept), after a confirmation if asked. */
export function usePost() {
  const page = usePage()
  const { admin } = adminProps(page.props)
  return (url: string, data: Record<string, unknown>, confirm?: string) => {
    if (confirm && !window.confirm(confirm)) return
    router.post(url, data as never, { headers: csrfHeaders(admin), preserveScroll: true })
  }
}

export function ActionButton({
  children,
  onClick,
  danger = false,
}: {
  children: ReactNode
  onClick: () => void
  danger?: boolean
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      className={`rounded border px-2 py-1 ${danger ? 'border-red-700 text-red-800' : 'border-gray-400'}`}
    >
      {children}
    </button>
  )
}

/** After a refused submit, the focus goes to the first field marked invalid in the form. */
export function useFocusFirstError(
  form: RefObject<HTMLFormElement | null>,
  ...errors: Record<string, string | undefined>[]
) {
  const key = errors
    .map((e) =>
      Object.keys(e)
        .filter((k) => e[k])
        .join(','),
    )
    .join(';')
  useEffect(() => {
    if (!key.replace(/;/g, '')) return
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [key, form])
}

/** After a submit the page refused, the focus goes to the first invalid field (once it is drawn). */
export function focusFirstInvalidSoon(form: RefObject<HTMLFormElement | null>) {
  requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus())
}

/** The server's field errors of the page (a refused submit). */
export function usePageErrors(): Record<string, string | undefined> {
  return (usePage().props.errors ?? {}) as Record<string, string | undefined>
}
