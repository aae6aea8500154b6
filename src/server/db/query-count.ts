/**
 * Counts the SQL statements a piece of work sends (a request, in the bench and the query-budget
 * test). Drizzle hands every statement to `queryLogger`; it adds one to the tally of the async
 * context it runs in, if any. Transaction control (BEGIN, COMMIT, ROLLBACK, savepoints) is not
 * counted: the drivers differ there (PGlite's transactions send their own), the work does not.
 * Outside a tally the logger does nothing but one AsyncLocalStorage lookup.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { Logger } from 'drizzle-orm'

export interface QueryTally {
  count: number
  /** The statements' text, in order, when asked for (a failing budget test prints them). */
  statements?: string[]
}

const tallies = new AsyncLocalStorage<QueryTally>()

const CONTROL = /^\s*(begin|commit|rollback|savepoint|release)\b/i

export const queryLogger: Logger = {
  logQuery(query: string): void {
    const tally = tallies.getStore()
    if (!tally || CONTROL.test(query)) return
    tally.count++
    tally.statements?.push(query)
  },
}

/** Runs `fn` with a tally of its own: every statement it (and what it starts) sends is counted. */
export function withQueryTally<T>(tally: QueryTally, fn: () => T): T {
  return tallies.run(tally, fn)
}
