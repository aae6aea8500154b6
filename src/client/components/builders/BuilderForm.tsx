/**
 * What the builder pages (Design A Sign, the workwear builder) share: the page head with its
 * breadcrumb and editing note, the field and error styles, the price summary, the submit button,
 * and sending a design to the basket (then opening the basket, or showing the field messages).
 */
import { Head, Link, router } from '@inertiajs/react'
import { useState, type ReactNode } from 'react'
import { CartApiError, cartCall, publishCart } from '../../lib/cart-api.ts'
import { useMessages } from '../../lib/messages.tsx'

export const FIELD_CLASS =
  'mt-1 block w-full rounded border border-gray-400 px-3 py-2 focus:outline-2 focus:outline-primary'

/** A field's messages, linked to it by `aria-describedby={id}`; nothing when there are none. */
export function FieldError({ id, messages }: { id: string; messages?: string[] | undefined }) {
  if (!messages?.length) return null
  return (
    <p id={id} className="mt-1 text-sm text-red-800">
      {messages.join(' ')}
    </p>
  )
}

/** The document title, the category breadcrumb, the heading and (when editing) what saving does. */
export function BuilderHeader(props: {
  title: string
  heading: string
  category: { name: string; url: string }
  editingNote: string | null
}) {
  return (
    <>
      <Head title={props.title} />
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href={props.category.url} className="text-primary underline">
          {props.category.name}
        </Link>
      </nav>
      <h1 className="mt-2 text-3xl font-bold tracking-tight">{props.heading}</h1>
      {props.editingNote ? (
        <p className="mt-1 text-gray-700" data-testid="editing-note">
          {props.editingNote}
        </p>
      ) : null}
    </>
  )
}

/** The id of a field's message element, for `aria-describedby`, when it has messages. */
export function describedByFor(uid: string, errors: Record<string, string[] | undefined>) {
  return (key: string) => (errors[key]?.length ? `${uid}-${key}-error` : undefined)
}

/**
 * The builder's form: the controls, and beside them (below on small screens) the preview panel,
 * which stays in view while the controls scroll.
 */
export function BuilderLayout(props: {
  onSubmit: (event: React.FormEvent) => void
  preview: ReactNode
  children: ReactNode
}) {
  return (
    <form className="mt-6 grid gap-8 lg:grid-cols-2" onSubmit={props.onSubmit} noValidate>
      <div className="lg:order-2">
        <div className="sticky top-4 rounded border border-gray-200 bg-gray-50 p-4">
          <h2 className="text-lg font-semibold">Preview</h2>
          {props.preview}
        </div>
      </div>
      <div className="space-y-6 lg:order-1">{props.children}</div>
    </form>
  )
}

/** The running price beside the preview: label and value rows, the last one (the total) in bold. */
export function PriceSummary({ testId, rows }: { testId: string; rows: [string, ReactNode][] }) {
  return (
    <dl className="mt-4 grid grid-cols-2 gap-1 text-sm" data-testid={testId}>
      {rows.map(([label, value], i) => {
        const strong = i === rows.length - 1 ? ' font-semibold' : ''
        return [
          <dt key={`${label}-dt`} className={strong.trim() || undefined}>
            {label}
          </dt>,
          <dd key={`${label}-dd`} className={`text-right tabular-nums${strong}`}>
            {value}
          </dd>,
        ]
      })}
    </dl>
  )
}

export function SubmitButton({ busy, editing }: { busy: boolean; editing: boolean }) {
  return (
    <button
      type="submit"
      disabled={busy}
      className="rounded bg-primary px-5 py-3 font-semibold text-white focus:outline-2 focus:outline-offset-2 disabled:opacity-60"
    >
      {busy ? 'Adding…' : editing ? 'Save changes to basket' : 'Add to basket'}
    </button>
  )
}

/**
 * Sends a design to the basket: on success the header's basket is updated and the basket opens;
 * a refusal (422) gives its field messages to `onFieldErrors`; any failure is also announced.
 */
export function useAddToBasket() {
  const { pushError } = useMessages()
  const [busy, setBusy] = useState(false)
  const send = async (
    url: string,
    body: unknown,
    onFieldErrors: (errors: Record<string, string[]>) => void,
  ) => {
    setBusy(true)
    try {
      const cart = await cartCall('POST', url, body)
      publishCart(cart)
      router.visit('/cart')
    } catch (err) {
      if (err instanceof CartApiError && err.status === 422) onFieldErrors(err.errors)
      pushError(
        `Something went wrong when trying to add item(s) to basket. ${err instanceof Error ? err.message : ''}`,
      )
    } finally {
      setBusy(false)
    }
  }
  return { busy, send, pushError }
}
