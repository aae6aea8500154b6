/**
 * The landing page of an e-mail verification link. Opening a link changes nothing (a link can be
 * opened by a mail scanner, or planted by someone else); the address is verified when the visitor
 * presses the button, and nobody is logged in by it.
 */
import { Head, useForm } from '@inertiajs/react'
import type { FormEvent } from 'react'
import { pageTitle } from '../../../shared/titles.ts'
import { Heading, SubmitButton } from '../../components/auth/fields.tsx'
import { useShared } from '../../lib/shared-props.ts'

export default function ConfirmEmail({ action }: { action: string }) {
  const { site } = useShared()
  const form = useForm({})
  const confirm = (e: FormEvent) => {
    e.preventDefault()
    form.post(action)
  }
  return (
    <>
      <Head title={pageTitle({ page: 'verifyEmail' }, site?.name)} />
      <Heading>Verify Your Email Address</Heading>
      <p className="mb-4 text-sm text-gray-700">
        Please confirm that this is your email address by pressing the button below.
      </p>
      <form method="post" action={action} onSubmit={confirm} className="mt-6 flex justify-end">
        <SubmitButton processing={form.processing}>Verify Email Address</SubmitButton>
      </form>
    </>
  )
}
