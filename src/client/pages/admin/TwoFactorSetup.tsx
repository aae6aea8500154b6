/** Back office: two-factor set-up, required before anything else (first sign-in after an invitation). */
import { Head } from '@inertiajs/react'
import AdminLayout from '../../admin/AdminLayout.tsx'
import { AdminCard } from '../../admin/AdminCard.tsx'
import { useAdminForm } from '../../admin/use-admin-form.ts'
import { HtmlContent } from '../../components/SafeHtml.tsx'
import { SubmitButton, TextField } from '../../components/auth/fields.tsx'
import { staffTwoFactorSchema } from '../../../shared/staff.ts'
import type { SafeHtml as SafeHtmlValue } from '../../../shared/safe-html.ts'

export default function TwoFactorSetup({
  qrCode,
  secret,
}: {
  qrCode: SafeHtmlValue | null
  secret: string | null
}) {
  const f = useAdminForm(staffTwoFactorSchema, { code: '' })
  return (
    <AdminCard title="Set up two-factor authentication">
      <Head title="Set up two-factor authentication - Shop back office" />
      <p className="mt-2 text-sm text-gray-700">
        The back office needs a code from an authenticator app at every sign-in. Scan the QR code with the
        app, or type the key, then enter the code it shows.
      </p>
      {qrCode ? (
        <figure className="mt-4">
          <HtmlContent
            html={qrCode}
            className="mx-auto w-48"
            role="img"
            aria-label="QR code for your authenticator app"
          />
        </figure>
      ) : null}
      {secret ? (
        <p className="mt-3 text-sm">
          Key:{' '}
          <code data-testid="totp-secret" className="rounded bg-gray-100 px-1 font-mono wrap-anywhere">
            {secret}
          </code>
        </p>
      ) : null}
      <form
        method="post"
        action="/admin/two-factor/setup"
        noValidate
        onSubmit={f.submit('/admin/two-factor/setup', { reset: ['code'] })}
      >
        <TextField
          label="Code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          value={f.data.code}
          error={f.errorFor('code')}
          onChange={(e) => f.change('code', e.target.value)}
          onBlur={() => f.blur('code')}
        />
        <div className="mt-6">
          <SubmitButton processing={f.processing}>Turn on two-factor</SubmitButton>
        </div>
      </form>
    </AdminCard>
  )
}

TwoFactorSetup.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
