/** Reset Password (spec §2): asks for an e-mail and sends a reset link. */
import { Head, Link } from '@inertiajs/react'
import { forgotPasswordSchema, type BotCheckProps } from '../../../shared/auth.ts'
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

export default function ForgotPassword({ botCheck = null }: { botCheck?: BotCheckProps | null }) {
  const { site, flash } = useShared()
  const f = useAuthForm(forgotPasswordSchema, { email: '' }, { botCheck })
  return (
    <>
      <Head title={pageTitle({ page: 'forgotPassword' }, site?.name)} />
      <Heading>Reset Password</Heading>
      <p className="mb-4 text-sm text-gray-700">
        Forgotten your password? Enter your email address and we will email you a link to choose a new one.
      </p>
      <StatusMessage status={statusFrom(flash)} />
      <ErrorList errors={{ ...f.serverErrors, bot: f.botError ?? undefined }} />
      <form method="post" action={'/forgot-password'} noValidate onSubmit={f.submit('/forgot-password')}>
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={f.data.email}
          error={f.clientErrors.email}
          onChange={(e) => f.change('email', e.target.value)}
          onBlur={() => f.blur('email')}
        />
        <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
          <Link href="/login" className="text-sm text-gray-700 underline hover:text-gray-900">
            Back to Log In
          </Link>
          <SubmitButton processing={f.processing}>Email Password Reset Link</SubmitButton>
        </div>
      </form>
    </>
  )
}
