/**
 * Work that an e-mail-taking answer (forgot password, register, resend verification) must
 * neither wait for nor reveal. The route does the same thing for a known and an unknown address:
 * it hands one task to this queue and answers. Whether the address has an account is first
 * looked at here, later and off the response path, so the answer's time cannot depend on it.
 *
 * Tasks run in order, one at a time, after a delay with jitter (production: 150–650 ms): the
 * extra work of a real account lands on whichever requests happen to run then, not on the one
 * that asked for it nor reliably on the next. The e-mail a task decides on is durable: the app's
 * mailer for account mail writes a row in the mail queue and sends it from there (ADR 0186), so
 * once a task has run, a crash no longer loses its message. The task itself is held in memory
 * for its delay (under a second): a process that dies in that window loses it (the visitor asks
 * again); `close()` runs what is left.
 */
export interface DeferredWorkOptions {
  /** Delay before a batch runs (ms); called for every batch so it may be random. */
  delayMs: () => number
  log?: { error(obj: object, msg: string): void }
}

export class DeferredWork {
  private readonly tasks: (() => Promise<void>)[] = []
  private timer: NodeJS.Timeout | null = null
  private running: Promise<void> | null = null
  private closed = false

  constructor(private readonly opts: DeferredWorkOptions) {}

  /** Queues a task; it runs after the delay. Costs the caller the same whatever the task does. */
  add(task: () => Promise<void>): void {
    this.tasks.push(task)
    this.schedule()
  }

  /** Tasks waiting to run. */
  get pending(): number {
    return this.tasks.length
  }

  /** Runs every queued task now (and any queued meanwhile); resolves when the queue is empty. */
  async drain(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    while (this.running) await this.running
    if (this.tasks.length === 0) return
    this.running = this.runAll().finally(() => {
      this.running = null
      if (this.tasks.length > 0) this.schedule()
    })
    await this.running
  }

  /** Stops scheduling and runs what is left. */
  async close(): Promise<void> {
    this.closed = true
    await this.drain()
  }

  private schedule(): void {
    if (this.timer || this.running || this.closed) return
    this.timer = setTimeout(() => {
      this.timer = null
      void this.drain()
    }, this.opts.delayMs())
    this.timer.unref()
  }

  private async runAll(): Promise<void> {
    for (let task = this.tasks.shift(); task; task = this.tasks.shift()) {
      try {
        await task()
      } catch (err) {
        this.opts.log?.error({ err }, 'deferred auth work failed')
      }
    }
  }
}
