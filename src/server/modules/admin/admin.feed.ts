/**
 * The change feeds' cursor (customers now, orders next; ADR 0220). A feed serves rows in the
 * order of (change_xid, change_seq): the writing transaction's id, then the change sequence
 * within it, and only rows whose transaction is older than every transaction still running
 * (`change_xid < pg_snapshot_xmin(pg_current_snapshot())`). Every row written later has a larger
 * transaction id than that horizon, so a reader that resumes after its cursor never skips a row
 * that committed late and never sees a row twice unless it changed again. (Ordering by the
 * sequence alone is not enough: a transaction can hold an older transaction id than another
 * yet take a later sequence number, commit first, and be served while the other still runs.)
 *
 * The cursor is opaque to clients: base64url of "<xid>.<seq>".
 */
import { sql, type SQL } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { z } from 'zod'

export interface FeedPosition {
  xid: string
  seq: number
}

export const FEED_MAX_LIMIT = 200
export const FEED_DEFAULT_LIMIT = 50

const CURSOR = /^(\d{1,20})\.(\d{1,19})$/

export function encodeCursor(p: FeedPosition): string {
  return Buffer.from(`${p.xid}.${p.seq}`, 'utf8').toString('base64url')
}

/** The position a cursor names, or null when it is not one this API gave. */
export function decodeCursor(cursor: string): FeedPosition | null {
  if (!/^[A-Za-z0-9_-]{1,60}$/.test(cursor)) return null
  const m = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
  if (!m) return null
  const xid = BigInt(m[1]!)
  const seq = Number(m[2])
  if (xid >= 2n ** 64n || !Number.isSafeInteger(seq)) return null
  return { xid: xid.toString(), seq }
}

export const afterParam = z
  .string()
  .max(60)
  .refine((v) => decodeCursor(v) !== null, { message: 'is not a cursor this feed gave (use next_cursor)' })
  .optional()
  .describe('The next_cursor of the previous page; omitted: from the start')

export const limitParam = z.coerce
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(FEED_MAX_LIMIT, `must be at most ${FEED_MAX_LIMIT}`)
  .default(FEED_DEFAULT_LIMIT)
  .describe(`Rows per page, 1 to ${FEED_MAX_LIMIT}`)

export const pageMeta = {
  next_cursor: z
    .string()
    .nullable()
    .describe('Where to resume: send it as `after`. Null only when nothing has been served yet.'),
  has_more: z.boolean().describe('True when the page is full: ask again at once'),
}

/** The feed's WHERE: after the cursor, and only rows below the running transactions' horizon. */
export function feedWindow(xidColumn: AnyPgColumn, seqColumn: AnyPgColumn, after: FeedPosition | null): SQL {
  const horizon = sql`${xidColumn} < pg_snapshot_xmin(pg_current_snapshot())`
  if (!after) return horizon
  return sql`${horizon} and (${xidColumn}, ${seqColumn}) > (${after.xid}::xid8, ${after.seq}::bigint)`
}

/** The page's answer: its rows, and where the next page starts. */
export function feedPage<T>(
  rows: T[],
  positionOf: (row: T) => FeedPosition,
  after: string | undefined,
  limit: number,
) {
  const last = rows.at(-1)
  return {
    next_cursor: last ? encodeCursor(positionOf(last)) : (after ?? null),
    has_more: rows.length === limit,
  }
}
