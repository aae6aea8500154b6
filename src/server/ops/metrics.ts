/**
 * Prometheus metrics (prom-client), one registry per app: request rate and latency per route,
 * database pool use, in-process cache hit rates and background job lag, plus Node's defaults.
 */
import type { FastifyInstance } from 'fastify'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import type { Database } from '../db/client.ts'
import { cacheCounts } from '../lib/cache-stats.ts'

export interface Metrics {
  registry: Registry
}

export function createMetrics(app: FastifyInstance, database: Database): Metrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern and method',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern ('/cart/add', '/*'), never the raw URL: label values must stay few.
    const route = request.routeOptions.url ?? 'unmatched'
    if (route === '/metrics') return
    requests.inc({ method: request.method, route, status: String(reply.statusCode) })
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000)
  })

  new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL pool connections by state (total, idle, waiting clients, max)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = database.poolStats?.()
      if (!stats) return
      for (const [state, value] of Object.entries(stats)) this.set({ state }, value)
    },
  })

  new Gauge({
    name: 'cache_requests',
    help: 'In-process cache look-ups since start, by cache and result (hit or miss)',
    labelNames: ['cache', 'result'] as const,
    registers: [registry],
    collect() {
      for (const [cache, c] of cacheCounts()) {
        this.set({ cache, result: 'hit' }, c.hits)
        this.set({ cache, result: 'miss' }, c.misses)
      }
    },
  })

  new Gauge({
    name: 'job_lag_seconds',
    help: 'How far a background job is behind its schedule',
    labelNames: ['job'] as const,
    registers: [registry],
    collect() {
      for (const s of app.jobs.status()) this.set({ job: s.name }, s.lagSeconds)
    },
  })
  new Gauge({
    name: 'job_runs',
    help: 'Background job runs since start, by job and outcome',
    labelNames: ['job', 'outcome'] as const,
    registers: [registry],
    collect() {
      for (const s of app.jobs.status()) {
        this.set({ job: s.name, outcome: 'ok' }, s.runs)
        this.set({ job: s.name, outcome: 'failed' }, s.failures)
      }
    },
  })
  return { registry }
}
