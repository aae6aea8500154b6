/** The messages between RemotePGlite (main thread) and pglite-worker.ts (ADR 0114). Types only. */

export interface WorkerStart {
  /** The data directory, or null for a database in memory. */
  dataDir: string | null
  /** PostgreSQL settings added to PGlite's defaults (`-c name=value`). */
  startParams: string[]
}

/** `tx`: the id of the open transaction the statement belongs to; absent outside one. */
export type WorkerRequest =
  | {
      id: number
      op: 'query'
      sql: string
      params: unknown[] | undefined
      rowMode: 'array' | 'object' | undefined
      /** Type ids whose values stay PostgreSQL's text (the caller's parsers keep them as they are). */
      keepText: number[] | undefined
      tx?: number
    }
  | { id: number; op: 'exec'; sql: string; tx?: number }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'close' }

/** A database error as plain data: its message and name, and PostgreSQL's fields (code, constraint, …). */
export interface ErrorData {
  message: string
  name: string
  stack?: string
  fields: Record<string, string | number | boolean>
}

/** The answer to request `id`; id 0 says the database is ready (or could not start). */
export type WorkerReply =
  { id: number; ok: true; result: unknown } | { id: number; ok: false; error: ErrorData }
