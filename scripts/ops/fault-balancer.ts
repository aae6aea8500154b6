/**
 * The load test's HTTP client (fault-traffic.ts): a small client-side balancer over the shop's
 * instances, as a proxy with health checks would be (round-robin over the instances whose
 * `/readyz` answered 200 at the last probe; an instance taken out at once when a connection to it
 * is refused or reset), and the shoppers' cookie jars and addresses.
 */
import http from 'node:http'

export class RequestError extends Error {
  constructor(readonly kind: string) {
    super(kind)
  }
}

export interface Answer {
  status: number
  text: string
  cookies: string[]
}

/** The instances behind the client-side balancer. */
export class Balancer {
  private next = 0
  private readonly up: boolean[]
  /** Requests sent and not yet settled, per instance and path */
  private readonly inFlight: Map<string, number>[]
  private readonly agents: http.Agent[]
  private timer: NodeJS.Timeout | null = null

  constructor(readonly ports: number[]) {
    this.up = ports.map(() => true)
    this.inFlight = ports.map(() => new Map())
    this.agents = ports.map(() => new http.Agent({ keepAlive: true, maxSockets: 64 }))
  }

  /** The next healthy instance (round-robin); when none is healthy, the next one anyway. */
  pick(): number {
    for (let i = 0; i < this.ports.length; i++) {
      const at = this.next++ % this.ports.length
      if (this.up[at]) return at
    }
    return this.next++ % this.ports.length
  }

  /** Requests to `path` on instance `at` that have been sent and not answered yet. */
  busy(at: number, path: string): number {
    return this.inFlight[at]!.get(path) ?? 0
  }

  takeOut(at: number): void {
    this.up[at] = false
  }

  healthy(): boolean[] {
    return [...this.up]
  }

  startProbes(everyMs = 1000): void {
    const probe = () =>
      this.ports.forEach((port, at) => {
        const req = http.get({ host: '127.0.0.1', port, path: '/readyz', timeout: 1000 }, (res) => {
          res.resume()
          this.up[at] = res.statusCode === 200
        })
        req.on('timeout', () => req.destroy(new Error('timeout')))
        req.on('error', () => (this.up[at] = false))
      })
    this.timer = setInterval(probe, everyMs)
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    for (const a of this.agents) a.destroy()
  }

  request(
    at: number,
    opts: {
      method: string
      path: string
      headers: Record<string, string>
      body?: string
      timeoutMs?: number
    },
  ): Promise<Answer> {
    const counts = this.inFlight[at]!
    counts.set(opts.path, (counts.get(opts.path) ?? 0) + 1)
    const settled = () => counts.set(opts.path, counts.get(opts.path)! - 1)
    return this.send(at, opts).finally(settled)
  }

  private send(
    at: number,
    opts: {
      method: string
      path: string
      headers: Record<string, string>
      body?: string
      timeoutMs?: number
    },
  ): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: this.ports[at],
          agent: this.agents[at],
          method: opts.method,
          path: opts.path,
          headers:
            opts.body === undefined
              ? opts.headers
              : {
                  ...opts.headers,
                  'content-type': 'application/json',
                  'content-length': String(Buffer.byteLength(opts.body)),
                },
          timeout: opts.timeoutMs ?? 30_000,
        },
        (res) => {
          let text = ''
          res.setEncoding('utf8')
          res.on('data', (c: string) => (text += c))
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, text, cookies: res.headers['set-cookie'] ?? [] }),
          )
          res.on('error', () => reject(new RequestError('reset')))
        },
      )
      req.on('timeout', () => req.destroy(new RequestError('timeout')))
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (err instanceof RequestError) return reject(err)
        const kind =
          err.code === 'ECONNREFUSED'
            ? 'refused'
            : err.code === 'ECONNRESET' || /hang up/.test(err.message)
              ? 'reset'
              : (err.code ?? 'error')
        // A proxy's passive health check: no new requests until /readyz answers again.
        if (kind === 'refused' || kind === 'reset') this.takeOut(at)
        reject(new RequestError(kind))
      })
      req.end(opts.body)
    })
  }
}

/** One visitor: its cookies, its own address (X-Forwarded-For) and the site it shops on. */
export class Shopper {
  private readonly jar = new Map<string, string>()
  acked = 0
  unanswered = 0
  refused = 0
  constructor(
    readonly id: number,
    readonly host: string,
  ) {}

  headers(json: boolean): Record<string, string> {
    return {
      host: this.host,
      accept: json ? 'application/json' : 'text/html',
      'x-forwarded-for': `10.${40 + (this.id >> 16)}.${(this.id >> 8) & 255}.${this.id & 255}`,
      cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '),
      ...(json ? { 'x-xsrf-token': decodeURIComponent(this.jar.get('XSRF-TOKEN') ?? '') } : {}),
    }
  }

  keep(cookies: string[]): void {
    for (const c of cookies) {
      const [pair] = c.split(';')
      const i = pair!.indexOf('=')
      this.jar.set(pair!.slice(0, i), pair!.slice(i + 1))
    }
  }
}
