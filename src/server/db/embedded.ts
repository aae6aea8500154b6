/**
 * Starting the embedded database (PGlite). Light to import, so the server process can start it
 * before it loads the rest of its modules (serve.ts): PGlite reads its files and compiles
 * PostgreSQL's WebAssembly (on V8's background threads) while the app's modules load, and its
 * statements wait for it to be ready, so no caller has to (ADR 0114).
 */
import type { PGlite, PGliteOptions } from '@electric-sql/pglite'
import { mkdirSync } from 'node:fs'
import { setImmediate as turnOfEventLoop } from 'node:timers/promises'

/** The embedded database's buffer pool (PostgreSQL's default is 128MB). */
const PGLITE_SHARED_BUFFERS = '32MB'

/**
 * A PGlite whose statements each give the event loop a turn before they run (ADR 0116).
 *
 * PGlite runs a statement on this thread, to the end, and settles its promise as a microtask.
 * Without the turn, a transaction of five statements would hold the event loop from its BEGIN to
 * its COMMIT, and a request that arrived meanwhile would not be read until the loop had served
 * everything it had read already: under load, one request in ten waited twice as long as the
 * rest. With it, as with a networked database's round trip, new requests are read while a
 * transaction runs and wait for the database in the order they came. PGlite sends every
 * statement of its own (BEGIN and COMMIT too) through `_runExclusiveQuery`, its typed hook for
 * that. The turn is `node:timers/promises`' setImmediate, which a test's fake timers leave alone.
 */
export async function openPGlite(dataDir: string | undefined, options: PGliteOptions): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite')
  class TurnTakingPGlite extends PGlite {
    override async _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T> {
      await turnOfEventLoop()
      return super._runExclusiveQuery(fn)
    }
  }
  return dataDir ? new TurnTakingPGlite(dataDir, options) : new TurnTakingPGlite(options)
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
