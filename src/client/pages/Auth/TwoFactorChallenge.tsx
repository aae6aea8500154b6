/** Two-factor challenge (spec §2): an authentication code or a recovery code, with a toggle. */
import { Head } from '@inertiajs/react'
import { useRef, useState } from 'react'
import { twoFactorSchema } from '../../../shared/auth.ts'
import { pageTitle } from '../../../shared/titles.ts'
import { ErrorList, Heading, SubmitButton, TextField } from '../../components/auth/fields.tsx'
import { useAuthForm } from '../../components/auth/use-auth-form.ts'
import { useShared } from '../../lib/shared-props.ts'

export default function TwoFactorChallenge() {
  const { site } = useShared()
  const [recovery, setRecovery] = useState(false)
  const f = useAuthForm(twoFactorSchema, { code: '', recovery_code: '' }, {})
  const inputRef = useRef<HTMLInputElement>(null)
  const toggle = () => {
    setRecovery((r) => !r)
    f.change('code', '')
    f.change('recovery_code', '')
    window.setTimeout(() => inputRef.current?.focus(), 0)
  }
  return (
    <>
      <Head title={pageTitle({ page: 'twoFactorChallenge' }, site?.name)} />
      <Heading>Two-Factor Authentication</Heading>
      <p className="mb-4 text-sm text-gray-700">
        {recovery
          ? 'Please confirm access to your account by entering one of your emergency recovery codes.'
          : 'Please confirm access to your account by entering the authentication code provided by your authenticator application.'}
      </p>
      <ErrorList errors={f.serverErrors} />
      <form
        method="post"
        action={'/two-factor-challenge'}
        noValidate
        onSubmit={f.submit('/two-factor-challenge')}
      >
        {recovery ? (
          <TextField
            ref={inputRef}
            label="Recovery Code"
            name="recovery_code"
            autoComplete="one-time-code"
            autoFocus
            value={String(f.data.recovery_code)}
            error={f.clientErrors.code}
            onChange={(e) => f.change('recovery_code', e.target.value)}
          />
        ) : (
          <TextField
            ref={inputRef}
            label="Code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            autoFocus
            value={String(f.data.code)}
            error={f.clientErrors.code}
            onChange={(e) => f.change('code', e.target.value)}
          />
        )}
        <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
          <button
            type="button"
            onClick={toggle}
            className="text-sm text-gray-700 underline hover:text-gray-900"
          >
            {recovery ? 'Use an authentication code' : 'Use a recovery code'}
          </button>
          <SubmitButton processing={f.processing}>Log In</SubmitButton>
        </div>
      </form>
    </>
  )
}
