/** Confirm-password screen (spec §2): the secure-area text, a password field and Confirm. */
import { Head } from '@inertiajs/react'
import { AUTH_MESSAGES, confirmPasswordSchema } from '../../../shared/auth.ts'
import { pageTitle } from '../../../shared/titles.ts'
import { ErrorList, Heading, SubmitButton, TextField } from '../../components/auth/fields.tsx'
import { useAuthForm } from '../../components/auth/use-auth-form.ts'
import { useShared } from '../../lib/shared-props.ts'

const PASSWORDS = ['password'] as 'password'[]

export default function ConfirmPassword() {
  const { site } = useShared()
  const f = useAuthForm(confirmPasswordSchema, { password: '' }, { passwordFields: PASSWORDS })
  return (
    <>
      <Head title={pageTitle({ page: 'confirmPassword' }, site?.name)} />
      <Heading>Confirm Password</Heading>
      <p className="mb-4 text-sm text-gray-700">{AUTH_MESSAGES.confirmPassword}</p>
      <ErrorList errors={f.serverErrors} />
      <form
        method="post"
        action={'/user/confirm-password'}
        noValidate
        onSubmit={f.submit('/user/confirm-password')}
      >
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          autoFocus
          value={f.data.password}
          error={f.clientErrors.password}
          onChange={(e) => f.change('password', e.target.value)}
          onBlur={() => f.blur('password')}
        />
        <div className="mt-6 flex justify-end">
          <SubmitButton processing={f.processing}>Confirm</SubmitButton>
        </div>
      </form>
    </>
  )
}
