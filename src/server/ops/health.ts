/**
 * Operations endpoints: `GET /healthz` (the process is alive and answers), `GET /readyz` (it can
 * serve: database, Redis, search index and change listener ready; 503 while shutting down, so a
 * load balancer stops sending before the process goes), and `GET /metrics` (Prometheus).
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import type { Database } from '../db/client.ts'
import type { Metrics } from './metrics.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** /readyz answers 503 from now on (shutdown has begun; requests are still served). */
    markDraining(): void
  }
}

export interface HealthOptions {
  database: Database
  redis: Redis | null
  metrics: Metrics
  /** Bearer token `/metrics` requires; null = open (keep it behind the proxy). */
  metricsToken: string | null
}

type Check = { ok: true } | { ok: false; error: string }

async function check(fn: () => Promise<unknown>, timeoutMs = 2000): Promise<Check> {
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([
      fn(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs)
      }),
    ])
    return { ok: true }
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) }
  } finally {
    clearTimeout(timer)
  }
}

async function health(app: FastifyInstance, opts: HealthOptions) {
  const { database, redis } = opts
  let draining = false
  // main.ts on SIGTERM: not ready at once, a pause for the load balancer to notice, then close.
  app.decorate('markDraining', () => {
    draining = true
  })
  app.addHook('preClose', async () => {
    draining = true
  })
  // While draining, answers end their connection, so keep-alive clients reconnect elsewhere and
  // closing does not wait for them.
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close')
  })

  const quiet = { config: { rateLimit: false as const, csrf: false } }

  app.get('/healthz', quiet, async () => ({ status: 'ok' }))

  app.get('/readyz', quiet, async (_request, reply) => {
    const checks: Record<string, Check> = {
      database: await check(() => database.ping()),
      ...(redis ? { redis: await check(() => redis.ping()) } : {}),
      search: app.searchService.lastBuild
        ? { ok: true }
        : { ok: false, error: 'the search index is not built yet' },
    }
    const bus = app.changes as { connected?: boolean }
    if (bus.connected !== undefined) {
      checks.changes = bus.connected ? { ok: true } : { ok: false, error: 'not listening for changes' }
    }
    if (draining) checks.shutdown = { ok: false, error: 'shutting down' }
    const ready = Object.values(checks).every((c) => c.ok)
    if (!ready) app.log.warn({ checks }, 'not ready')
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks })
  })

  app.get('/metrics', quiet, async (request, reply) => {
    if (opts.metricsToken && request.headers.authorization !== `Bearer ${opts.metricsToken}`) {
      return reply.code(401).send({ message: 'A metrics token is required.' })
    }
    reply.header('content-type', opts.metrics.registry.contentType)
    return opts.metrics.registry.metrics()
  })
}

/** Not encapsulated: `markDraining` is used by main.ts on the root instance. */
export const healthRoutes = fp(health, { name: 'health' })
