/**
 * `npm run admin -- webhooks …` (ADR 0230): the shop's webhook endpoints from a shell, through the
 * same functions as the back-office API.
 *
 *   webhooks list --site <host|code>
 *   webhooks add <url> --site <host|code> [--events order.placed,order.shipped] [--description <text>]
 *                                                       prints the signing secret (shown once)
 *   webhooks remove <endpointId> --site <host|code>
 *   webhooks enable <endpointId> --site <host|code> [--skip-backlog]
 *   webhooks disable <endpointId> --site <host|code>
 *   webhooks deliveries <endpointId> --site <host|code> [--status failed] [--limit 50]
 *
 * This process queues no job: enabling makes the endpoint's undelivered messages due now, and the
 * running instances' sweep (every 5 s) sends them, oldest first.
 */
import type { Db } from '../../db/client.ts'
import { DomainError } from '../../lib/domain-error.ts'
import {
  createEndpoint,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  updateEndpoint,
  type EndpointsDeps,
} from '../webhooks/webhooks.endpoints.ts'
import { ORDER_EVENT_TYPES, type OrderEventType } from '../webhooks/webhooks.policy.ts'
import { urlPolicyFor } from '../webhooks/webhooks.sender.ts'
import { DELIVERY_STATUSES, type DeliveryStatus } from '../webhooks/webhooks.tables.ts'

/** The options `webhooks …` adds to the CLI's parseArgs. */
export const WEBHOOK_CLI_OPTIONS = {
  events: { type: 'string' },
  description: { type: 'string' },
  'skip-backlog': { type: 'boolean' },
  status: { type: 'string' },
  limit: { type: 'string' },
} as const

export const WEBHOOK_CLI_USAGE =
  'webhooks list|add <url> [--events a,b] [--description d]|remove <id>|enable <id> [--skip-backlog]|disable <id>|deliveries <id> [--status s] [--limit n] --site <host>'

interface Values {
  events?: string
  description?: string
  'skip-backlog'?: boolean
  status?: string
  limit?: string
}

/** Runs one `webhooks` command; returns the process's exit code (2: a usage error). */
export async function webhooksCommand(
  db: Db,
  webhooks: { allowLocalEndpoints: boolean },
  args: string[],
  values: Values,
  siteId: () => Promise<number>,
): Promise<number> {
  const deps: EndpointsDeps = {
    jobs: () => ({ enqueue: async () => {}, wake: () => {} }),
    urlPolicy: urlPolicyFor(webhooks),
    actor: 'the command line',
  }
  const [command, arg] = args
  const fail = (message: string) => {
    console.error(`${message}\nusage: npm run admin -- ${WEBHOOK_CLI_USAGE}`)
    return 2
  }
  try {
    if (command === 'list') {
      const rows = await listEndpoints(db, await siteId())
      if (rows.length === 0) console.log('no webhook endpoints')
      for (const e of rows) {
        const state = e.enabled ? 'enabled' : `DISABLED ${e.disabledAt}: ${e.disabledReason}`
        const failing = e.failingSince
          ? `, failing since ${e.failingSince} (${e.consecutiveFailures} in a row)`
          : ''
        console.log(
          `${e.id}  ${e.url}  [${e.eventTypes.join(',')}]  ${state}${failing}; ${e.undelivered} undelivered`,
        )
      }
    } else if (command === 'add') {
      if (!arg) return fail('webhooks add needs a URL')
      const eventTypes = values.events
        ? (values.events
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean) as OrderEventType[])
        : undefined
      const { endpoint, secret } = await createEndpoint(db, deps, await siteId(), {
        url: arg,
        ...(values.description ? { description: values.description } : {}),
        ...(eventTypes ? { eventTypes } : {}),
      })
      console.log(`endpoint ${endpoint.id} for ${endpoint.url} [${endpoint.eventTypes.join(',')}]`)
      console.log(`signing secret (shown once; store it now):\n${secret}`)
    } else if (command === 'remove') {
      if (!arg) return fail('webhooks remove needs an endpoint id')
      await deleteEndpoint(db, await siteId(), arg)
      console.log(`endpoint ${arg} removed`)
    } else if (command === 'enable' || command === 'disable') {
      if (!arg) return fail(`webhooks ${command} needs an endpoint id`)
      const e = await updateEndpoint(db, deps, await siteId(), arg, {
        enabled: command === 'enable',
        ...(values['skip-backlog'] ? { skipBacklog: true } : {}),
      })
      console.log(
        e.enabled
          ? `endpoint ${e.id} enabled; ${e.undelivered} undelivered message(s) go out in order within seconds`
          : `endpoint ${e.id} disabled; its ${e.undelivered} undelivered message(s) are kept`,
      )
    } else if (command === 'deliveries') {
      if (!arg) return fail('webhooks deliveries needs an endpoint id')
      if (values.status && !(DELIVERY_STATUSES as readonly string[]).includes(values.status)) {
        return fail(`--status must be one of ${DELIVERY_STATUSES.join(', ')}`)
      }
      const limit = values.limit ? Number(values.limit) : 50
      if (!Number.isInteger(limit) || limit < 1 || limit > 200)
        return fail('--limit must be a whole number from 1 to 200')
      const rows = await listDeliveries(db, await siteId(), arg, {
        limit,
        ...(values.status ? { status: values.status as DeliveryStatus } : {}),
      })
      if (rows.length === 0) console.log('no deliveries')
      for (const d of rows) {
        const last = d.lastStatusCode ? ` HTTP ${d.lastStatusCode}` : ''
        const error = d.lastError && d.status !== 'delivered' ? ` (${d.lastError})` : ''
        const next = d.nextAttemptAt ? `, next attempt ${d.nextAttemptAt}` : ''
        console.log(
          `${d.id}  ${d.messageId}  ${d.type}  ${d.status} after ${d.attempts} attempt(s)${last}${error}${next}`,
        )
      }
    } else {
      return fail(`unknown command 'webhooks ${args.join(' ')}'`)
    }
    return 0
  } catch (err) {
    if (!(err instanceof DomainError)) throw err
    console.error(err.message)
    if (err.code === 'invalid' && values.events)
      console.error(`known event types: ${ORDER_EVENT_TYPES.join(', ')}`)
    return 1
  }
}
