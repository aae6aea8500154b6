/**
 * The search service: keeps the engine's indices in step with the catalogue, answers
 * Algolia-shaped multi-queries for a site, applies redirect rules, logs queries that asked for
 * click analytics, stores clicks, and keeps the query-suggestions index (past submitted searches
 * that had results).
 */
import { and, count, desc, eq, gte, inArray, sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { setImmediate as turnOfTheLoop } from 'node:timers/promises'
import { z } from 'zod'
import {
  cleanQuery,
  PRODUCTS_INDEX,
  SUGGESTIONS_INDEX,
  type ClickEvent,
  type SearchRequestBody,
  type SearchResult,
} from '../../../shared/search.ts'
import type { Db } from '../../db/client.ts'
import { sites } from '../sites/sites.tables.ts'
import type { CatalogChange, CatalogService } from '../catalog/catalog.service.ts'
import { productGroups } from '../catalog/catalog.tables.ts'
import { loadCategoryRecords, loadProductRecords } from './documents.ts'
import type { IndexRecord } from './engine.ts'
import { normalise } from './text.ts'
import { SearchTiles } from './tiles.ts'
import {
  SearchRequestError,
  PRODUCT_REPLICAS,
  type EngineRequest,
  type IndexKind,
  type ProductReplica,
  type SearchEngine,
} from './search.engine.ts'
import {
  deleteRedirectRule,
  listRedirectRules,
  saveRedirectRule,
  type RecordRedirectChange,
  type RedirectRule,
} from './search.redirects.ts'
import { searchClicks, searchQueries, searchRedirects } from './search.tables.ts'

/** A public request may not ask for more than this many hits per query. */
export const MAX_PUBLIC_HITS_PER_PAGE = 100
/** Queries per multi-query request (the dropdown sends 3). */
export const MAX_QUERIES_PER_REQUEST = 5
/** Suggestions come from submitted searches of at least this many letters... */
export const SUGGESTION_MIN_LETTERS = 3
/** ...made in the last this many days. */
export const SUGGESTION_DAYS = 90

export { SearchRequestError, SearchUnavailableError } from './search.engine.ts'

const queryParams = z
  .object({
    indexName: z.string().max(100),
    query: z.string().max(100_000).optional(),
    filters: z.string().max(2000).optional(),
    hitsPerPage: z.coerce.number().int().min(1).max(MAX_PUBLIC_HITS_PER_PAGE).optional(),
    page: z.coerce.number().int().min(0).max(1000).optional(),
    clickAnalytics: z.boolean().optional(),
    analytics: z.boolean().optional(),
    attributesToHighlight: z.array(z.string().max(100)).max(10).optional(),
    userToken: z
      .string()
      .regex(/^[\w=+/.:-]{1,129}$/)
      .optional(),
  })
  .loose()

const bodySchema = z.object({ requests: z.array(queryParams).min(1).max(MAX_QUERIES_PER_REQUEST) })

const clickSchema = z.object({
  eventType: z.literal('click'),
  eventName: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[\x20-\x7e]+$/),
  index: z.string().max(100),
  queryID: z.string().regex(/^[0-9a-f]{32}$/),
  objectIDs: z.array(z.string().min(1).max(100)).min(1).max(20),
  positions: z.array(z.number().int().min(1).max(1000)).min(1).max(20),
  userToken: z
    .string()
    .regex(/^[\w=+/.:-]{1,129}$/)
    .optional(),
  timestamp: z.number().int().optional(),
})
const eventsSchema = z.object({ events: z.array(clickSchema).min(1).max(1000) })

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0]
  return issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid request'
}

/** The engine index (and sort replica) a public index name stands for. */
export function resolveIndexName(name: string): { index: IndexKind; replica?: ProductReplica } | null {
  if (name === PRODUCTS_INDEX) return { index: 'products' }
  if (name === SUGGESTIONS_INDEX) return { index: 'suggestions' }
  const prefix = `${PRODUCTS_INDEX}_`
  if (name.startsWith(prefix)) {
    const replica = name.slice(prefix.length)
    if (Object.prototype.hasOwnProperty.call(PRODUCT_REPLICAS, replica)) {
      return { index: 'products', replica: replica as ProductReplica }
    }
  }
  return null
}

/** The normal form used for redirect rules and suggestions: lower case, single spaces. */
export function normaliseQuery(query: string): string {
  return normalise(cleanQuery(query)).replace(/\s+/g, ' ').trim()
}

export interface SearchContext {
  /** Record the query (queryID) and its clicks; off for internal addresses */
  analytics: boolean
  /** The visitor submitted this search (the /search page): counts towards suggestions */
  submitted?: boolean
}

