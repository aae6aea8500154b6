/**
 * Pieces the back office's edit pages share (catalogue, promotions, delivery rates): a labelled
 * field with its error under it (described by it, marked invalid), the page's answer (an error
 * announced as an alert, a notice as a status) which takes the focus after each action, amounts
 * as typed (pounds and pence) and the change posted with the back office's CSRF header.
 */
import { router, usePage } from '@inertiajs/react'
import { useEffect, useId, useRef, type ReactNode } from 'react'
import { FormError, Notice } from './AdminCard.tsx'
import { adminProps, csrfHeaders } from './admin-props.ts'

export const control =
  'mt-1 block w-full rounded-md border px-2 py-1.5 focus:border-primary focus:ring-2 focus:ring-primary focus:outline-none'

export function Field({
  label,
  error,
  hint,
  children,
  className = '',
}: {
  label: ReactNode
  error?: string | undefined
  hint?: string | undefined
  children: (props: {
    id: string
    'aria-describedby'?: string
    'aria-invalid'?: true
    className: string
  }) => ReactNode
  className?: string
}) {
  const id = useId()
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ')
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-gray-800">
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-gray-600">
          {hint}
        </p>
      ) : null}
      {children({
        id,
        ...(described ? { 'aria-describedby': described } : {}),
        ...(error ? { 'aria-invalid': true as const } : {}),
        className: `${control} ${error ? 'border-red-600' : 'border-gray-300'}`,
      })}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  )
}

/**
 * The answer to the last action: a form-wide error (alert) or a notice (status). It takes the
 * focus when it changes, so a keyboard or screen-reader user lands on what happened; when only
 * fields are wrong, the first invalid field takes it.
 */
export function Feedback({
  error,
  notice,
  fieldErrors = {},
}: {
  error?: string | undefined
  notice?: string | null | undefined
  fieldErrors?: Record<string, string>
}) {
  const ref = useRef<HTMLDivElement>(null)
  const count = Object.keys(fieldErrors).length
  // Once per answer from the server (each visit brings a new page object), not on every render.
  const visit = usePage()
  useEffect(() => {
    if (error || notice) ref.current?.focus()
    else if (count > 0) document.querySelector<HTMLElement>('main [aria-invalid="true"]')?.focus()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the answer, not its parts, is the trigger
  }, [visit])
  return (
    <div ref={ref} tabIndex={-1} className="focus:outline-2 focus:outline-offset-2 focus:outline-primary">
      <FormError message={error ?? (count > 0 ? 'Please correct the fields marked below.' : undefined)} />
      <Notice message={notice} />
    </div>
  )
}

/** 1250 → '12.50' (an amount as the forms take it); null → ''. */
export function amountText(minor: number | null | undefined): string {
  return minor === null || minor === undefined ? '' : (minor / 100).toFixed(2)
}

/** Posts a change to an /admin page with the back office's CSRF header. */
export function usePost() {
  const page = usePage()
  const { admin } = adminProps(page.props)
  return (url: string, data: Record<string, unknown>, onFinish?: () => void) =>
    router.post(url, data as never, {
      headers: csrfHeaders(admin),
      preserveScroll: true,
      ...(onFinish ? { onFinish } : {}),
    })
}

/** Whether the signed-in role may take an action (the server checks anyway). */
export function useCan(action: string): boolean {
  const page = usePage()
  return adminProps(page.props).admin.permissions.includes(action)
}
