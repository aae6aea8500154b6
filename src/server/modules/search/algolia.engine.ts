/**
 * The Algolia adapter: the same SearchEngine seam, backed by Algolia through the official
 * `algoliasearch` v5 client. Each site gets its own indices (`{prefix}site{id}_products`, its
 * sort replicas, `{prefix}site{id}_products_query_suggestions`). Settings, records and click
 * events use Algolia's own JSON, so the stand-in server in tests speaks the real REST paths.
 *
 * Timeouts follow the spec (§9: connect 1 s, read 2 s, write 30 s; the Node client's own defaults
 * are 2 s / 5 s / 30 s). The client's retry strategy is kept: an unreachable host is marked down
 * for 2 minutes and the next host is tried.
 */
import { ApiError } from '@algolia/client-common'
import { algoliasearch, type Algoliasearch } from 'algoliasearch'
import type { ClickEvent, SearchResult } from '../../../shared/search.ts'
import type { Config } from '../../config.ts'
import type { IndexHit, IndexRecord, IndexSettings, RankingKey } from './engine.ts'
import {
  INDEX_SETTINGS,
  PRODUCT_REPLICAS,
  type EngineRequest,
  type IndexKind,
  type ProductReplica,
  type SearchEngine,
  SearchRequestError,
  SearchUnavailableError,
} from './search.engine.ts'

/** Spec §9: search client timeouts in milliseconds. */
export const ALGOLIA_TIMEOUTS = { connect: 1000, read: 2000, write: 30_000 } as const

type AlgoliaConfig = NonNullable<Config['search']['algolia']>

const rankingExpr = (k: RankingKey) => `${k.order}(${k.attribute})`
const DEFAULT_RANKING = ['typo', 'geo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom']

/** Our index settings as Algolia index settings. */
export function algoliaSettings(
  settings: IndexSettings,
  replicaNames: string[] = [],
): Record<string, unknown> {
  return {
    searchableAttributes: settings.searchableAttributes,
    attributesForFaceting: settings.attributesForFaceting.map((a) => `filterOnly(${a})`),
    customRanking: (settings.customRanking ?? []).map(rankingExpr),
    attributesToHighlight: settings.attributesToHighlight ?? [],
    minWordSizefor1Typo: 4,
    minWordSizefor2Typos: 8,
    queryType: 'prefixLast',
    paginationLimitedTo: 1000,
    ...(replicaNames.length ? { replicas: replicaNames } : {}),
  }
}

export class AlgoliaSearchEngine implements SearchEngine {
  readonly kind = 'algolia' as const
  readonly client: Algoliasearch
  private readonly insights: ReturnType<Algoliasearch['initInsights']>
  private readonly configured = new Set<string>()

  constructor(private readonly config: AlgoliaConfig) {
    this.client = algoliasearch(config.appId, config.apiKey, {
      timeouts: ALGOLIA_TIMEOUTS,
      ...(config.hosts ? { hosts: config.hosts.map((h) => ({ ...h, accept: 'readWrite' as const })) } : {}),
    })
    this.insights = this.client.initInsights({
      options: {
        timeouts: ALGOLIA_TIMEOUTS,
        ...(config.insightsHost
          ? { hosts: [{ ...config.insightsHost, accept: 'readWrite' as const }] }
          : config.hosts
            ? { hosts: config.hosts.map((h) => ({ ...h, accept: 'readWrite' as const })) }
            : {}),
      },
    })
  }

  indexName(siteId: number, kind: IndexKind, replica?: ProductReplica): string {
    const base = `${this.config.indexPrefix}site${siteId}_${kind === 'products' ? 'products' : 'products_query_suggestions'}`
    return replica ? `${base}_${replica}` : base
  }

