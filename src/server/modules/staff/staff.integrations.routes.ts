/**
 * The back office's API tokens and webhook endpoints (issue 34), owners only: the same services as
 * the integration API and the CLI (staff.settings.ts adds the audit row). A new token's or
 * endpoint's secret is in the answer to its creation (or rotation) only, never in a list, a log or
 * the audit. Thin: parse, call, render the page with a notice or the errors.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { tokenFormSchema, webhookEventsSchema, webhookFormSchema } from '../../../shared/staff-settings.ts'
import type { Db } from '../../db/client.ts'
import { listDeliveries, listEndpoints } from '../webhooks/webhooks.endpoints.ts'
import { ORDER_EVENT_TYPES } from '../webhooks/webhooks.policy.ts'
import { issues } from './staff.auth.routes.ts'
import { ADMIN_PATH, actorOf, guard, renderAdmin } from './staff.http.ts'
import {
  addEndpoint,
  changeEndpoint,
  createToken,
  listTokens,
  revokeToken,
  rotateEndpointSecret,
  testEndpoint,
} from './staff.settings.ts'
import { chosenSite, noSuchSite } from './staff.settings.routes.ts'

type Extra = { errors?: Record<string, string>; notice?: string | null; secret?: Record<string, unknown> }
type SiteList = Awaited<ReturnType<typeof chosenSite>>['sites']
type SiteRow = SiteList[number]

const UNDERSTOOD = 'The request could not be understood.'
const id = z.coerce.number().int().positive().max(2_147_483_647)
const endpointId = z.string().regex(/^ep_[A-Za-z0-9_-]{1,60}$/)

const tokenIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('create') }).passthrough(),
  z.object({ intent: z.literal('revoke'), id }).passthrough(),
])

const webhookIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('create') }).passthrough(),
  z.object({ intent: z.literal('events'), id: endpointId }).passthrough(),
  z.object({ intent: z.literal('disable'), id: endpointId }).passthrough(),
  z
    .object({
      intent: z.literal('enable'),
      id: endpointId,
      skipBacklog: z.union([z.boolean(), z.enum(['1', 'true', 'on', ''])]).optional(),
    })
    .passthrough(),
  z.object({ intent: z.literal('rotate'), id: endpointId }).passthrough(),
  z.object({ intent: z.literal('test'), id: endpointId }).passthrough(),
])

const endpointQuery = z.object({ endpoint: endpointId.optional().catch(undefined) })

export async function staffIntegrationRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts
  const deps = () => ({ ...app.webhooks.deps, actor: 'the back office' })

  // --- API tokens ------------------------------------------------------------------------------

  const tokensPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    extra: Extra = {},
    status = 200,
  ) => {
    const { sites } = await chosenSite(db, {})
    // A secret shown once must not sit readable in the browser's history.
    request.inertia.encryptHistory()
    return renderAdmin(
      request,
      reply,
      'admin/Tokens',
      {
        tokens: await listTokens(db),
        sites: sites.map(({ id, name, code }) => ({ id, name, code })),
        created: extra.secret ?? null,
        errors: extra.errors ?? {},
        notice: extra.notice ?? null,
      },
      status,
    )
  }

  app.get(`${ADMIN_PATH}/tokens`, guard('tokens.manage'), async (request, reply) =>
    tokensPage(request, reply),
  )

  app.post(`${ADMIN_PATH}/tokens`, guard('tokens.manage'), async (request, reply) => {
    const intent = tokenIntent.safeParse(request.body ?? {})
    if (!intent.success) return tokensPage(request, reply, { errors: { form: UNDERSTOOD } }, 422)
    const actor = actorOf(request)
    if (intent.data.intent === 'revoke') {
      const result = await revokeToken(db, actor, intent.data.id)
      if (!result.ok) return tokensPage(request, reply, { errors: { form: result.message } }, 422)
      return tokensPage(request, reply, {
        notice: `Token ${intent.data.id} was revoked; it no longer works.`,
      })
    }
    const { site } = await chosenSite(db, request.body)
    if (!site) return tokensPage(request, reply, { errors: { site: 'Please choose a site.' } }, 422)
    const parsed = tokenFormSchema.safeParse(request.body)
    if (!parsed.success) return tokensPage(request, reply, { errors: issues(parsed.error) }, 422)
    const created = await createToken(db, actor, site.code, parsed.data.name)
    return tokensPage(request, reply, {
      secret: { id: created.id, name: parsed.data.name, site: site.name, token: created.token },
    })
  })

  // --- webhook endpoints -----------------------------------------------------------------------

  const webhooksPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    sites: SiteList,
    site: SiteRow,
    extra: Extra = {},
    status = 200,
  ) => {
    const endpoints = await listEndpoints(db, site.id)
    const asked = endpointQuery.parse(request.query ?? {}).endpoint
    const selected = endpoints.find((e) => e.id === asked) ?? null
    request.inertia.encryptHistory()
    return renderAdmin(
      request,
      reply,
      'admin/Webhooks',
      {
        sites: sites.map(({ id, name }) => ({ id, name })),
        site: { id: site.id, name: site.name },
        endpoints,
        eventTypes: ORDER_EVENT_TYPES,
        deliveries: selected
          ? { endpointId: selected.id, items: await listDeliveries(db, site.id, selected.id, { limit: 25 }) }
          : null,
        secret: extra.secret ?? null,
        errors: extra.errors ?? {},
        notice: extra.notice ?? null,
      },
      status,
    )
  }

  app.get(`${ADMIN_PATH}/webhooks`, guard('webhooks.manage'), async (request, reply) => {
    const { sites, site } = await chosenSite(db, request.query)
    if (!site) return noSuchSite(request, reply)
    return webhooksPage(request, reply, sites, site)
  })

  app.post(`${ADMIN_PATH}/webhooks`, guard('webhooks.manage'), async (request, reply) => {
    const { sites, site } = await chosenSite(db, request.body)
    if (!site) return noSuchSite(request, reply)
    const page = (extra: Extra, status = 200) => webhooksPage(request, reply, sites, site, extra, status)
    const intent = webhookIntent.safeParse(request.body ?? {})
    if (!intent.success) return page({ errors: { form: UNDERSTOOD } }, 422)
    const actor = actorOf(request)
    const i = intent.data
    if (i.intent === 'create') {
      const parsed = webhookFormSchema.safeParse(request.body)
      if (!parsed.success) return page({ errors: issues(parsed.error) }, 422)
      const r = await addEndpoint(db, deps(), actor, site.id, parsed.data)
      if (!r.ok) return page({ errors: { [r.field]: r.message } }, 422)
      return page({
        notice: `The endpoint ${r.endpoint.url} was added.`,
        secret: { endpointId: r.endpoint.id, url: r.endpoint.url, secret: r.secret, until: null },
      })
    }
    if (i.intent === 'rotate') {
      const r = await rotateEndpointSecret(db, actor, site.id, i.id)
      if (!r.ok) return page({ errors: { form: r.message } }, 422)
      return page({
        secret: {
          endpointId: r.endpoint.id,
          url: r.endpoint.url,
          secret: r.secret,
          until: r.previousSecretValidUntil,
        },
      })
    }
    if (i.intent === 'test') {
      const r = await testEndpoint(db, app.webhooks.deps, actor, site.id, i.id)
      if (!r.ok) return page({ errors: { form: r.message } }, 422)
      return page({ notice: `A test message (${r.messageId}) is on its way.` })
    }
    if (i.intent === 'events') {
      const parsed = webhookEventsSchema.safeParse(request.body)
      if (!parsed.success) {
        const message = issues(parsed.error).eventTypes ?? 'Please choose at least one event.'
        return page({ errors: { [`events-${i.id}`]: message } }, 422)
      }
      const r = await changeEndpoint(db, deps(), actor, site.id, i.id, parsed.data, 'webhook.events')
      if (!r.ok) return page({ errors: { form: r.message } }, 422)
      return page({ notice: `The events of ${r.endpoint.url} were changed.` })
    }
    const enabling = i.intent === 'enable'
    const skipBacklog = enabling && ['1', 'true', 'on', true].includes(i.skipBacklog ?? '')
    const r = await changeEndpoint(
      db,
      deps(),
      actor,
      site.id,
      i.id,
      { enabled: enabling, ...(skipBacklog ? { skipBacklog } : {}) },
      enabling ? 'webhook.enable' : 'webhook.disable',
    )
    if (!r.ok) return page({ errors: { form: r.message } }, 422)
    return page({
      notice: enabling
        ? `${r.endpoint.url} is enabled${skipBacklog ? '; what it missed was dropped' : ' and receives what it missed, oldest first'}.`
        : `${r.endpoint.url} is disabled; its messages wait until it is enabled again.`,
    })
  })
}
