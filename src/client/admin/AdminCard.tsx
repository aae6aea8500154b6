/** A narrow card with the page's one heading, for the sign-in pages; and a form-wide error. */
import type { ReactNode } from 'react'

export function AdminCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto mt-6 max-w-md rounded-lg border border-gray-200 bg-white p-6 shadow-sm">
      <h1 className="text-xl font-semibold">{title}</h1>
      {children}
    </div>
  )
}

export function FormError({ message }: { message?: string | undefined }) {
  if (!message) return null
  return (
    <p role="alert" className="mt-4 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
      {message}
    </p>
  )
}

export function Notice({ message }: { message?: string | null | undefined }) {
  return (
    <div role="status" aria-live="polite">
      {message ? (
        <p className="mt-4 rounded border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-900">
          {message}
        </p>
      ) : null}
    </div>
  )
}