  /** Pushes the index settings (and the sort replicas of the products index) once per process. */
  private async configure(siteId: number, kind: IndexKind): Promise<void> {
    const name = this.indexName(siteId, kind)
    if (this.configured.has(name)) return
    const replicas = kind === 'products' ? (Object.keys(PRODUCT_REPLICAS) as ProductReplica[]) : []
    const task = await this.client.setSettings({
      indexName: name,
      indexSettings: algoliaSettings(
        INDEX_SETTINGS[kind],
        replicas.map((r) => this.indexName(siteId, kind, r)),
      ),
    })
    await this.client.waitForTask({ indexName: name, taskID: task.taskID })
    for (const replica of replicas) {
      const replicaName = this.indexName(siteId, kind, replica)
      // Standard replicas: the sort comes before relevance.
      const r = await this.client.setSettings({
        indexName: replicaName,
        indexSettings: {
          ...algoliaSettings(INDEX_SETTINGS[kind]),
          ranking: [...PRODUCT_REPLICAS[replica].map(rankingExpr), ...DEFAULT_RANKING],
        },
      })
      await this.client.waitForTask({ indexName: replicaName, taskID: r.taskID })
    }
    this.configured.add(name)
  }

  async search(siteId: number, requests: EngineRequest[]): Promise<SearchResult<IndexHit>[]> {
    try {
      return await this.query(siteId, requests)
    } catch (err) {
      // Algolia refuses a bad request with a 4xx and a message (e.g. a filter it cannot parse).
      if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 429) {
        throw new SearchRequestError(err.message)
      }
      throw new SearchUnavailableError(err)
    }
  }

  private async query(siteId: number, requests: EngineRequest[]): Promise<SearchResult<IndexHit>[]> {
    const { results } = await this.client.search({
      requests: requests.map((r) => ({
        indexName: this.indexName(siteId, r.index, r.replica),
        query: r.query ?? '',
        ...(r.filters ? { filters: r.filters } : {}),
        ...(r.hitsPerPage !== undefined ? { hitsPerPage: r.hitsPerPage } : {}),
        ...(r.page !== undefined ? { page: r.page } : {}),
        ...(r.clickAnalytics ? { clickAnalytics: true } : {}),
        ...(r.attributesToHighlight ? { attributesToHighlight: r.attributesToHighlight } : {}),
      })),
    })
    return results as unknown as SearchResult<IndexHit>[]
  }

  async replaceAll(siteId: number, kind: IndexKind, records: IndexRecord[]): Promise<void> {
    await this.configure(siteId, kind)
    // Atomic, as Algolia recommends: the records go to a temporary copy of the index's settings,
    // which is then moved over the live index (its replicas kept). Shoppers searching meanwhile
    // see the old records until the move, never an empty index half-way through a rebuild.
    await this.client.replaceAllObjects({
      indexName: this.indexName(siteId, kind),
      objects: records,
      scopes: ['settings', 'synonyms', 'rules'],
    })
  }

  async save(siteId: number, kind: IndexKind, records: IndexRecord[]): Promise<void> {
    if (records.length === 0) return
    await this.configure(siteId, kind)
    await this.client.saveObjects({
      indexName: this.indexName(siteId, kind),
      objects: records,
      waitForTasks: true,
    })
  }

  async remove(siteId: number, kind: IndexKind, objectIDs: string[]): Promise<void> {
    if (objectIDs.length === 0) return
    await this.client.deleteObjects({
      indexName: this.indexName(siteId, kind),
      objectIDs,
      waitForTasks: true,
    })
  }

  async sendClicks(siteId: number, events: ClickEvent[]): Promise<void> {
    await this.insights.pushEvents({
      events: events.map((e) => ({
        eventType: 'click' as const,
        eventName: e.eventName,
        index: this.indexName(siteId, 'products'),
        queryID: e.queryID,
        objectIDs: e.objectIDs,
        positions: e.positions,
        userToken: e.userToken ?? 'anonymous',
        ...(e.timestamp ? { timestamp: e.timestamp } : {}),
      })),
    })
  }

  async close(): Promise<void> {}
}
