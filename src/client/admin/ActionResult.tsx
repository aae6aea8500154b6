/**
 * What an action on a back-office page came to: the server's notice (done) or its error (refused),
 * announced (status or alert) and focused when it arrives, so a keyboard or screen reader user
 * who pressed the button hears the answer and goes on from it.
 */
import { useEffect, useRef } from 'react'

export function ActionResult({ notice, error }: { notice?: string | null; error?: string | undefined }) {
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (notice || error) ref.current?.focus()
  }, [notice, error])
  return (
    <div
      ref={ref}
      tabIndex={-1}
      className="mt-4 focus:outline-2 focus:outline-offset-2 focus:outline-primary"
    >
      <div role="status" aria-live="polite">
        {notice && !error ? (
          <p className="rounded border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-900">
            {notice}
          </p>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
    </div>
  )
}
