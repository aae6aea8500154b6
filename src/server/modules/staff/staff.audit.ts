/**
 * The audit log (ADR 0260): one row per change, written by the caller inside the transaction
 * that makes the change, so a change without its row (or a row without its change) cannot be.
 * Read newest first with a keyset cursor (`at`, `id`).
 */
import { and, desc, eq, lt, or, type SQL } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { staffAudit, type StaffAuditRow } from './staff.tables.ts'

export interface Actor {
  id: number | null
  email: string
  ip: string
}

export const SYSTEM_ACTOR: Actor = { id: null, email: 'system', ip: '' }

export interface AuditEntry {
  action: string
  targetType: string
  targetId: string | number
  before?: Record<string, unknown> | null
  after?: Record<string, unknown> | null
}

export async function writeAudit(tx: Executor, actor: Actor, entry: AuditEntry): Promise<void> {
  await tx.insert(staffAudit).values({
    actorId: actor.id,
    actorEmail: actor.email,
    action: entry.action,
    targetType: entry.targetType,
    targetId: String(entry.targetId),
    before: entry.before ?? null,
    after: entry.after ?? null,
    ip: actor.ip,
    // Milliseconds, as the keyset cursor carries them (the column would keep microseconds).
    at: new Date(),
  })
}

export interface AuditQuery {
  action?: string | undefined
  actorId?: number | undefined
  /** Rows older than this cursor (`<at ms>.<id>`). */
  before?: { at: Date; id: number } | undefined
  limit: number
}

export async function listAudit(db: Executor, q: AuditQuery): Promise<StaffAuditRow[]> {
  const where: SQL[] = []
  if (q.action) where.push(eq(staffAudit.action, q.action))
  if (q.actorId !== undefined) where.push(eq(staffAudit.actorId, q.actorId))
  if (q.before) {
    const older = or(
      lt(staffAudit.at, q.before.at),
      and(eq(staffAudit.at, q.before.at), lt(staffAudit.id, q.before.id)),
    )
    if (older) where.push(older)
  }
  return db
    .select()
    .from(staffAudit)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(staffAudit.at), desc(staffAudit.id))
    .limit(q.limit)
}
