/**
 * Fault injection shared by every simulator: the control endpoint (or a test) queues faults;
 * the next matching request suffers them.
 *
 * - `error500`: answer 500 without acting.
 * - `timeout`: never answer, without acting (the request got lost on the way in).
 * - `timeoutAfter`: act (take the money), then never answer (the answer got lost on the way out).
 * - `reset`: drop the connection without acting.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { escapeHtml } from '../shared/safe-html.ts'

export type Provider = 'opayo' | 'paya' | 'paypal' | 'amazon'
export type FaultKind = 'error500' | 'timeout' | 'timeoutAfter' | 'reset'

export interface Fault {
  provider: Provider
  /**
   * Matches the start of `${METHOD} ${path}` (path without the provider prefix), e.g.
   * 'POST /transactions'; a trailing `$` matches the whole line only ('POST /transactions$' is
   * not 'POST /transactions/{id}/instructions').
   */
  match: string
  kind: FaultKind
  /** How many requests suffer it (default 1). */
  times: number
}

export class Faults {
  private queue: Fault[] = []
  /** Requests held open by a time-out fault; released (with 504) when the simulator closes. */
  private held = new Set<() => void>()

  add(fault: Omit<Fault, 'times'> & { times?: number }): void {
    this.queue.push({ ...fault, times: fault.times ?? 1 })
  }

  clear(): void {
    this.queue = []
  }

  take(provider: Provider, method: string, path: string): FaultKind | null {
    const line = `${method} ${path}`
    const f = this.queue.find(
      (q) =>
        q.provider === provider &&
        (q.match.endsWith('$') ? line === q.match.slice(0, -1) : line.startsWith(q.match)),
    )
    if (!f) return null
    f.times -= 1
    if (f.times <= 0) this.queue.splice(this.queue.indexOf(f), 1)
    return f.kind
  }

  /** Hold a request open until the simulator closes: the client's own time-out fires first. */
  hold(reply: FastifyReply): Promise<void> {
    return new Promise((resolve) => {
      const release = () => {
        this.held.delete(release)
        if (!reply.sent) void reply.code(504).send({ error: 'simulator closed' })
        resolve()
      }
      this.held.add(release)
    })
  }

  releaseAll(): void {
    for (const r of [...this.held]) r()
  }
}

/**
 * Runs `handler` under the provider's queued faults. The handler acts (changes simulator state)
 * and returns the reply body; status codes are set on `reply` by the handler.
 */
export async function underFaults(
  faults: Faults,
  provider: Provider,
  prefix: string,
  request: FastifyRequest,
  reply: FastifyReply,
  handler: () => Promise<unknown> | unknown,
): Promise<unknown> {
  const path = request.url.slice(prefix.length).split('?')[0] ?? ''
  const kind = faults.take(provider, request.method, path)
  if (kind === 'error500')
    return reply.code(500).send({ name: 'INTERNAL_SERVER_ERROR', message: 'simulated fault' })
  if (kind === 'reset') {
    request.raw.socket.destroy()
    return reply
  }
  if (kind === 'timeout') {
    await faults.hold(reply)
    return reply
  }
  if (kind === 'timeoutAfter') {
    // Act in full (the provider takes the money), but let no answer out.
    const r = reply as unknown as Record<string, unknown>
    const muted = ['send', 'code', 'status', 'type', 'header', 'redirect']
    for (const m of muted) r[m] = () => reply
    try {
      await handler()
    } finally {
      for (const m of muted) delete r[m]
    }
    await faults.hold(reply)
    return reply
  }
  return handler()
}

/** Luhn check for test card numbers. */
export function luhn(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false
  let sum = 0
  for (let i = 0; i < number.length; i++) {
    let d = Number(number[number.length - 1 - i])
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

export { escapeHtml } from '../shared/safe-html.ts'

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title>
<style>body{font:16px system-ui,sans-serif;margin:1rem;color:#111}label{display:block;margin:.5rem 0}input,select{font:inherit;padding:.3rem}button{font:inherit;padding:.4rem 1rem;margin:.3rem .3rem 0 0}.sim{font-size:.8rem;color:#555}</style></head><body>${body}</body></html>`
}
