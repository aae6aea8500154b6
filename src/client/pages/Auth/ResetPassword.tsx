/** Change Password (spec §2): e-mail and token from the query string, a new password twice. */
import { Head, Link } from '@inertiajs/react'
import { AUTH_MESSAGES, resetPasswordSchema } from '../../../shared/auth.ts'
import { pageTitle } from '../../../shared/titles.ts'
import {
  ErrorList,
  Heading,
  StatusMessage,
  SubmitButton,
  TextField,
  statusFrom,
} from '../../components/auth/fields.tsx'
import { useAuthForm } from '../../components/auth/use-auth-form.ts'
import { useShared } from '../../lib/shared-props.ts'

const PASSWORDS = ['password', 'password_confirmation'] as ('password' | 'password_confirmation')[]

export default function ResetPassword({ email, token }: { email: string; token: string }) {
  const { site, flash } = useShared()
  const f = useAuthForm(
    resetPasswordSchema,
    { token, email, password: '', password_confirmation: '' },
    { passwordFields: PASSWORDS },
  )
  const status = statusFrom(flash)
  // A failed update without a message from the server still says so (spec §8).
  const shown =
    status ?? (f.serverErrors.token ? { message: AUTH_MESSAGES.resetFailed, type: 'error' as const } : null)
  return (
    <>
      <Head title={pageTitle({ page: 'resetPassword' }, site?.name)} />
      <Heading>Change Password</Heading>
      <StatusMessage status={shown} />
      <ErrorList
        errors={{
          email: f.serverErrors.email,
          password: f.serverErrors.password,
          password_confirmation: f.serverErrors.password_confirmation,
        }}
      />
      <form
        method="post"
        action={'/customer/password/update'}
        noValidate
        onSubmit={f.submit('/customer/password/update')}
      >
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          required
          value={f.data.email}
          error={f.clientErrors.email}
          onChange={(e) => f.change('email', e.target.value)}
          onBlur={() => f.blur('email')}
        />
        <TextField
          label="New Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          value={f.data.password}
          error={f.clientErrors.password}
          onChange={(e) => f.change('password', e.target.value)}
          onBlur={() => f.blur('password')}
        />
        <TextField
          label="Confirm Password"
          name="password_confirmation"
          type="password"
          autoComplete="new-password"
          required
          value={f.data.password_confirmation}
          error={f.clientErrors.password_confirmation}
          onChange={(e) => f.change('password_confirmation', e.target.value)}
          onBlur={() => f.blur('password_confirmation')}
        />
        <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
          <Link href="/forgot-password" className="text-sm text-gray-700 underline hover:text-gray-900">
            Request a new link
          </Link>
          <SubmitButton processing={f.processing}>Reset Password</SubmitButton>
        </div>
      </form>
    </>
  )
}
