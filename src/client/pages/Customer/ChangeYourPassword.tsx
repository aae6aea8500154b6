/**
 * Customer/ChangeYourPassword (spec §2, §5, §7, §8): the current password, a new one under the
 * shared rule (checked on blur and submit; submitting is blocked while an error shows) and its
 * confirmation. The server ends every other session of the account.
 */
import { useForm } from '@inertiajs/react'
import { useState, type FormEvent } from 'react'
import { ACCOUNT_TEXT, changePasswordSchema, type AccountPageBase } from '../../../shared/account.ts'
import { fieldErrors } from '../../../shared/cart.schemas.ts'
import { AccountLayout, mainButton, type Notice } from '../../components/account/AccountLayout.tsx'
import { TextField } from '../../components/auth/fields.tsx'
import { useShared } from '../../lib/shared-props.ts'

type Props = AccountPageBase & { id: number }

export default function ChangeYourPassword({ greeting, id }: Props) {
  const { flash } = useShared()
  const form = useForm({ id, current_password: '', password: '', password_confirmation: '' })
  const [touched, setTouched] = useState<Record<string, boolean>>({})
  const [submitted, setSubmitted] = useState(false)
  const parsed = changePasswordSchema.safeParse(form.data)
  const local = parsed.success ? {} : fieldErrors(parsed.error)
  const shown = (name: 'current_password' | 'password' | 'password_confirmation') =>
    (form.errors as Record<string, string | undefined>)[name] ||
    ((touched[name] || submitted) && local[name]?.[0]) ||
    undefined
  const blocked = !!shown('password') || !!shown('password_confirmation')

  const status = flash.status
  const notice: Notice | null = status
    ? typeof status === 'string'
      ? { kind: 'success', text: status }
      : { kind: status.type === 'error' ? 'error' : 'success', text: status.message }
    : form.hasErrors &&
        !form.errors.current_password &&
        !form.errors.password &&
        !form.errors.password_confirmation
      ? { kind: 'error', text: ACCOUNT_TEXT.passwordFailed }
      : null

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setSubmitted(true)
    if (!parsed.success) return
    form.post('/customer/password/update', {
      preserveScroll: true,
      // Changed: every field is cleared. Refused (say a wrong current password): only the current
      // password is cleared; the new password and its confirmation, which were fine, are kept
      // rather than emptied and then flagged as required.
      onSuccess: () => {
        form.reset('current_password', 'password', 'password_confirmation')
        setSubmitted(false)
      },
      onError: () => form.reset('current_password'),
    })
  }
  const blur = (name: string) => () => setTouched((t) => ({ ...t, [name]: true }))

  return (
    <AccountLayout
      title="Change Your Password"
      titleFor={{ page: 'changePassword' }}
      greeting={greeting}
      here="/customer/password/change"
      notice={notice}
    >
      <form onSubmit={submit} noValidate className="max-w-md">
        <TextField
          label="Current password"
          name="current_password"
          type="password"
          autoComplete="current-password"
          required
          value={form.data.current_password}
          onChange={(e) => form.setData('current_password', e.target.value)}
          onBlur={blur('current_password')}
          error={shown('current_password')}
        />
        <TextField
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          value={form.data.password}
          onChange={(e) => form.setData('password', e.target.value)}
          onBlur={blur('password')}
          error={shown('password')}
        />
        <TextField
          label="Confirm new password"
          name="password_confirmation"
          type="password"
          autoComplete="new-password"
          required
          value={form.data.password_confirmation}
          onChange={(e) => form.setData('password_confirmation', e.target.value)}
          onBlur={blur('password_confirmation')}
          error={shown('password_confirmation')}
        />
        <button type="submit" className={`${mainButton} mt-6`} disabled={form.processing || blocked}>
          Change Password
        </button>
      </form>
    </AccountLayout>
  )
}