export interface BuildReport {
  sites: number
  records: number
  ms: number
  heapMB: number
}

interface PendingQuery {
  queryId: string
  siteId: number
  indexName: string
  query: string
  nbHits: number
  submitted: boolean
  userToken: string | null
}

export class SearchService {
  private readonly redirects = new Map<number, Map<string, string>>()
  private readonly suggestionCounts = new Map<number, Map<string, number>>()
  private pendingQueries: PendingQuery[] = []
  private flushTimer: NodeJS.Timeout | null = null
  private work: Promise<void> = Promise.resolve()
  private readonly unsubscribe: () => void
  /** The first build of every index (null until start() is called). */
  private firstBuild: Promise<void> | null = null
  /** The first build's timer, between startWithin() and start(). */
  private startTimer: NodeJS.Timeout | null = null
  /** Set by close(): a first build asked for afterwards (a late first answer) is not started. */
  private closed = false
  lastBuild: BuildReport | null = null
  /** Product tiles of search hits by id, per catalogue version (tiles.ts says how it follows changes). */
  readonly tiles: SearchTiles

  constructor(
    readonly db: Db,
    readonly engine: SearchEngine,
    catalog: CatalogService,
    private readonly log: FastifyBaseLogger,
  ) {
    this.tiles = new SearchTiles(db, catalog)
    this.unsubscribe = catalog.onChange((change) => this.enqueue(() => this.applyChange(change)))
  }

  /** Runs index work one job at a time, in order; a failure is logged and never stops the queue. */
  private enqueue(job: () => Promise<void>): Promise<void> {
    this.work = this.work
      .then(job)
      .catch((err: unknown) => this.log.error({ err }, 'search index update failed'))
    return this.work
  }

  /** Resolves once every queued index update has been applied. */
  idle(): Promise<void> {
    return this.work
  }

  /**
   * Builds every site's indices from the database. The app does not wait for it before listening:
   * searches made meanwhile wait for it (a shopper gets the real results a moment later, never an
   * empty page), and /readyz answers 503 until `lastBuild` is set.
   */
  start(): Promise<void> {
    if (this.firstBuild) return this.firstBuild
    if (this.closed) return Promise.resolve()
    if (this.startTimer) clearTimeout(this.startTimer)
    this.startTimer = null
    return (this.firstBuild = this.enqueue(async () => {
      // The embedded database answers without I/O, so the build would otherwise run as one chain
      // of promise callbacks: the listen and the first requests waited for all of it. Giving the
      // event loop a turn before each step lets them go first (ADR 0108).
      await turnOfTheLoop()
      const started = performance.now()
      const heapBefore = process.memoryUsage().heapUsed
      const siteRows = await this.db.select({ id: sites.id }).from(sites)
      let records = 0
      for (const { id } of siteRows) records += await this.buildSite(id, turnOfTheLoop)
      this.lastBuild = {
        sites: siteRows.length,
        records,
        ms: Math.round(performance.now() - started),
        heapMB: Math.round(((process.memoryUsage().heapUsed - heapBefore) / 1048576) * 10) / 10,
      }
      this.log.info(this.lastBuild, 'search indices built')
    }))
  }

  /**
   * Starts the first build at `start()` or after `delayMs`, whichever comes first; a search asked
   * for meanwhile (`ready()`) starts it at once. The server starts it when its first answer has
   * gone, so the first answer does not wait behind the build's reads (app.ts).
   */
  startWithin(delayMs: number): void {
    if (this.firstBuild || this.startTimer) return
    this.startTimer = setTimeout(() => void this.start(), delayMs)
    this.startTimer.unref()
  }

  /**
   * Resolves once the first build has finished (at once when it has, or when none was started or
   * scheduled); a scheduled build starts now.
   */
  async ready(): Promise<void> {
    if (this.lastBuild) return
    if (this.startTimer) void this.start()
    if (this.firstBuild) await this.firstBuild
  }

  /** `pause` runs between the steps (the first build gives the event loop a turn there). */
  private async buildSite(siteId: number, pause: () => Promise<void> = async () => {}): Promise<number> {
    const [productRecords, categoryRecords] = await Promise.all([
      loadProductRecords(this.db, { siteId }),
      loadCategoryRecords(this.db, { siteId }),
    ])
    await pause()
    const all: IndexRecord[] = [...categoryRecords, ...productRecords]
    await this.engine.replaceAll(siteId, 'products', all)
    await pause()
    await this.loadRedirects(siteId)
    await pause()
    await this.loadSuggestions(siteId)
    await pause()
    return all.length
  }

