/**
 * The embedded database's thread (ADR 0114): PGlite runs here, in a worker thread of its own, and
 * answers the requests of `RemotePGlite` (pglite-remote.ts) in the main thread. PostgreSQL's
 * WebAssembly start, its queries and the parsing of their answers then use the machine's second
 * core instead of the one that runs the web server.
 *
 * Loaded by file name, so it imports nothing of the app's own: Node runs it from the source (type
 * stripping) and from the server bundle (an entry of its own, scripts/build-server.ts).
 */
import { PGlite, type Transaction } from '@electric-sql/pglite'
import { parentPort, workerData } from 'node:worker_threads'
import type { ErrorData, WorkerReply, WorkerRequest, WorkerStart } from './pglite-protocol.ts'

const port = parentPort
if (!port) throw new Error('pglite-worker.ts runs as a worker thread')

const start = workerData as WorkerStart
const startParams = [...PGlite.defaultStartParams, ...start.startParams]
const client = start.dataDir ? new PGlite(start.dataDir, { startParams }) : new PGlite({ startParams })

/** Open transactions: the callback PGlite runs for each waits here until the main thread ends it. */
const transactions = new Map<number, { tx: Transaction; end: (commit: boolean) => void }>()
let nextTransaction = 1

/** A parser that keeps PostgreSQL's text, for each type the caller asked to keep as text. */
const keepText = (value: string) => value
const parserSets = new Map<string, Record<number, typeof keepText>>()
function parsersFor(types: number[] | undefined) {
  if (!types) return undefined
  const key = types.join(',')
  let parsers = parserSets.get(key)
  if (!parsers) {
    parsers = Object.fromEntries(types.map((type) => [type, keepText]))
    parserSets.set(key, parsers)
  }
  return parsers
}

function reply(message: WorkerReply) {
  port!.postMessage(message)
}

/** An error as plain data: its message, name and the database's fields (code, constraint, …). */
function errorData(err: unknown): ErrorData {
  if (!(err instanceof Error)) return { message: String(err), name: 'Error', fields: {} }
  const fields: Record<string, string | number | boolean> = {}
  for (const [key, value] of Object.entries(err)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      fields[key] = value
  }
  return { message: err.message, name: err.name, stack: err.stack, fields }
}

function target(txId: number | undefined): Pick<Transaction, 'query' | 'exec'> {
  if (txId === undefined) return client
  const open = transactions.get(txId)
  if (!open) throw new Error(`transaction ${txId} is not open`)
  return open.tx
}

async function answer(request: WorkerRequest): Promise<unknown> {
  switch (request.op) {
    case 'query': {
      const options = { rowMode: request.rowMode, parsers: parsersFor(request.keepText) }
      return target(request.tx).query(request.sql, request.params, options)
    }
    case 'exec':
      return target(request.tx).exec(request.sql)
    case 'begin':
      return begin()
    case 'end': {
      const open = transactions.get(request.tx)
      if (!open) throw new Error(`transaction ${request.tx} is not open`)
      return new Promise((resolve, reject) => {
        endings.set(request.tx, { resolve, reject })
        open.end(request.commit)
      })
    }
    case 'close':
      await client.close()
      return null
  }
}

/** How each ending transaction's 'end' request is answered, once PGlite has committed or rolled back. */
const endings = new Map<number, { resolve: (value: null) => void; reject: (err: unknown) => void }>()

/** Why PGlite rolls a transaction back when the main thread asks it to (never seen outside). */
class RollbackRequested extends Error {}

/** Starts a transaction (after any that is open: PGlite takes turns) and answers with its id. */
function begin(): Promise<number> {
  const txId = nextTransaction++
  return new Promise((started, failedToStart) => {
    let running = false
    client
      .transaction(
        (tx) =>
          new Promise<void>((commit, rollback) => {
            running = true
            transactions.set(txId, {
              tx,
              end: (ok) => (ok ? commit() : rollback(new RollbackRequested())),
            })
            started(txId)
          }),
      )
      .then(
        () => {
          transactions.delete(txId)
          endings.get(txId)?.resolve(null)
          endings.delete(txId)
        },
        (err: unknown) => {
          transactions.delete(txId)
          if (!running) return failedToStart(err)
          const ending = endings.get(txId)
          endings.delete(txId)
          if (err instanceof RollbackRequested) ending?.resolve(null)
          else ending?.reject(err)
        },
      )
  })
}

port.on('message', (request: WorkerRequest) => {
  answer(request).then(
    (result) => reply({ id: request.id, ok: true, result }),
    (err: unknown) => reply({ id: request.id, ok: false, error: errorData(err) }),
  )
})

client.waitReady.then(
  () => reply({ id: 0, ok: true, result: null }),
  (err: unknown) => reply({ id: 0, ok: false, error: errorData(err) }),
)
