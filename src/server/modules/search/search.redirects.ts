/**
 * Search redirect rules in the database (a query that goes straight to a page): read, written and
 * removed here, each change in one transaction with whatever the caller records beside it (the
 * back office's audit row). The search service keeps each site's rules in memory and calls these.
 */
import { and, eq } from 'drizzle-orm'
import type { Db, Executor } from '../../db/client.ts'
import { searchRedirects } from './search.tables.ts'

export interface RedirectRule {
  query: string
  url: string
  createdAt: Date
}

type Rule = { query: string; url: string }

/** Called inside the transaction of a rule's change, with the rule before and after it. */
export type RecordRedirectChange = (
  tx: Executor,
  change: { before: Rule | null; after: Rule | null },
) => Promise<void>

export function listRedirectRules(db: Executor, siteId: number): Promise<RedirectRule[]> {
  return db
    .select({ query: searchRedirects.query, url: searchRedirects.url, createdAt: searchRedirects.createdAt })
    .from(searchRedirects)
    .where(eq(searchRedirects.siteId, siteId))
    .orderBy(searchRedirects.query)
}

/** Adds or replaces the rule for a normalised query. */
export function saveRedirectRule(db: Db, siteId: number, rule: Rule, record?: RecordRedirectChange) {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ query: searchRedirects.query, url: searchRedirects.url })
      .from(searchRedirects)
      .where(and(eq(searchRedirects.siteId, siteId), eq(searchRedirects.query, rule.query)))
      .for('update')
    await tx
      .insert(searchRedirects)
      .values({ siteId, ...rule })
      .onConflictDoUpdate({ target: [searchRedirects.siteId, searchRedirects.query], set: { url: rule.url } })
    await record?.(tx, { before: before ?? null, after: rule })
  })
}

/** Removes the rule for a normalised query; false when there was none (and nothing is recorded). */
export function deleteRedirectRule(
  db: Db,
  siteId: number,
  query: string,
  record?: RecordRedirectChange,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(searchRedirects)
      .where(and(eq(searchRedirects.siteId, siteId), eq(searchRedirects.query, query)))
      .returning({ query: searchRedirects.query, url: searchRedirects.url })
    if (removed) await record?.(tx, { before: removed, after: null })
    return removed !== undefined
  })
}