  /** Queues a site's rebuild once for all instances (set by the jobs wiring; ADR 0250). */
  private queueSharedRebuild: ((siteId: number) => Promise<void>) | null = null

  /**
   * With an index every instance shares (Algolia), a site's full rebuild (the admin reindex, a
   * whole-catalogue change) is one keyed job for all of them, not one push per instance; the
   * embedded index lives in each process, so each instance keeps rebuilding its own.
   */
  queueSharedRebuildsWith(queue: (siteId: number) => Promise<void>): void {
    this.queueSharedRebuild = queue
  }

  /** Whether full rebuilds go through `queueSharedRebuildsWith`'s job. */
  get sharesRebuilds(): boolean {
    return this.engine.kind !== 'embedded' && this.queueSharedRebuild !== null
  }

  /**
   * The shared rebuild job's work: a site's records, read now, replace the shared index's. It
   * waits its turn in this process's queue of index work, so a product change this instance
   * heard meanwhile is saved after the rebuild, never overwritten by the rebuild's older read.
   * A failure reaches the job (which retries it) instead of the queue's log.
   */
  async rebuildSharedIndex(siteId: number): Promise<number> {
    let outcome: { records: number } | { error: unknown } = { records: 0 }
    await this.enqueue(async () => {
      try {
        const [productRecords, categoryRecords] = await Promise.all([
          loadProductRecords(this.db, { siteId }),
          loadCategoryRecords(this.db, { siteId }),
        ])
        const all: IndexRecord[] = [...categoryRecords, ...productRecords]
        await this.engine.replaceAll(siteId, 'products', all)
        outcome = { records: all.length }
      } catch (error) {
        outcome = { error }
      }
    })
    if ('error' in outcome) throw outcome.error
    return outcome.records
  }

  private async applyChange(change: CatalogChange): Promise<void> {
    const scoped = change.siteId !== undefined && (change.groupIds?.length || change.categoryIds?.length)
    if (!scoped) {
      const siteRows =
        change.siteId !== undefined
          ? [{ id: change.siteId }]
          : await this.db.select({ id: sites.id }).from(sites)
      for (const { id } of siteRows) {
        if (!this.sharesRebuilds) {
          await this.buildSite(id)
          continue
        }
        // Redirect rules and suggestions are this process's own; the records are shared.
        await this.queueSharedRebuild!(id)
        await this.loadRedirects(id)
        await this.loadSuggestions(id)
      }
      return
    }
    const siteId = change.siteId!
    const categoryIds = change.categoryIds ?? []
    // A renamed category changes the category_name of its products too.
    const affected = categoryIds.length
      ? await this.db
          .select({ id: productGroups.id })
          .from(productGroups)
          .where(and(eq(productGroups.siteId, siteId), inArray(productGroups.categoryId, categoryIds)))
      : []
    const groupIds = [...new Set([...(change.groupIds ?? []), ...affected.map((r) => r.id)])]
    const [productRecords, categoryRecords] = await Promise.all([
      groupIds.length ? loadProductRecords(this.db, { siteId, groupIds }) : [],
      categoryIds.length ? loadCategoryRecords(this.db, { siteId, categoryIds }) : [],
    ])
    const found = new Set([...productRecords, ...categoryRecords].map((r) => r.objectID))
    const gone = [
      ...groupIds.map((id) => `product-${id}`),
      ...categoryIds.map((id) => `category-${id}`),
    ].filter((id) => !found.has(id))
    if (found.size) await this.engine.save(siteId, 'products', [...categoryRecords, ...productRecords])
    if (gone.length) await this.engine.remove(siteId, 'products', gone)
  }

  // --- Redirect rules ---------------------------------------------------------------------

  private async loadRedirects(siteId: number) {
    const rows = await this.db
      .select({ query: searchRedirects.query, url: searchRedirects.url })
      .from(searchRedirects)
      .where(eq(searchRedirects.siteId, siteId))
    this.redirects.set(siteId, new Map(rows.map((r) => [r.query, r.url])))
  }

  /** Re-reads a site's redirect rules (another instance changed them). */
  refreshRedirects(siteId: number): Promise<void> {
    return this.loadRedirects(siteId)
  }

  private readonly redirectListeners = new Set<(siteId: number) => void>()

  /** Calls `listener` after this process changed a site's redirect rules. */
  onRedirectsChange(listener: (siteId: number) => void): void {
    this.redirectListeners.add(listener)
  }

  /** A site's redirect rules, by query (read from the database, as every instance shares them). */
  listRedirects(siteId: number): Promise<RedirectRule[]> {
    return listRedirectRules(this.db, siteId)
  }

