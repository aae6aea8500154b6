/** Back office: sign in with e-mail and password (then the two-factor code). */
import { Head } from '@inertiajs/react'
import AdminLayout from '../../admin/AdminLayout.tsx'
import { AdminCard, FormError } from '../../admin/AdminCard.tsx'
import { useAdminForm } from '../../admin/use-admin-form.ts'
import { SubmitButton, TextField } from '../../components/auth/fields.tsx'
import { staffLoginSchema } from '../../../shared/staff.ts'

export default function Login({ email }: { email: string }) {
  const f = useAdminForm(staffLoginSchema, { email, password: '' })
  return (
    <AdminCard title="Sign in to the back office">
      <Head title="Sign in - Shop back office" />
      <FormError message={f.errorFor('form')} />
      <form
        method="post"
        action="/admin/login"
        noValidate
        onSubmit={f.submit('/admin/login', { reset: ['password'] })}
      >
        <TextField
          label="E-mail"
          name="email"
          type="email"
          autoComplete="username"
          required
          value={f.data.email}
          error={f.errorFor('email')}
          onChange={(e) => f.change('email', e.target.value)}
          onBlur={() => f.blur('email')}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={f.data.password}
          error={f.errorFor('password')}
          onChange={(e) => f.change('password', e.target.value)}
          onBlur={() => f.blur('password')}
        />
        <div className="mt-6">
          <SubmitButton processing={f.processing}>Sign in</SubmitButton>
        </div>
      </form>
    </AdminCard>
  )
}

Login.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
