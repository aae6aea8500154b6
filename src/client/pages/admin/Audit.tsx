/** Back office: the audit log, newest first (owners only). */
import { Head, Link } from '@inertiajs/react'
import AdminLayout from '../../admin/AdminLayout.tsx'
import { formatDateTime } from '../../admin/admin-props.ts'

interface Entry {
  id: number
  at: string
  actor: string
  action: string
  target: string
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
  ip: string
}

const show = (v: Record<string, unknown> | null) =>
  v
    ? Object.entries(v)
        .map(([k, x]) => `${k}: ${typeof x === 'string' ? x : JSON.stringify(x)}`)
        .join(', ')
    : '—'

export default function Audit({
  entries,
  next,
  action,
}: {
  entries: Entry[]
  next: string | null
  action: string
}) {
  return (
    <div>
      <Head title="Audit log - Shop back office" />
      <h1 className="text-xl font-semibold">Audit log</h1>
      {action ? (
        <p className="mt-2 text-sm">
          Showing {action} only.{' '}
          <Link href="/admin/audit" className="underline">
            Show everything
          </Link>
        </p>
      ) : null}
      {entries.length === 0 ? <p className="mt-4">Nothing has been recorded yet.</p> : null}
      <ol className="mt-4 space-y-3">
        {entries.map((e) => (
          <li key={e.id} className="rounded border border-gray-200 bg-white p-3 text-sm">
            <p>
              <strong>{e.action}</strong> on {e.target} by {e.actor}
              {e.ip ? ` from ${e.ip}` : ''}
            </p>
            <p className="text-gray-700">{formatDateTime(e.at)}</p>
            <p className="mt-1 break-words">Before: {show(e.before)}</p>
            <p className="break-words">After: {show(e.after)}</p>
          </li>
        ))}
      </ol>
      {next ? (
        <p className="mt-4">
          <Link
            href="/admin/audit"
            data={{ before: next, ...(action ? { action } : {}) }}
            className="underline"
          >
            Older entries
          </Link>
        </p>
      ) : null}
    </div>
  )
}

Audit.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