  /**
   * Adds or replaces the rule sending `query` straight to `url` (a path or an http(s) URL);
   * `record` runs in the change's transaction (the back office's audit row).
   */
  async setRedirect(siteId: number, query: string, url: string, record?: RecordRedirectChange) {
    const key = normaliseQuery(query)
    if (!key) throw new SearchRequestError('query: a redirect rule needs a query')
    if (!/^\/(?!\/)\S*$|^https?:\/\/\S+$/.test(url))
      throw new SearchRequestError('url: must be a path or an http(s) URL')
    await saveRedirectRule(this.db, siteId, { query: key, url }, record)
    await this.loadRedirects(siteId)
    for (const listener of this.redirectListeners) listener(siteId)
  }

  /** Removes the rule for `query`; false when there was none. */
  async removeRedirect(siteId: number, query: string, record?: RecordRedirectChange): Promise<boolean> {
    const removed = await deleteRedirectRule(this.db, siteId, normaliseQuery(query), record)
    await this.loadRedirects(siteId)
    for (const listener of this.redirectListeners) listener(siteId)
    return removed
  }

  redirectFor(siteId: number, query: string): string | null {
    return this.redirects.get(siteId)?.get(normaliseQuery(query)) ?? null
  }

  // --- Suggestions ------------------------------------------------------------------------

  private async loadSuggestions(siteId: number) {
    const since = new Date(Date.now() - SUGGESTION_DAYS * 86400_000)
    const rows = await this.db
      .select({ query: searchQueries.query, n: count() })
      .from(searchQueries)
      .where(
        and(
          eq(searchQueries.siteId, siteId),
          eq(searchQueries.submitted, true),
          gte(searchQueries.createdAt, since),
          sql`${searchQueries.nbHits} > 0`,
        ),
      )
      .groupBy(searchQueries.query)
      .orderBy(desc(count()))
      .limit(5000)
    const counts = new Map(rows.map((r) => [r.query, Number(r.n)]))
    this.suggestionCounts.set(siteId, counts)
    await this.engine.replaceAll(
      siteId,
      'suggestions',
      [...counts].map(([query, popularity]) => suggestionRecord(query, popularity)),
    )
  }

  private async countSuggestion(siteId: number, query: string) {
    if ([...query.replace(/\s/g, '')].length < SUGGESTION_MIN_LETTERS) return
    let counts = this.suggestionCounts.get(siteId)
    if (!counts) this.suggestionCounts.set(siteId, (counts = new Map()))
    const popularity = (counts.get(query) ?? 0) + 1
    counts.set(query, popularity)
    await this.engine.save(siteId, 'suggestions', [suggestionRecord(query, popularity)])
  }

  // --- Searching ----------------------------------------------------------------------------

  /** Validates a multi-query body; throws SearchRequestError (400) with the first problem. */
  parseBody(body: unknown): SearchRequestBody {
    const parsed = bodySchema.safeParse(body)
    if (!parsed.success) throw new SearchRequestError(firstIssue(parsed.error))
    return parsed.data as SearchRequestBody
  }

  async search(siteId: number, body: SearchRequestBody, context: SearchContext): Promise<SearchResult[]> {
    await this.ready()
    const requests: EngineRequest[] = body.requests.map((r) => {
      const target = resolveIndexName(r.indexName)
      if (!target) throw new SearchRequestError(`indexName: unknown index '${r.indexName}'`)
      return {
        ...target,
        query: cleanQuery(r.query ?? ''),
        filters: r.filters,
        hitsPerPage: r.hitsPerPage,
        page: r.page,
        clickAnalytics: r.clickAnalytics === true,
        attributesToHighlight: r.attributesToHighlight,
      }
    })
    const results = await this.engine.search(siteId, requests)
    return results.map((result, i) => {
      const request = requests[i]!
      const original = body.requests[i]!
      const out = { ...result, index: original.indexName } as unknown as SearchResult
      if (request.index === 'products') {
        const redirect = this.redirectFor(siteId, request.query ?? '')
        if (redirect) out.renderingContent = { ...out.renderingContent, redirect: { url: redirect } }
      }
      if (out.queryID) {
        if (context.analytics && request.index === 'products' && original.analytics !== false) {
          this.logQuery({
            queryId: out.queryID,
            siteId,
            indexName: original.indexName,
            query: normaliseQuery(request.query ?? ''),
            nbHits: out.nbHits,
            submitted: context.submitted === true,
            userToken: typeof original.userToken === 'string' ? original.userToken : null,
          })
        } else {
          delete out.queryID // nothing was recorded, so there is nothing to click against
        }
      }
      return out
    })
  }

