/**
 * Back office: a site's webhook endpoints (owners only): add one (its signing secret shown once),
 * choose its events, disable or enable it (with or without what it missed), rotate its secret,
 * send it a test message, and read its recent deliveries. An endpoint the shop disabled after
 * failing says why.
 */
import { Head, Link, useForm, usePage } from '@inertiajs/react'
import { useId, useRef, useState } from 'react'
import AdminLayout from '../../admin/AdminLayout.tsx'
import { adminProps, csrfHeaders, formatDateTime } from '../../admin/admin-props.ts'
import {
  ActionButton,
  FocusError,
  FocusNotice,
  SecretOnce,
  SitePicker,
  useFocusFirstError,
  usePost,
  type SiteChoice,
} from '../../admin/settings-parts.tsx'
import { fieldErrors } from '../../../shared/auth.ts'
import { SubmitButton, TextField } from '../../components/auth/fields.tsx'
import { webhookFormSchema } from '../../../shared/staff-settings.ts'

interface Endpoint {
  id: string
  url: string
  description: string
  eventTypes: string[]
  enabled: boolean
  disabledAt: string | null
  disabledReason: string | null
  failingSince: string | null
  consecutiveFailures: number
  secretHint: string
  undelivered: number
  createdAt: string
}

interface Delivery {
  id: number
  messageId: string
  type: string
  orderNumber: number | null
  status: string
  attempts: number
  nextAttemptAt: string | null
  lastAttemptAt: string | null
  lastStatusCode: number | null
  lastError: string | null
  deliveredAt: string | null
  createdAt: string
}

interface Props {
  sites: SiteChoice[]
  site: { id: number; name: string }
  endpoints: Endpoint[]
  eventTypes: string[]
  deliveries: { endpointId: string; items: Delivery[] } | null
  secret: { endpointId: string; url: string; secret: string; until: string | null } | null
  errors: Record<string, string>
  notice: string | null
}

function EventChoices({
  legend,
  types,
  chosen,
  onChange,
  error,
}: {
  legend: string
  types: string[]
  chosen: string[]
  onChange: (next: string[]) => void
  error?: string | undefined
}) {
  const id = useId()
  return (
    <fieldset className="mt-4" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="text-sm font-medium text-gray-800">{legend}</legend>
      <div className="mt-1 grid gap-1 sm:grid-cols-2">
        {types.map((t) => (
          <label key={t} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              name="eventTypes"
              value={t}
              checked={chosen.includes(t)}
              aria-invalid={error ? true : undefined}
              onChange={(e) => onChange(e.target.checked ? [...chosen, t] : chosen.filter((x) => x !== t))}
            />
            {t}
          </label>
        ))}
      </div>
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}

function AddEndpoint({ siteId, types }: { siteId: number; types: string[] }) {
  const page = usePage()
  const { admin } = adminProps(page.props)
  const serverErrors = (page.props.errors ?? {}) as Record<string, string | undefined>
  const form = useForm({
    intent: 'create',
    site: String(siteId),
    url: '',
    description: '',
    eventTypes: types,
  })
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({})
  const ref = useRef<HTMLFormElement>(null)
  const errorFor = (name: string) => clientErrors[name] ?? serverErrors[name]
  useFocusFirstError(ref, clientErrors, serverErrors)
  return (
    <section
      aria-labelledby="add-endpoint"
      className="mt-4 max-w-xl rounded-lg border border-gray-200 bg-white p-4"
    >
      <h2 id="add-endpoint" className="text-lg font-semibold">
        Add an endpoint
      </h2>
      <form
        ref={ref}
        method="post"
        action="/admin/webhooks"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          const errors = fieldErrors(webhookFormSchema, form.data)
          setClientErrors(errors)
          if (Object.keys(errors).length > 0) return
          form.post('/admin/webhooks', {
            headers: csrfHeaders(admin),
            preserveScroll: true,
            onSuccess: () => form.reset('url', 'description'),
          })
        }}
      >
        <TextField
          label="Address (https://…)"
          name="url"
          type="url"
          required
          value={form.data.url}
          error={errorFor('url')}
          onChange={(e) => form.setData('url', e.target.value)}
        />
        <TextField
          label="Description (optional)"
          name="description"
          value={form.data.description}
          error={errorFor('description')}
          onChange={(e) => form.setData('description', e.target.value)}
        />
        <EventChoices
          legend="Events it receives"
          types={types}
          chosen={form.data.eventTypes}
          onChange={(next) => form.setData('eventTypes', next)}
          error={errorFor('eventTypes')}
        />
        <div className="mt-6">
          <SubmitButton processing={form.processing}>Add endpoint</SubmitButton>
        </div>
      </form>
    </section>
  )
}

