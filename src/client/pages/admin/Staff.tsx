/**
 * Back office: staff users (owners only). Invite someone by e-mail with a role; change a role;
 * disable an account (its sessions end at once). Every change is in the audit log.
 */
import { Head, router, usePage } from '@inertiajs/react'
import { useId, useState } from 'react'
import AdminLayout from '../../admin/AdminLayout.tsx'
import { FormError, Notice } from '../../admin/AdminCard.tsx'
import { adminProps, csrfHeaders } from '../../admin/admin-props.ts'
import { useAdminForm } from '../../admin/use-admin-form.ts'
import { SubmitButton, TextField } from '../../components/auth/fields.tsx'
import { inviteStaffSchema } from '../../../shared/staff.ts'

interface Member {
  id: number
  email: string
  name: string
  role: string
  twoFactor: boolean
  disabled: boolean
}

interface Props {
  staff: Member[]
  roles: { value: string; label: string }[]
  me: number | null
  notice: string | null
}

function RoleSelect({
  member,
  roles,
  disabled,
}: {
  member: Member
  roles: Props['roles']
  disabled: boolean
}) {
  const page = usePage()
  const { admin } = adminProps(page.props)
  const [role, setRole] = useState(member.role)
  const id = useId()
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault()
        router.post(
          '/admin/staff',
          { intent: 'role', id: member.id, role },
          { headers: csrfHeaders(admin), preserveScroll: true },
        )
      }}
    >
      <label htmlFor={id} className="sr-only">
        Role of {member.name}
      </label>
      <select
        id={id}
        value={role}
        disabled={disabled}
        onChange={(e) => setRole(e.target.value)}
        className="rounded border border-gray-300 px-2 py-1"
      >
        {roles.map((r) => (
          <option key={r.value} value={r.value}>
            {r.value}
          </option>
        ))}
      </select>
      <button
        type="submit"
        disabled={disabled || role === member.role}
        className="rounded border border-gray-400 px-2 py-1 disabled:opacity-50"
      >
        Change role<span className="sr-only"> of {member.name}</span>
      </button>
    </form>
  )
}

export default function Staff({ staff, roles, me, notice }: Props) {
  const page = usePage()
  const { admin } = adminProps(page.props)
  const f = useAdminForm(inviteStaffSchema, { intent: 'invite', email: '', name: '', role: 'staff' })
  const roleId = useId()
  const disable = (m: Member) => {
    if (!window.confirm(`Disable ${m.name}? Their sessions end at once and they can no longer sign in.`))
      return
    router.post(
      '/admin/staff',
      { intent: 'disable', id: m.id },
      { headers: csrfHeaders(admin), preserveScroll: true },
    )
  }
  return (
    <div>
      <Head title="Staff - Shop back office" />
      <h1 className="text-xl font-semibold">Staff</h1>
      <Notice message={notice} />
      <FormError message={f.formError} />
      <section
        aria-labelledby="invite-heading"
        className="mt-4 max-w-xl rounded-lg border border-gray-200 bg-white p-4"
      >
        <h2 id="invite-heading" className="text-lg font-semibold">
          Invite someone
        </h2>
        <form
          method="post"
          action="/admin/staff"
          noValidate
          onSubmit={f.submit('/admin/staff', { reset: ['email', 'name'] })}
        >
          <TextField
            label="Name"
            name="name"
            required
            value={f.data.name}
            error={f.errorFor('name')}
            onChange={(e) => f.change('name', e.target.value)}
            onBlur={() => f.blur('name')}
          />
          <TextField
            label="E-mail"
            name="email"
            type="email"
            required
            value={f.data.email}
            error={f.errorFor('email')}
            onChange={(e) => f.change('email', e.target.value)}
            onBlur={() => f.blur('email')}
          />
          <div className="mt-4">
            <label htmlFor={roleId} className="block text-sm font-medium text-gray-800">
              Role
            </label>
            <select
              id={roleId}
              name="role"
              value={f.data.role}
              onChange={(e) => f.change('role', e.target.value)}
              className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2"
            >
              {roles.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
            {f.errorFor('role') ? <p className="mt-1 text-sm text-red-700">{f.errorFor('role')}</p> : null}
          </div>
          <div className="mt-6">
            <SubmitButton processing={f.processing}>Send invitation</SubmitButton>
          </div>
        </form>
      </section>
      <section aria-labelledby="people-heading" className="mt-6">
        <h2 id="people-heading" className="text-lg font-semibold">
          Accounts
        </h2>
        <ul className="mt-2 divide-y divide-gray-200 rounded-lg border border-gray-200 bg-white">
          {staff.map((m) => (
            <li key={m.id} className="flex flex-wrap items-center gap-3 p-3 text-sm">
              <div className="min-w-48 flex-1">
                <p className="font-medium">
                  {m.name} {m.id === me ? '(you)' : ''}
                </p>
                <p className="wrap-anywhere text-gray-700">{m.email}</p>
                <p className="text-gray-700">
                  {m.disabled ? 'Disabled' : m.twoFactor ? 'Two-factor on' : 'Two-factor not set up yet'}
                </p>
              </div>
              <RoleSelect member={m} roles={roles} disabled={m.disabled || m.id === me} />
              {!m.disabled && m.id !== me ? (
                <button
                  type="button"
                  onClick={() => disable(m)}
                  className="rounded border border-red-700 px-2 py-1 text-red-800"
                >
                  Disable<span className="sr-only"> {m.name}</span>
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
    </div>
  )
}

Staff.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
