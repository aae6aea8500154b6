/**
 * Starting the embedded database (PGlite). Light to import, so the server process can start it
 * before it loads the rest of its modules (serve.ts): PGlite reads its files and compiles
 * PostgreSQL's WebAssembly (on V8's background threads) while the app's modules load, and its
 * statements wait for it to be ready, so no caller has to (ADR 0114).
 */
import type { PGlite, PGliteOptions, QueryOptions, Transaction } from '@electric-sql/pglite'
import { mkdirSync } from 'node:fs'
import { setImmediate as turnOfEventLoop } from 'node:timers/promises'

/** The embedded database's buffer pool (PostgreSQL's default is 128MB). */
const PGLITE_SHARED_BUFFERS = '32MB'

/**
 * The types drizzle asks PGlite to answer as text, with every statement (drizzle-orm/pglite's
 * session): timestamp, timestamptz, interval and date (1114, 1184, 1186, 1082), and the arrays
 * numeric[], timestamp[], timestamptz[], interval[] and date[]. Drizzle maps that text itself.
 */
export const DRIZZLE_TEXT_TYPES: ReadonlySet<number> = new Set([
  1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182,
])

const asText = (value: string) => value

/**
 * A statement's options without its parsers, which must be drizzle's: text for the types above.
 * PGlite merges a statement's parsers into a copy of its whole parser map (318 types, about
 * 0.1 ms) for every statement that has any; this instance answers those types as text already.
 * Any other parser is refused, not ignored.
 */
export function withoutTextParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  if (!options?.parsers) return options
  for (const [key, parse] of Object.entries(options.parsers)) {
    const type = Number(key)
    if (!DRIZZLE_TEXT_TYPES.has(type) || parse('text', type) !== 'text') {
      throw new Error(
        `A statement asked the embedded database to parse type ${key}: it takes only drizzle's text parsers.`,
      )
    }
  }
  const { parsers: _asText, ...rest } = options
  return rest
}

/**
 * PGlite as the shop runs it (ADR 0116):
 *
 * - Each statement gives the event loop a turn before it runs. PGlite runs a statement on this
 *   thread, to the end, and settles its promise as a microtask. Without the turn, a transaction
 *   of five statements would hold the event loop from its BEGIN to its COMMIT, and a request that
 *   arrived meanwhile would not be read until the loop had served everything it had read already:
 *   under load, one request in ten waited twice as long as the rest. With it, as with a networked
 *   database's round trip, new requests are read while a transaction runs and wait for the
 *   database in the order they came. PGlite sends every statement of its own (BEGIN and COMMIT
 *   too) through `_runExclusiveQuery`, its typed hook for that. The turn is
 *   `node:timers/promises`' setImmediate, which a test's fake timers leave alone.
 * - It answers drizzle's text types as text itself (after PGlite has set up its array types, which
 *   would replace some of them), so the parsers drizzle sends with each statement are dropped
 *   (`withoutTextParsers`): with them, PGlite copied its parser map for every statement, and an
 *   add to basket spent about a tenth more CPU time.
 */
export async function openPGlite(dataDir: string | undefined, options: PGliteOptions): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite')
  class ShopPGlite extends PGlite {
    override async _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T> {
      await turnOfEventLoop()
      return super._runExclusiveQuery(fn)
    }

    override async _initArrayTypes(opts?: { force?: boolean }): Promise<void> {
      await super._initArrayTypes(opts)
      for (const type of DRIZZLE_TEXT_TYPES) this.parsers[type] = asText
    }

    override async query<T>(query: string, params?: unknown[], opts?: QueryOptions) {
      return super.query<T>(query, params, withoutTextParsers(opts))
    }

    override transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
      return super.transaction((tx) => {
        // PGlite's own transaction object, but for the parsers each statement brings.
        const shopTx: Transaction = Object.create(tx)
        shopTx.query = async (query, params, opts) => tx.query(query, params, withoutTextParsers(opts))
        return callback(shopTx)
      })
    }
  }
  return dataDir ? new ShopPGlite(dataDir, options) : new ShopPGlite(options)
}

/** Starts PGlite on a data directory (created if missing), or in memory when null. */
export async function startEmbeddedDatabase(dataDir: string | null): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite')
  if (dataDir) mkdirSync(dataDir, { recursive: true })
  // PostgreSQL's shared buffers live in PGlite's WebAssembly memory, which never shrinks: the
  // default 128 MB becomes resident as pages are read. The file system's own cache sits behind
  // the smaller pool, so reads that miss it stay cheap (docs/performance.md, issue 18).
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`]
  const client = await openPGlite(dataDir ?? undefined, { startParams })
  // A failed start also fails every statement (the first is the migrations' check), so the
  // rejection of waitReady itself is handled here.
  client.waitReady.catch(() => {})
  return client
}
