/** Back office: the code from the authenticator app, asked at every sign-in. */
import { Head } from '@inertiajs/react'
import AdminLayout from '../../admin/AdminLayout.tsx'
import { AdminCard } from '../../admin/AdminCard.tsx'
import { useAdminForm } from '../../admin/use-admin-form.ts'
import { SubmitButton, TextField } from '../../components/auth/fields.tsx'
import { staffTwoFactorSchema } from '../../../shared/staff.ts'

export default function TwoFactorChallenge() {
  const f = useAdminForm(staffTwoFactorSchema, { code: '' })
  return (
    <AdminCard title="Two-factor authentication">
      <Head title="Two-factor authentication - Shop back office" />
      <p className="mt-2 text-sm text-gray-700">Enter the 6-digit code from your authenticator app.</p>
      <form
        method="post"
        action="/admin/two-factor"
        noValidate
        onSubmit={f.submit('/admin/two-factor', { reset: ['code'] })}
      >
        <TextField
          label="Code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          required
          value={f.data.code}
          error={f.errorFor('code')}
          onChange={(e) => f.change('code', e.target.value)}
          onBlur={() => f.blur('code')}
        />
        <div className="mt-6">
          <SubmitButton processing={f.processing}>Continue</SubmitButton>
        </div>
      </form>
    </AdminCard>
  )
}

TwoFactorChallenge.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
