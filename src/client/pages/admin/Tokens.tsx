/**
 * Back office: the integration API's tokens (owners only). A token works for one site and every
 * call of the API (/api/admin/v1); its secret is shown once, when it is made, and never again.
 * A revoked token stops working at once.
 */
import { Head } from '@inertiajs/react'
import { useId, useRef } from 'react'
import AdminLayout from '../../admin/AdminLayout.tsx'
import { formatDateTime } from '../../admin/admin-props.ts'
import {
  ActionButton,
  focusFirstInvalidSoon,
  FocusError,
  FocusNotice,
  SecretOnce,
  useFocusFirstError,
  usePageErrors,
  usePost,
} from '../../admin/settings-parts.tsx'
import { useAdminForm } from '../../admin/use-admin-form.ts'
import { SubmitButton, TextField } from '../../components/auth/fields.tsx'
import { tokenFormSchema } from '../../../shared/staff-settings.ts'

interface Token {
  id: number
  name: string
  site: string
  createdAt: string
  lastUsedAt: string | null
  revokedAt: string | null
}

interface Props {
  tokens: Token[]
  sites: { id: number; name: string; code: string }[]
  created: { id: number; name: string; site: string; token: string } | null
  errors: Record<string, string>
  notice: string | null
}

function CreateToken({ sites }: { sites: Props['sites'] }) {
  const f = useAdminForm(tokenFormSchema, { intent: 'create', name: '', site: String(sites[0]?.id ?? '') })
  const siteId = useId()
  const ref = useRef<HTMLFormElement>(null)
  useFocusFirstError(ref, usePageErrors())
  return (
    <section
      aria-labelledby="new-token"
      className="mt-4 max-w-xl rounded-lg border border-gray-200 bg-white p-4"
    >
      <h2 id="new-token" className="text-lg font-semibold">
        Make a token
      </h2>
      <form
        ref={ref}
        method="post"
        action="/admin/tokens"
        noValidate
        onSubmit={(e) => {
          f.submit('/admin/tokens', { reset: ['name'] })(e)
          focusFirstInvalidSoon(ref)
        }}
      >
        <TextField
          label="Who or what holds it (for example ERP sync)"
          name="name"
          required
          value={f.data.name}
          error={f.errorFor('name')}
          onChange={(e) => f.change('name', e.target.value)}
          onBlur={() => f.blur('name')}
        />
        <div className="mt-4">
          <label htmlFor={siteId} className="block text-sm font-medium text-gray-800">
            Site
          </label>
          <select
            id={siteId}
            name="site"
            value={f.data.site}
            onChange={(e) => f.change('site', e.target.value)}
            aria-describedby={f.errorFor('site') ? `${siteId}-error` : undefined}
            aria-invalid={f.errorFor('site') ? true : undefined}
            className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2"
          >
            {sites.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
          {f.errorFor('site') ? (
            <p id={`${siteId}-error`} className="mt-1 text-sm text-red-700">
              {f.errorFor('site')}
            </p>
          ) : null}
        </div>
        <p className="mt-3 text-sm text-gray-700">
          The token may make every call of the integration API for this site: catalogue, orders, content,
          search and webhooks.
        </p>
        <div className="mt-6">
          <SubmitButton processing={f.processing}>Make token</SubmitButton>
        </div>
      </form>
    </section>
  )
}

export default function Tokens({ tokens, sites, created, errors, notice }: Props) {
  const post = usePost()
  return (
    <div>
      <Head title="API tokens - Shop back office" />
      <h1 className="text-xl font-semibold">API tokens</h1>
      <FocusNotice message={notice} />
      <FocusError message={errors.form} />
      {created ? (
        <SecretOnce
          title={`Token ${created.id} made: copy it now`}
          secret={created.token}
          label="The new token"
        >
          <p className="mt-1">
            For {created.name}, on {created.site}. Send it as <code>Authorization: Bearer &lt;token&gt;</code>
            .
          </p>
        </SecretOnce>
      ) : null}
      <CreateToken sites={sites} />
      <section aria-labelledby="tokens" className="mt-6">
        <h2 id="tokens" className="text-lg font-semibold">
          Tokens
        </h2>
        {tokens.length === 0 ? <p className="mt-2">No tokens yet.</p> : null}
        <ul className="mt-2 divide-y divide-gray-200 rounded-lg border border-gray-200 bg-white">
          {tokens.map((t) => (
            <li key={t.id} className="flex flex-wrap items-center gap-3 p-3 text-sm">
              <div className="min-w-48 flex-1">
                <p className="font-medium">
                  {t.id}. {t.name}
                </p>
                <p className="text-gray-700">Site: {t.site} (every API call for it)</p>
                <p className="text-gray-700">
                  Made {formatDateTime(t.createdAt)};{' '}
                  {t.lastUsedAt ? `last used ${formatDateTime(t.lastUsedAt)}` : 'never used'}
                </p>
                {t.revokedAt ? (
                  <p className="font-medium text-red-800">Revoked {formatDateTime(t.revokedAt)}</p>
                ) : null}
              </div>
              {!t.revokedAt ? (
                <ActionButton
                  danger
                  onClick={() =>
                    post(
                      '/admin/tokens',
                      { intent: 'revoke', id: t.id },
                      `Revoke the token "${t.name}"? Whatever uses it stops working at once.`,
                    )
                  }
                >
                  Revoke<span className="sr-only"> {t.name}</span>
                </ActionButton>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
    </div>
  )
}

Tokens.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
