/**
 * The shared invalidation signal for in-process caches (ADR 0081). A write on one instance
 * publishes a change; every other instance hears it through PostgreSQL LISTEN/NOTIFY and drops or
 * refreshes what it cached. The publishing instance applies the change itself, synchronously,
 * before publishing, so it never waits for its own notification.
 *
 * On the embedded database (one process owns it) the bus is local: there is nobody to tell.
 */
import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Client as PgClient } from 'pg'

export const CHANGES_CHANNEL = 'shop_changes'

/** PostgreSQL refuses NOTIFY payloads of 8000 bytes and more. */
const MAX_PAYLOAD = 7900

export type ChangeHandler = (payload: Record<string, unknown>) => void | Promise<void>

export interface ChangeBus {
  /** This instance's id; messages it sent are not handed back to it. */
  readonly origin: string
  /** Tells the other instances; never calls this instance's own handlers. */
  publish(topic: string, payload?: Record<string, unknown>): void
  /** Calls `handler` for every change another instance publishes on `topic`. */
  on(topic: string, handler: ChangeHandler): void
  /**
   * Calls `handler` when notifications may have been missed (the listening connection was lost
   * and is back): every cache must then forget everything.
   */
  onReset(handler: () => void): void
  /** Resolves once messages published before now by this process were sent (tests). */
  flush(): Promise<void>
  close(): Promise<void>
}

interface Message {
  o: string
  t: string
  p: Record<string, unknown>
}

/** Splits handling from transport, so the same dispatch serves PostgreSQL and tests. */
export abstract class BaseChangeBus implements ChangeBus {
  readonly origin = randomUUID()
  private readonly handlers = new Map<string, Set<ChangeHandler>>()
  private readonly resets = new Set<() => void>()
  protected pending: Promise<void> = Promise.resolve()

  constructor(protected readonly log?: FastifyBaseLogger) {}

  abstract publish(topic: string, payload?: Record<string, unknown>): void

  on(topic: string, handler: ChangeHandler): void {
    let set = this.handlers.get(topic)
    if (!set) this.handlers.set(topic, (set = new Set()))
    set.add(handler)
  }

  onReset(handler: () => void): void {
    this.resets.add(handler)
  }

  flush(): Promise<void> {
    return this.pending
  }

  async close(): Promise<void> {
    await this.pending
  }

  /** Encodes a message, dropping the payload when it is too large (receivers then drop more). */
  protected encode(topic: string, payload: Record<string, unknown>): string {
    const text = JSON.stringify({ o: this.origin, t: topic, p: payload } satisfies Message)
    if (Buffer.byteLength(text) <= MAX_PAYLOAD) return text
    return JSON.stringify({ o: this.origin, t: topic, p: { truncated: true } } satisfies Message)
  }

  /** Hands a received message to this instance's handlers, unless this instance sent it. */
  protected async receive(text: string): Promise<void> {
    let message: Message
    try {
      message = JSON.parse(text) as Message
    } catch {
      return
    }
    if (message.o === this.origin) return
    for (const handler of this.handlers.get(message.t) ?? []) {
      try {
        await handler(message.p ?? {})
      } catch (err) {
        this.log?.error({ err, topic: message.t }, 'change handler failed')
      }
    }
  }

  protected reset(): void {
    for (const handler of this.resets) {
      try {
        handler()
      } catch (err) {
        this.log?.error({ err }, 'cache reset failed')
      }
    }
  }
}

/** One process: nothing to tell. */
export class LocalChangeBus extends BaseChangeBus {
  publish(): void {}
}

export interface PostgresChangeBusOptions {
  connectionString: string
  log?: FastifyBaseLogger
  /** First reconnection delay; doubles up to 30 s. */
  retryMs?: number
}

/**
 * LISTEN on one dedicated connection (not from the pool: a pooled connection would stop
 * listening when released). NOTIFY goes through a second dedicated connection so publishing never
 * waits for a pool slot; notifications are delivered in commit order to every listener.
 */
export class PostgresChangeBus extends BaseChangeBus {
  private listener: PgClient | null = null
  private sender: PgClient | null = null
  private closed = false
  private retryMs: number
  private readonly baseRetryMs: number
  private timer: NodeJS.Timeout | null = null
  /** Whether the listening connection is up (readiness). */
  connected = false

  constructor(private readonly options: PostgresChangeBusOptions) {
    super(options.log)
    this.baseRetryMs = this.retryMs = options.retryMs ?? 500
  }

  async start(): Promise<void> {
    await this.connect(false)
  }

  private async connect(afterLoss: boolean): Promise<void> {
    const { default: pg } = await import('pg')
    const client = new pg.Client({ connectionString: this.options.connectionString })
    client.on('notification', (msg) => {
      if (msg.channel === CHANGES_CHANNEL && msg.payload) void this.receive(msg.payload)
    })
    client.on('error', (err) => this.lost(client, err))
    client.on('end', () => this.lost(client, null))
    await client.connect()
    await client.query(`LISTEN ${CHANGES_CHANNEL}`)
    this.listener = client
    this.connected = true
    this.retryMs = this.baseRetryMs
    // Whatever was published while we were not listening is unknown: forget everything.
    if (afterLoss) this.reset()
  }

  private lost(client: PgClient, err: Error | null): void {
    if (this.listener !== client) return
    this.listener = null
    this.connected = false
    client.removeAllListeners('end')
    void client.end().catch(() => {})
    if (this.closed) return
    this.log?.warn({ err }, 'change listener connection lost; reconnecting')
    this.scheduleReconnect()
  }

  private scheduleReconnect(): void {
    this.timer = setTimeout(() => {
      this.timer = null
      this.connect(true).catch((err: unknown) => {
        this.log?.warn({ err }, 'change listener could not reconnect')
        this.retryMs = Math.min(this.retryMs * 2, 30_000)
        if (!this.closed) this.scheduleReconnect()
      })
    }, this.retryMs)
    this.timer.unref()
  }

  private async senderClient(): Promise<PgClient> {
    if (this.sender) return this.sender
    const { default: pg } = await import('pg')
    const client = new pg.Client({ connectionString: this.options.connectionString })
    client.on('error', () => {
      if (this.sender === client) this.sender = null
    })
    client.on('end', () => {
      if (this.sender === client) this.sender = null
    })
    await client.connect()
    this.sender = client
    return client
  }

  publish(topic: string, payload: Record<string, unknown> = {}): void {
    const text = this.encode(topic, payload)
    this.pending = this.pending.then(async () => {
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          const client = await this.senderClient()
          await client.query('select pg_notify($1, $2)', [CHANGES_CHANNEL, text])
          return
        } catch (err) {
          this.sender = null
          if (attempt === 1) this.log?.error({ err, topic }, 'change could not be published')
        }
      }
    })
  }

  override async close(): Promise<void> {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    await this.pending
    const clients = [this.listener, this.sender]
    this.listener = this.sender = null
    this.connected = false
    for (const c of clients) {
      if (!c) continue
      c.removeAllListeners('end')
      await c.end().catch(() => {})
    }
  }
}
