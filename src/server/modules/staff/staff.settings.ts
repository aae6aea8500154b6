/**
 * The back office's content, search, API token and webhook endpoint operations (issue 34): the
 * same services as the integration API and the CLI (admin.operations.ts, the search service,
 * admin.tokens.ts, webhooks.endpoints.ts), each change made in one transaction with its audit row
 * (who, what, before, after; never a secret). Knows no HTTP.
 */
import { and, asc, eq, sql } from 'drizzle-orm'
import type { Db, Executor } from '../../db/client.ts'
import { DomainError } from '../../lib/domain-error.ts'
import { ImportError } from '../admin/admin.catalog.ts'
import { publishStories } from '../admin/admin.operations.ts'
import { AdminTokens } from '../admin/admin.tokens.ts'
import { contentStories } from '../content/content.tables.ts'
import type { SearchService } from '../search/search.service.ts'
import { sites } from '../sites/sites.tables.ts'
import {
  createEndpoint,
  getEndpoint,
  rotateSecret,
  sendTestMessage,
  updateEndpoint,
  type EndpointChange,
  type EndpointInput,
  type EndpointsDeps,
  type EndpointView,
} from '../webhooks/webhooks.endpoints.ts'
import { writeAudit, type Actor } from './staff.audit.ts'

/**
 * The services here take a `Db` and open their own transaction; run inside ours they open a
 * savepoint (a drizzle transaction is a database too), so the change and its audit row commit or
 * roll back together.
 */
const asDb = (tx: Executor) => tx as unknown as Db

export type Refusal = { ok: false; field: string; message: string }
const refuse = (field: string, message: string): Refusal => ({ ok: false, field, message })

/** A domain refusal (a bad URL, an unknown endpoint) as a field message; anything else is thrown. */
function refusalOf(err: unknown): Refusal {
  if (err instanceof DomainError && (err.code === 'invalid' || err.code === 'not_found')) {
    const [field, messages] = Object.entries(err.fields)[0] ?? ['form', [err.message]]
    return refuse(field, messages[0] ?? err.message)
  }
  throw err
}

export async function siteRows(db: Executor) {
  return db
    .select({ id: sites.id, name: sites.name, code: sites.code, host: sites.host })
    .from(sites)
    .orderBy(asc(sites.id))
}

// --- Content ----------------------------------------------------------------------------------

/** Slugs the shop reads as settings or parts of other pages (ADR 0040), never pages themselves. */
const FIXED = /^(home$|settings\/|forms\/|search\/)/

export function contentKind(fullSlug: string): 'post' | 'part' | 'page' {
  if (fullSlug.startsWith('blog/')) return 'post'
  return FIXED.test(fullSlug) ? 'part' : 'page'
}

/** A site's stories, by slug: published or not, and whether the draft has changed since. */
export async function listContent(db: Executor, siteId: number) {
  const rows = await db
    .select({
      fullSlug: contentStories.fullSlug,
      name: contentStories.name,
      publishedAt: contentStories.publishedAt,
      updatedAt: contentStories.updatedAt,
      changed: sql<boolean>`${contentStories.publishedContent} is distinct from ${contentStories.draftContent}`,
      published: sql<boolean>`${contentStories.publishedContent} is not null`,
    })
    .from(contentStories)
    .where(eq(contentStories.siteId, siteId))
    .orderBy(asc(contentStories.fullSlug))
  return rows.map((r) => ({
    slug: r.fullSlug,
    name: r.name,
    kind: contentKind(r.fullSlug),
    published: Boolean(r.published),
    draftChanged: Boolean(r.changed),
    publishedAt: r.publishedAt?.toISOString() ?? null,
    updatedAt: r.updatedAt.toISOString(),
  }))
}

/** Publishes a story's draft (the API's publish), with its audit row. */
export async function publishContent(db: Db, actor: Actor, siteId: number, slug: string) {
  try {
    return await db.transaction(async (tx) => {
      // Locked, so two people publishing at once are recorded one after the other: the second's
      // 'before' is the first's publication.
      const [before] = await tx
        .select({ publishedAt: contentStories.publishedAt })
        .from(contentStories)
        .where(and(eq(contentStories.siteId, siteId), eq(contentStories.fullSlug, slug)))
        .for('update')
      const now = new Date()
      const result = await publishStories(asDb(tx), siteId, [slug], now)
      await writeAudit(tx, actor, {
        action: 'content.publish',
        targetType: 'story',
        targetId: `${siteId}:${slug}`,
        before: { publishedAt: before?.publishedAt?.toISOString() ?? null },
        after: { publishedAt: now.toISOString(), cv: result.cv },
      })
      return { ok: true as const }
    })
  } catch (err) {
    if (err instanceof ImportError) return refuse('slug', 'No story of this site has this slug.')
    throw err
  }
}

// --- Search -----------------------------------------------------------------------------------

const redirectAudit =
  (actor: Actor, siteId: number, action: string) =>
  async (
    tx: Executor,
    change: { before: { query: string; url: string } | null; after: { query: string; url: string } | null },
  ) =>
    writeAudit(tx, actor, {
      action,
      targetType: 'search_redirect',
      targetId: `${siteId}:${change.after?.query ?? change.before?.query ?? ''}`,
      before: change.before,
      after: change.after,
    })

