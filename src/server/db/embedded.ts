/**
 * Starting the embedded database (PGlite). Light to import, so the server process can start it
 * before it loads the rest of its modules (serve.ts): PGlite reads its files and compiles
 * PostgreSQL's WebAssembly (on V8's background threads) while the app's modules load, and its
 * statements wait for it to be ready, so no caller has to (ADR 0114).
 */
import type { PGlite } from '@electric-sql/pglite'
import { mkdirSync } from 'node:fs'

/** The embedded database's buffer pool (PostgreSQL's default is 128MB). */
const PGLITE_SHARED_BUFFERS = '32MB'

/** Starts PGlite on a data directory (created if missing), or in memory when null. */
export async function startEmbeddedDatabase(dataDir: string | null): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite')
  if (dataDir) mkdirSync(dataDir, { recursive: true })
  // PostgreSQL's shared buffers live in PGlite's WebAssembly memory, which never shrinks: the
  // default 128 MB becomes resident as pages are read. The file system's own cache sits behind
  // the smaller pool, so reads that miss it stay cheap (docs/performance.md, issue 18).
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`]
  const client = dataDir ? new PGlite(dataDir, { startParams }) : new PGlite({ startParams })
  // A failed start also fails every statement (the first is the migrations' check), so the
  // rejection of waitReady itself is handled here.
  client.waitReady.catch(() => {})
  return client
}
