/** Log In (spec §2): e-mail, password, remember, a link to forgot-password. */
import { Head, Link } from '@inertiajs/react'
import { loginSchema } from '../../../shared/auth.ts'
import { pageTitle } from '../../../shared/titles.ts'
import {
  Checkbox,
  ErrorList,
  Heading,
  StatusMessage,
  SubmitButton,
  TextField,
  statusFrom,
} from '../../components/auth/fields.tsx'
import { useAuthForm } from '../../components/auth/use-auth-form.ts'
import { useShared } from '../../lib/shared-props.ts'

const PASSWORDS = ['password'] as 'password'[]

/** Spec §7: remember is sent as 'on' or empty; redirect is true on the login page. */
const serialize = (d: { email: string; password: string; remember: boolean; redirect: boolean }) => ({
  ...d,
  remember: d.remember ? 'on' : '',
})

export default function Login({ canResetPassword = true }: { canResetPassword?: boolean }) {
  const { site, flash } = useShared()
  const f = useAuthForm(
    loginSchema,
    { email: '', password: '', remember: false, redirect: true },
    { passwordFields: PASSWORDS, serialize },
  )
  return (
    <>
      <Head title={pageTitle({ page: 'login' }, site?.name)} />
      <Heading>Log In</Heading>
      <StatusMessage status={statusFrom(flash)} />
      <ErrorList errors={f.serverErrors} />
      <form method="post" action={'/login'} noValidate onSubmit={f.submit('/login')}>
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
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={f.data.password}
          error={f.clientErrors.password}
          onChange={(e) => f.change('password', e.target.value)}
          onBlur={() => f.blur('password')}
        />
        <Checkbox
          label="Remember me"
          name="remember"
          checked={f.data.remember}
          onChange={(v) => f.change('remember', v)}
        />
        <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
          {canResetPassword ? (
            <Link href="/forgot-password" className="text-sm text-gray-700 underline hover:text-gray-900">
              Forgot your password?
            </Link>
          ) : null}
          <SubmitButton processing={f.processing}>Log In</SubmitButton>
        </div>
      </form>
      <p className="mt-6 border-t border-gray-200 pt-4 text-sm text-gray-700">
        New customer?{' '}
        <Link href="/register" className="font-semibold underline">
          Create an account
        </Link>
      </p>
    </>
  )
}
