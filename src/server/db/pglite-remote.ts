/**
 * The embedded database in a worker thread (ADR 0114). `RemotePGlite` offers the part of PGlite's
 * interface Drizzle's PGlite driver uses (`query`, `exec`, `transaction`) and sends each call to
 * pglite-worker.ts, where PGlite runs. PostgreSQL's start and its statements then run beside the
 * web server's thread instead of on it: a start overlaps the rest of the set-up, and under load the
 * database and the pages use both cores.
 *
 * Transactions keep PGlite's meaning: statements outside a transaction wait until it ends (PGlite
 * takes turns in the worker), the callback's error rolls it back, and a failed COMMIT is thrown.
 */
import type { QueryOptions, Results, Transaction } from '@electric-sql/pglite'
import { mkdirSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import type { ErrorData, WorkerReply, WorkerRequest, WorkerStart } from './pglite-protocol.ts'

/** A request without its id (the id is added when it is sent). */
type Call = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never

/** A statement's error from the worker thread, with PostgreSQL's fields (code, constraint, detail, …). */
export class RemoteDatabaseError extends Error {
  [field: string]: unknown
  constructor(data: ErrorData) {
    super(data.message)
    Object.assign(this, data.fields)
    this.name = data.name
    if (data.stack) this.stack = `${data.stack}\n    (in the database thread)`
  }
}

/** The worker's file: the TypeScript source beside this one, or the bundle's entry (build-server.ts). */
function workerFile(): URL {
  const source = import.meta.url.endsWith('.ts')
  return new URL(source ? './pglite-worker.ts' : './pglite-worker.js', import.meta.url)
}

type Statement = Pick<Transaction, 'query' | 'exec'>

export class RemotePGlite implements Statement {
  readonly waitReady: Promise<void>
  private readonly worker: Worker
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (err: Error) => void }
  >()
  private nextId = 1
  private failure: Error | null = null

  constructor(start: WorkerStart) {
    this.worker = new Worker(workerFile(), { workerData: start })
    let ready!: { resolve: () => void; reject: (err: Error) => void }
    this.waitReady = new Promise((resolve, reject) => (ready = { resolve, reject }))
    // A failed start also fails every statement; it is not an unhandled rejection when no one waits.
    this.waitReady.catch(() => {})
    // Until the first answer the ready promise is the one waiting; a failed start rejects it.
    this.pending.set(0, { resolve: () => ready.resolve(), reject: (err) => ready.reject(err) })
    this.worker.on('message', (reply: WorkerReply) => {
      const waiting = this.pending.get(reply.id)
      if (!waiting) return
      this.pending.delete(reply.id)
      if (reply.ok) waiting.resolve(reply.result)
      else waiting.reject(new RemoteDatabaseError(reply.error))
    })
    const fail = (err: Error) => {
      this.failure ??= err
      for (const waiting of this.pending.values()) waiting.reject(err)
      this.pending.clear()
    }
    this.worker.on('error', fail)
    this.worker.on('exit', (code) => fail(new Error(`the database thread stopped (exit code ${code})`)))
  }

  private call<T>(request: Call): Promise<T> {
    if (this.failure) return Promise.reject(this.failure)
    const id = this.nextId++
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      this.worker.postMessage({ ...request, id } as WorkerRequest)
    })
  }

  private statements(tx?: number): Statement {
    return {
      query: <T>(sql: string, params?: unknown[], options?: QueryOptions) =>
        this.call<Results<T>>(queryRequest(sql, params, options, tx)),
      exec: (sql: string) => this.call<Results[]>({ op: 'exec', sql, tx }),
    }
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.call<Results<T>>(queryRequest(sql, params, options))
  }

  exec(sql: string): Promise<Results[]> {
    return this.call<Results[]>({ op: 'exec', sql })
  }

  /** Runs `callback` in a transaction: committed when it returns, rolled back when it throws. */
  async transaction<T>(
    callback: (tx: Statement & { closed: boolean; rollback(): Promise<void> }) => Promise<T>,
  ): Promise<T> {
    const txId = await this.call<number>({ op: 'begin' })
    let ended = false
    const end = (commit: boolean) => {
      ended = true
      return this.call<null>({ op: 'end', tx: txId, commit })
    }
    const tx = {
      ...this.statements(txId),
      get closed() {
        return ended
      },
      rollback: () => end(false).then(() => undefined),
    }
    let result: T
    try {
      result = await callback(tx)
    } catch (err) {
      if (!ended) await end(false)
      throw err
    }
    if (!ended) await end(true)
    return result
  }

  async close(): Promise<void> {
    if (this.failure) return
    await this.call<null>({ op: 'close' })
    this.failure = new Error('the embedded database is closed')
    await this.worker.terminate()
  }
}

function queryRequest(
  sql: string,
  params: unknown[] | undefined,
  options: QueryOptions | undefined,
  tx?: number,
): Call {
  if (options?.serializers || options?.blob || options?.onNotice || options?.paramTypes)
    throw new Error('RemotePGlite: only rowMode and text-keeping parsers are supported')
  // Drizzle's parsers keep dates, timestamps and intervals as PostgreSQL's text; the worker does the same.
  const keepText = options?.parsers ? Object.keys(options.parsers).map(Number) : undefined
  return { op: 'query', sql, params, rowMode: options?.rowMode, keepText, tx }
}

/** The embedded database's buffer pool (PostgreSQL's default is 128MB). */
const PGLITE_SHARED_BUFFERS = '32MB'

/**
 * Starts PGlite's thread on a data directory (created if missing), or in memory when null. The
 * caller awaits `waitReady`. Light to import, so the server can start it before its other modules.
 */
export function startEmbeddedDatabase(dataDir: string | null): RemotePGlite {
  if (dataDir) mkdirSync(dataDir, { recursive: true })
  // PostgreSQL's shared buffers live in PGlite's WebAssembly memory, which never shrinks: the
  // default 128 MB becomes resident as pages are read. The file system's own cache sits behind
  // the smaller pool, so reads that miss it stay cheap (docs/performance.md, issue 18).
  return new RemotePGlite({ dataDir, startParams: ['-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`] })
}