export function saveRedirect(
  search: SearchService,
  actor: Actor,
  siteId: number,
  query: string,
  url: string,
) {
  return search.setRedirect(siteId, query, url, redirectAudit(actor, siteId, 'search.redirect.set'))
}

export function removeRedirect(search: SearchService, actor: Actor, siteId: number, query: string) {
  return search.removeRedirect(siteId, query, redirectAudit(actor, siteId, 'search.redirect.remove'))
}

/** Records that a person asked for the site's search index to be rebuilt (the rebuild is the caller's signal). */
export function recordReindex(db: Db, actor: Actor, siteId: number) {
  return writeAudit(db, actor, { action: 'search.reindex', targetType: 'site', targetId: siteId })
}

// --- API tokens -------------------------------------------------------------------------------

export async function listTokens(db: Db) {
  const rows = await new AdminTokens(db).list()
  return rows.map((t) => ({
    id: t.id,
    name: t.name,
    site: t.site,
    createdAt: t.createdAt.toISOString(),
    lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
    revokedAt: t.revokedAt?.toISOString() ?? null,
  }))
}

/** A new token for the site; its secret is in the answer only, never in the audit row. */
export async function createToken(db: Db, actor: Actor, siteCode: string, name: string) {
  return db.transaction(async (tx) => {
    const created = await new AdminTokens(tx).create(siteCode, name)
    await writeAudit(tx, actor, {
      action: 'token.create',
      targetType: 'admin_token',
      targetId: created.id,
      after: { name, site: siteCode },
    })
    return created
  })
}

export async function revokeToken(db: Db, actor: Actor, id: number): Promise<{ ok: true } | Refusal> {
  return db.transaction(async (tx) => {
    if (!(await new AdminTokens(tx).revoke(id))) return refuse('form', 'This token is already revoked.')
    await writeAudit(tx, actor, {
      action: 'token.revoke',
      targetType: 'admin_token',
      targetId: id,
      before: { revoked: false },
      after: { revoked: true },
    })
    return { ok: true as const }
  })
}

// --- Webhook endpoints ------------------------------------------------------------------------

/** What the audit keeps of an endpoint: never its secret nor a hint of it. */
const auditView = (e: EndpointView) => ({
  url: e.url,
  description: e.description,
  eventTypes: e.eventTypes,
  enabled: e.enabled,
})

export async function addEndpoint(
  db: Db,
  deps: EndpointsDeps,
  actor: Actor,
  siteId: number,
  input: EndpointInput,
): Promise<{ ok: true; endpoint: EndpointView; secret: string } | Refusal> {
  try {
    return await db.transaction(async (tx) => {
      const created = await createEndpoint(asDb(tx), deps, siteId, input)
      await writeAudit(tx, actor, {
        action: 'webhook.create',
        targetType: 'webhook_endpoint',
        targetId: created.endpoint.id,
        after: auditView(created.endpoint),
      })
      return { ok: true as const, ...created }
    })
  } catch (err) {
    return refusalOf(err)
  }
}

/** Changes an endpoint (events, enabled), with its audit row; enabling resumes its backlog. */
export async function changeEndpoint(
  db: Db,
  deps: EndpointsDeps,
  actor: Actor,
  siteId: number,
  id: string,
  change: EndpointChange,
  action: string,
): Promise<{ ok: true; endpoint: EndpointView } | Refusal> {
  try {
    const endpoint = await db.transaction(async (tx) => {
      const before = await getEndpoint(asDb(tx), siteId, id)
      const after = await updateEndpoint(asDb(tx), deps, siteId, id, change)
      await writeAudit(tx, actor, {
        action,
        targetType: 'webhook_endpoint',
        targetId: id,
        before: auditView(before),
        after: auditView(after),
      })
      return after
    })
    // The resumed backlog's job was queued in our transaction: wake the workers now it is committed.
    if (change.enabled) deps.jobs().wake()
    return { ok: true as const, endpoint }
  } catch (err) {
    return refusalOf(err)
  }
}

/** A new signing secret (shown once); the old one keeps signing for a day beside it. */
export async function rotateEndpointSecret(db: Db, actor: Actor, siteId: number, id: string) {
  try {
    return await db.transaction(async (tx) => {
      const rotated = await rotateSecret(asDb(tx), {}, siteId, id)
      await writeAudit(tx, actor, {
        action: 'webhook.rotate_secret',
        targetType: 'webhook_endpoint',
        targetId: id,
        after: { previousSecretValidUntil: rotated.previousSecretValidUntil },
      })
      return { ok: true as const, ...rotated }
    })
  } catch (err) {
    return refusalOf(err)
  }
}

/** Queues a `webhook.test` message to the endpoint, and records who asked. */
export async function testEndpoint(db: Db, deps: EndpointsDeps, actor: Actor, siteId: number, id: string) {
  try {
    const sent = await sendTestMessage(db, deps, siteId, id)
    await writeAudit(db, actor, {
      action: 'webhook.test',
      targetType: 'webhook_endpoint',
      targetId: id,
      after: { messageId: sent.messageId },
    })
    return { ok: true as const, ...sent }
  } catch (err) {
    return refusalOf(err)
  }
}