function EndpointEvents({
  e,
  siteId,
  types,
  error,
}: {
  e: Endpoint
  siteId: number
  types: string[]
  error?: string
}) {
  const post = usePost()
  const [chosen, setChosen] = useState(e.eventTypes)
  // A refused change: the focus goes to the first checkbox, which names the error.
  const ref = useRef<HTMLFormElement>(null)
  useFocusFirstError(ref, { events: error })
  return (
    <form
      ref={ref}
      onSubmit={(ev) => {
        ev.preventDefault()
        post('/admin/webhooks', { intent: 'events', site: siteId, id: e.id, eventTypes: chosen })
      }}
    >
      <EventChoices
        legend={`Events sent to ${e.url}`}
        types={types}
        chosen={chosen}
        onChange={setChosen}
        error={error}
      />
      <button type="submit" className="mt-2 rounded border border-gray-400 px-2 py-1">
        Save events<span className="sr-only"> of {e.url}</span>
      </button>
    </form>
  )
}

function state(e: Endpoint): string {
  if (!e.enabled)
    return `Disabled${e.disabledAt ? ` ${formatDateTime(e.disabledAt)}` : ''}: ${e.disabledReason ?? 'no reason recorded'}`
  if (e.failingSince)
    return `Enabled, failing since ${formatDateTime(e.failingSince)} (${e.consecutiveFailures} failed attempts in a row)`
  return 'Enabled'
}

