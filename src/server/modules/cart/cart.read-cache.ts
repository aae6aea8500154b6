/**
 * The Cart page's read of a basket (its row and lines), kept per instance so that showing a
 * basket again sends no statement (issue 18). Only display reads use it (`CartService.show`,
 * cart.reads.ts):
 * every write, the checkout and the wallets read the basket afresh in their own transaction.
 *
 * How it learns of a change:
 * - a write of this instance forgets the basket's entry when it starts and again when it has
 *   finished, committed or not (`mutate`, cart.mutate.ts; also `markOrdered`, `attachToCustomer`
 *   and the sweep);
 * - a write of another instance arrives on the change bus as `cart-summary` (ops/cache-signals.ts);
 * - a catalogue change (prices, names, publishing) forgets every entry, on every instance, as
 *   does a lost bus connection;
 * - no entry is used after `BASKET_READ_TTL_MS`, whatever was missed.
 *
 * A read keeps its result only when nothing was forgotten while it ran: a read that overlapped a
 * write may have seen the basket before that write, so it is shown once but not kept. Entries
 * are frozen, so no reader can change what the next one is shown.
 */
import { LRUCache } from 'lru-cache'

/** How long a kept read may be shown at most (a missed notification's worst case). */
export const BASKET_READ_TTL_MS = 10_000

/** Freezes a value and everything reachable from it (plain objects and arrays; Dates as they are). */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value
  Object.freeze(value)
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  return value
}

export class BasketReadCache<T extends object> {
  private readonly entries: LRUCache<string, T>
  /** Bumped by every forget: a read that began before one does not fill the cache. */
  private epoch = 0

  constructor(opts: { max: number; ttlMs: number }) {
    this.entries = new LRUCache<string, T>({ max: opts.max, ttl: opts.ttlMs })
  }

  get(key: string): T | undefined {
    return this.entries.get(key)
  }

  /** Call before reading from the database; give the token to `keep`. */
  begin(): number {
    return this.epoch
  }

  /** Keeps (frozen) what a read found, unless something was forgotten since it began. */
  keep(key: string, token: number, value: T): T {
    const frozen = deepFreeze(value)
    if (token === this.epoch) this.entries.set(key, frozen)
    return frozen
  }

  /** The basket changed, or is about to. */
  forget(key: string): void {
    this.epoch++
    this.entries.delete(key)
  }

  /** Anything may have changed (the catalogue, or notifications were missed). */
  forgetAll(): void {
    this.epoch++
    this.entries.clear()
  }
}
