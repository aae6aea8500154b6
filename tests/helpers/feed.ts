/**
 * The change feeds (ADR 0220) serve a row only once every transaction older than it has ended,
 * and on PostgreSQL that horizon is the whole server's: another database's transaction (another
 * test file's, run at the same time) holds it back too. `settled` waits until the horizon has
 * passed everything committed before the call, so a test reads the feed as it will be, not as a
 * neighbour's open transaction leaves it for a moment. On the embedded database it returns at once.
 */
import { sql } from 'drizzle-orm'
import type { Db } from '../../src/server/db/client.ts'

type Rows<T> = { rows: T[] }

export async function settled(db: Db, ms = 15_000): Promise<void> {
  const mark = (await db.execute(sql`select pg_current_xact_id()::text as xid`)) as unknown as Rows<{
    xid: string
  }>
  const xid = mark.rows[0]!.xid
  for (const started = Date.now(); Date.now() - started < ms;) {
    const now = (await db.execute(
      sql`select pg_snapshot_xmin(pg_current_snapshot()) > ${xid}::xid8 as passed`,
    )) as unknown as Rows<{ passed: boolean }>
    if (now.rows[0]!.passed) return
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`the feed's horizon did not pass transaction ${xid} within ${ms} ms`)
}
