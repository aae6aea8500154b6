/** E-mail verification notice (spec §2): a resend button and a logout link. */
import { Head, Link, useForm } from '@inertiajs/react'
import type { FormEvent } from 'react'
import { AUTH_MESSAGES } from '../../../shared/auth-text.ts'
import { pageTitle } from '../../../shared/titles.ts'
import { Heading, StatusMessage, SubmitButton, statusFrom } from '../../components/auth/fields.tsx'
import { useShared } from '../../lib/shared-props.ts'

export default function VerifyEmail({ email }: { email: string }) {
  const { site, flash } = useShared()
  const form = useForm({})
  const resend = (e: FormEvent) => {
    e.preventDefault()
    form.post('/email/verification-notification', { preserveScroll: true })
  }
  return (
    <>
      <Head title={pageTitle({ page: 'verifyEmail' }, site?.name)} />
      <Heading>Verify Your Email Address</Heading>
      <StatusMessage
        status={statusFrom(flash, { 'verification-link-sent': AUTH_MESSAGES.verificationSent })}
      />
      <p className="mb-4 text-sm text-gray-700">
        Thanks for signing up! Before getting started, please verify your email address by clicking on the
        link we just emailed to <strong>{email}</strong>. If you did not receive the email, we will gladly
        send you another.
      </p>
      <form
        method="post"
        action="/email/verification-notification"
        onSubmit={resend}
        className="mt-6 flex flex-wrap items-center justify-between gap-3"
      >
        <SubmitButton processing={form.processing}>Resend Verification Email</SubmitButton>
        <Link
          href="/logout"
          method="post"
          as="button"
          className="text-sm text-gray-700 underline hover:text-gray-900"
        >
          Log Out
        </Link>
      </form>
    </>
  )
}
