/** Lists the server's validation errors; pages that want them render this where they belong. */
import { useShared } from '../lib/shared-props.ts'

function flatten(errors: Record<string, unknown>): string[] {
  const out: string[] = []
  for (const value of Object.values(errors)) {
    if (typeof value === 'string') out.push(value)
    else if (Array.isArray(value)) out.push(...value.filter((v): v is string => typeof v === 'string'))
    else if (value && typeof value === 'object') out.push(...flatten(value as Record<string, unknown>))
  }
  return [...new Set(out)]
}

export function ValidationErrors({
  errors,
  className = '',
}: {
  errors?: Record<string, unknown>
  className?: string
}) {
  const shared = useShared()
  const messages = flatten(errors ?? shared.errors)
  if (messages.length === 0) return null
  return (
    <div role="alert" className={`rounded border border-red-300 bg-red-50 p-4 text-red-900 ${className}`}>
      <p className="font-semibold">Whoops! Something went wrong.</p>
      <ul className="mt-2 list-disc pl-5 text-sm">
        {messages.map((m) => (
          <li key={m}>{m}</li>
        ))}
      </ul>
    </div>
  )
}