  private logQuery(entry: PendingQuery) {
    this.pendingQueries.push(entry)
    if (entry.submitted && entry.nbHits > 0 && entry.query) {
      void this.enqueue(() => this.countSuggestion(entry.siteId, entry.query))
    }
    if (this.pendingQueries.length >= 200) void this.flush()
    else this.flushTimer ??= setTimeout(() => void this.flush(), 1000)
  }

  /** Writes the buffered query log (it is batched so a keystroke never waits for a write). */
  async flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer)
    this.flushTimer = null
    const batch = this.pendingQueries
    this.pendingQueries = []
    if (batch.length === 0) return
    try {
      await this.db.insert(searchQueries).values(batch).onConflictDoNothing()
    } catch (err) {
      this.log.error({ err }, 'search query log write failed')
    }
  }

  // --- Click analytics ------------------------------------------------------------------

  /** Validates Insights events; throws SearchRequestError (400) with the first problem. */
  parseEvents(body: unknown): ClickEvent[] {
    const parsed = eventsSchema.safeParse(body)
    if (!parsed.success) throw new SearchRequestError(firstIssue(parsed.error))
    for (const e of parsed.data.events) {
      if (e.positions.length !== e.objectIDs.length) {
        throw new SearchRequestError('events: positions and objectIDs must have the same length')
      }
    }
    return parsed.data.events as ClickEvent[]
  }

  /**
   * Stores clicks whose queryID belongs to one of this site's logged searches (others are
   * ignored), and forwards them to the engine. Returns how many were stored.
   */
  async recordClicks(siteId: number, events: ClickEvent[]): Promise<number> {
    await this.flush()
    const ids = [...new Set(events.map((e) => e.queryID))]
    const known = await this.db
      .select({ queryId: searchQueries.queryId })
      .from(searchQueries)
      .where(and(eq(searchQueries.siteId, siteId), inArray(searchQueries.queryId, ids)))
    const valid = new Set(known.map((k) => k.queryId))
    const rows = events
      .filter((e) => valid.has(e.queryID))
      .flatMap((e) =>
        e.objectIDs.map((objectId, i) => ({
          siteId,
          queryId: e.queryID,
          objectId,
          position: e.positions[i]!,
          eventName: e.eventName,
          indexName: e.index,
          userToken: e.userToken ?? null,
        })),
      )
    if (rows.length) await this.db.insert(searchClicks).values(rows)
    const forwarded = events.filter((e) => valid.has(e.queryID))
    if (forwarded.length) {
      await this.engine.sendClicks(siteId, forwarded).catch((err: unknown) => {
        this.log.warn({ err }, 'forwarding click events failed')
      })
    }
    return rows.length
  }

  /** Product-group ids of a site's best sellers: most clicked from search, then newest. */
  async bestSellerIds(siteId: number, limit: number): Promise<number[]> {
    const clicked = await this.db
      .select({ objectId: searchClicks.objectId, n: count() })
      .from(searchClicks)
      .where(and(eq(searchClicks.siteId, siteId), sql`${searchClicks.objectId} like 'product-%'`))
      .groupBy(searchClicks.objectId)
      .orderBy(desc(count()))
      .limit(limit * 2)
    const ids = clicked.map((c) => Number(c.objectId.slice('product-'.length))).filter(Number.isSafeInteger)
    const published = ids.length
      ? await this.db
          .select({ id: productGroups.id })
          .from(productGroups)
          .where(
            and(
              eq(productGroups.siteId, siteId),
              eq(productGroups.published, true),
              inArray(productGroups.id, ids),
            ),
          )
      : []
    const ok = new Set(published.map((p) => p.id))
    const out = ids.filter((id) => ok.has(id)).slice(0, limit)
    if (out.length < limit) {
      const newest = await this.db
        .select({ id: productGroups.id })
        .from(productGroups)
        .where(and(eq(productGroups.siteId, siteId), eq(productGroups.published, true)))
        .orderBy(desc(productGroups.createdAt), desc(productGroups.id))
        .limit(limit + out.length)
      for (const { id } of newest) if (out.length < limit && !out.includes(id)) out.push(id)
    }
    return out
  }

  async close(): Promise<void> {
    this.closed = true
    if (this.startTimer) clearTimeout(this.startTimer)
    this.startTimer = null
    this.unsubscribe()
    await this.work
    await this.flush()
    await this.engine.close()
  }
}

function suggestionRecord(query: string, popularity: number): IndexRecord {
  return { objectID: query, query, popularity, nb_words: query.split(' ').length }
}
