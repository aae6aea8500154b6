/**
 * A small closed-loop HTTP load generator: `connections` keep-alive connections, each sending
 * its next request as soon as the previous answer has been read, for a fixed duration.
 * Latencies are kept exactly, so any percentile can be reported.
 */
import http from 'node:http'

export interface LoadOptions {
  url: string
  headers?: Record<string, string>
  /** Default GET, or POST when there is a body */
  method?: 'GET' | 'POST'
  /** JSON body sent with every request */
  body?: string
  /** Requests take these headers and bodies in turn (e.g. many visitors' baskets) */
  variants?: { headers: Record<string, string>; body?: string }[]
  connections: number
  durationMs: number
  warmupMs?: number
}

export interface LoadResult {
  requests: number
  errors: number
  non2xx: number
  seconds: number
  rps: number
  p50: number
  p95: number
  p99: number
  bytesPerResponse: number
  /** Percentiles of the server's own time (its Server-Timing header), when it sends one */
  server: { p50: number; p95: number; p99: number } | null
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[i]!
}

/** `Server-Timing: app;dur=1.23` → 1.23 */
function serverTime(res: http.IncomingMessage): number | null {
  const header = res.headers['server-timing']
  const match = typeof header === 'string' ? /dur=([\d.]+)/.exec(header) : null
  return match ? Number(match[1]) : null
}

function summarise(
  latencies: number[],
  serverTimes: number[],
  extra: { errors: number; non2xx: number; bytes: number; seconds: number },
): LoadResult {
  const sorted = Float64Array.from(latencies).sort()
  const server = Float64Array.from(serverTimes).sort()
  return {
    requests: sorted.length,
    errors: extra.errors,
    non2xx: extra.non2xx,
    seconds: extra.seconds,
    rps: sorted.length / extra.seconds,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    bytesPerResponse: sorted.length ? extra.bytes / sorted.length : 0,
    server: server.length
      ? { p50: percentile(server, 50), p95: percentile(server, 95), p99: percentile(server, 99) }
      : null,
  }
}

function once(
  agent: http.Agent,
  url: URL,
  headers: Record<string, string>,
  method?: string,
  body?: string,
): Promise<{ status: number; bytes: number; serverMs: number | null }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        hostname: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: method ?? (body === undefined ? 'GET' : 'POST'),
        headers:
          body === undefined
            ? headers
            : {
                ...headers,
                'content-type': 'application/json',
                'content-length': String(Buffer.byteLength(body)),
              },
      },
      (res) => {
        let bytes = 0
        res.on('data', (c: Buffer) => (bytes += c.length))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, serverMs: serverTime(res) }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

async function run(opts: LoadOptions, durationMs: number, record: boolean) {
  const url = new URL(opts.url)
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.connections })
  const latencies: number[] = []
  const serverTimes: number[] = []
  let errors = 0
  let non2xx = 0
  let bytes = 0
  const deadline = performance.now() + durationMs
  const started = performance.now()
  let sent = 0
  await Promise.all(
    Array.from({ length: opts.connections }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now()
        const variant = opts.variants?.length ? opts.variants[sent++ % opts.variants.length]! : null
        try {
          const r = await once(
            agent,
            url,
            variant?.headers ?? opts.headers ?? {},
            opts.method,
            variant ? variant.body : opts.body,
          )
          if (r.status < 200 || r.status >= 300) non2xx++
          bytes += r.bytes
          if (record) {
            latencies.push(performance.now() - t0)
            if (r.serverMs !== null) serverTimes.push(r.serverMs)
          }
        } catch {
          errors++
        }
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  agent.destroy()
  return { latencies, serverTimes, errors, non2xx, bytes, seconds }
}

export async function load(opts: LoadOptions): Promise<LoadResult> {
  if (opts.warmupMs) await run(opts, opts.warmupMs, false)
  const r = await run(opts, opts.durationMs, true)
  return summarise(r.latencies, r.serverTimes, r)
}

export interface RateOptions {
  url: string
  headers?: Record<string, string>
  method?: 'GET' | 'POST'
  body?: string
  variants?: { headers: Record<string, string>; body?: string }[]
  /** Requests per second to send, whatever the server's speed (open loop) */
  rate: number
  durationMs: number
}

/**
 * Open-loop load: requests start on a fixed schedule, and each latency is measured from the
 * moment the request was due, so a slow server cannot hide its queueing (no coordinated omission).
 */
export async function rateLoad(opts: RateOptions): Promise<LoadResult> {
  const url = new URL(opts.url)
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
  const total = Math.round((opts.rate * opts.durationMs) / 1000)
  const latencies: number[] = []
  const serverTimes: number[] = []
  let errors = 0
  let non2xx = 0
  let bytes = 0
  const started = performance.now()
  const inFlight: Promise<void>[] = []
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / opts.rate
    const wait = due - performance.now()
    if (wait > 1) await new Promise((r) => setTimeout(r, wait))
    const variant = opts.variants?.length ? opts.variants[i % opts.variants.length]! : null
    inFlight.push(
      once(
        agent,
        url,
        variant?.headers ?? opts.headers ?? {},
        opts.method,
        variant ? variant.body : opts.body,
      ).then(
        (r) => {
          if (r.status < 200 || r.status >= 300) non2xx++
          bytes += r.bytes
          latencies.push(performance.now() - due)
          if (r.serverMs !== null) serverTimes.push(r.serverMs)
        },
        () => void errors++,
      ),
    )
  }
  await Promise.all(inFlight)
  const seconds = (performance.now() - started) / 1000
  agent.destroy()
  return summarise(latencies, serverTimes, { errors, non2xx, bytes, seconds })
}
