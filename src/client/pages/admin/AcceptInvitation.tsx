/** Back office: an invitation's link, where the invited person sets their password. */
import { Head, Link } from '@inertiajs/react'
import AdminLayout from '../../admin/AdminLayout.tsx'
import { AdminCard } from '../../admin/AdminCard.tsx'
import { useAdminForm } from '../../admin/use-admin-form.ts'
import { SubmitButton, TextField } from '../../components/auth/fields.tsx'
import { acceptInvitationSchema } from '../../../shared/staff.ts'

interface Props {
  invitation: { email: string; name: string; role: string } | null
  token: string
}

export default function AcceptInvitation({ invitation, token }: Props) {
  const f = useAdminForm(acceptInvitationSchema, { password: '', password_confirmation: '' })
  if (!invitation)
    return (
      <AdminCard title="Invitation not valid">
        <Head title="Invitation not valid - Shop back office" />
        <p className="mt-3 text-sm text-gray-700">
          This invitation link has been used or has expired. Ask an owner of the shop to invite you again.
        </p>
        <p className="mt-4">
          <Link href="/admin/login" className="underline">
            Sign in
          </Link>
        </p>
      </AdminCard>
    )
  const action = `/admin/invitations/${token}`
  return (
    <AdminCard title="Join the back office">
      <Head title="Join the back office - Shop back office" />
      <p className="mt-2 text-sm text-gray-700">
        Welcome, {invitation.name}. You are invited as <strong>{invitation.role}</strong> with the e-mail
        address <strong>{invitation.email}</strong>. Choose a password; you will then set up two-factor
        authentication.
      </p>
      <form
        method="post"
        action={action}
        noValidate
        onSubmit={f.submit(action, { reset: ['password', 'password_confirmation'] })}
      >
        <input type="hidden" name="username" autoComplete="username" value={invitation.email} />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          value={f.data.password}
          error={f.errorFor('password')}
          onChange={(e) => f.change('password', e.target.value)}
          onBlur={() => f.blur('password')}
        />
        <TextField
          label="Confirm password"
          name="password_confirmation"
          type="password"
          autoComplete="new-password"
          required
          value={f.data.password_confirmation}
          error={f.errorFor('password_confirmation')}
          onChange={(e) => f.change('password_confirmation', e.target.value)}
          onBlur={() => f.blur('password_confirmation')}
        />
        <div className="mt-6">
          <SubmitButton processing={f.processing}>Set password</SubmitButton>
        </div>
      </form>
    </AdminCard>
  )
}

AcceptInvitation.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