function Deliveries({ items }: { items: Delivery[] }) {
  if (items.length === 0) return <p className="mt-2 text-sm">Nothing has been sent to it yet.</p>
  return (
    <div className="mt-2 overflow-x-auto">
      <table className="w-full border-collapse text-left text-sm">
        <caption className="sr-only">Recent deliveries, newest first</caption>
        <thead>
          <tr className="border-b border-gray-200">
            <th scope="col" className="p-2">
              Event
            </th>
            <th scope="col" className="p-2">
              Status
            </th>
            <th scope="col" className="p-2">
              Attempts
            </th>
            <th scope="col" className="p-2">
              Last answer
            </th>
            <th scope="col" className="p-2">
              When
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((d) => (
            <tr key={d.id} className="border-b border-gray-100 align-top">
              <td className="p-2">
                {d.type}
                {d.orderNumber ? ` (order ${d.orderNumber})` : ''}
              </td>
              <td className="p-2">
                {d.status}
                {d.nextAttemptAt ? `; next try ${formatDateTime(d.nextAttemptAt)}` : ''}
              </td>
              <td className="p-2">{d.attempts}</td>
              <td className="p-2 break-words">
                {d.lastStatusCode ? `HTTP ${d.lastStatusCode}` : ''}
                {d.lastError ? ` ${d.lastError}` : ''}
              </td>
              <td className="p-2">{formatDateTime(d.deliveredAt ?? d.lastAttemptAt ?? d.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-1 text-sm text-gray-700">
        A failed delivery is tried again by itself, with longer waits; an endpoint that keeps failing is
        disabled, and enabling it again sends what it missed, oldest first.
      </p>
    </div>
  )
}

export default function Webhooks({
  sites,
  site,
  endpoints,
  eventTypes,
  deliveries,
  secret,
  errors,
  notice,
}: Props) {
  const post = usePost()
  const act = (intent: string, e: Endpoint, extra: Record<string, unknown> = {}, confirm?: string) =>
    post('/admin/webhooks', { intent, site: site.id, id: e.id, ...extra }, confirm)
  return (
    <div>
      <Head title="Webhooks - Shop back office" />
      <h1 className="text-xl font-semibold">Webhook endpoints of {site.name}</h1>
      <SitePicker sites={sites} current={site.id} path="/admin/webhooks" />
      <FocusNotice message={secret ? null : notice} />
      <FocusError message={errors.form} />
      {secret ? (
        <SecretOnce title={`Signing secret of ${secret.url}`} secret={secret.secret} label="Signing secret">
          {notice ? <p className="mt-1">{notice}</p> : null}
          {secret.until ? (
            <p className="mt-1">
              The previous secret also signs until {formatDateTime(secret.until)}, so the receiver can switch.
            </p>
          ) : null}
        </SecretOnce>
      ) : null}
      <AddEndpoint key={site.id} siteId={site.id} types={eventTypes} />
      <section aria-labelledby="endpoints" className="mt-6">
        <h2 id="endpoints" className="text-lg font-semibold">
          Endpoints
        </h2>
        {endpoints.length === 0 ? <p className="mt-2">No endpoints: nothing is sent.</p> : null}
        <ul className="mt-2 space-y-3">
          {endpoints.map((e) => (
            <li key={e.id} className="rounded-lg border border-gray-200 bg-white p-3 text-sm">
              <h3 className="font-medium wrap-anywhere">{e.url}</h3>
              {e.description ? <p className="text-gray-700">{e.description}</p> : null}
              <p className={e.enabled && !e.failingSince ? 'text-gray-700' : 'font-medium text-red-800'}>
                {state(e)}
              </p>
              <p className="text-gray-700">
                {e.undelivered} waiting to be delivered; secret {e.secretHint}; added{' '}
                {formatDateTime(e.createdAt)}
              </p>
              <EndpointEvents e={e} siteId={site.id} types={eventTypes} error={errors[`events-${e.id}`]} />
              <div className="mt-3 flex flex-wrap gap-2">
                {e.enabled ? (
                  <ActionButton
                    danger
                    onClick={() =>
                      act('disable', e, {}, `Disable ${e.url}? Its messages wait until it is enabled again.`)
                    }
                  >
                    Disable<span className="sr-only"> {e.url}</span>
                  </ActionButton>
                ) : (
                  <>
                    <ActionButton onClick={() => act('enable', e)}>
                      Enable and send what it missed<span className="sr-only"> ({e.url})</span>
                    </ActionButton>
                    <ActionButton
                      onClick={() =>
                        act(
                          'enable',
                          e,
                          { skipBacklog: true },
                          `Enable ${e.url} and drop the ${e.undelivered} messages it missed?`,
                        )
                      }
                    >
                      Enable without what it missed<span className="sr-only"> ({e.url})</span>
                    </ActionButton>
                  </>
                )}
                <ActionButton
                  onClick={() =>
                    act(
                      'rotate',
                      e,
                      {},
                      `Make a new signing secret for ${e.url}? The old one keeps working for 24 hours.`,
                    )
                  }
                >
                  Rotate secret<span className="sr-only"> of {e.url}</span>
                </ActionButton>
                {e.enabled ? (
                  <ActionButton onClick={() => act('test', e)}>
                    Send a test message<span className="sr-only"> to {e.url}</span>
                  </ActionButton>
                ) : null}
                <Link
                  href="/admin/webhooks"
                  data={{ site: site.id, endpoint: e.id }}
                  preserveScroll
                  className="self-center underline"
                >
                  Recent deliveries<span className="sr-only"> to {e.url}</span>
                </Link>
              </div>
              {deliveries?.endpointId === e.id ? (
                <section aria-label={`Recent deliveries to ${e.url}`} className="mt-3">
                  <Deliveries items={deliveries.items} />
                </section>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
    </div>
  )
}

Webhooks.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
