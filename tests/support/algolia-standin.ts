/**
 * A local stand-in for Algolia that speaks its real REST paths and JSON, backed by the embedded
 * engine's SearchIndex, so the Algolia adapter (and the official client under it) can run the
 * same contract tests offline. Implemented: multi-query and single-index search, settings
 * (searchableAttributes, attributesForFaceting, customRanking, standard replicas with a sort in
 * `ranking`), batch add/delete, clear, copy and move (`operation`, as `replaceAllObjects` uses
 * them: a scoped copy takes the settings but never `replicas`, a move overwrites the destination
 * and keeps its replicas), delete, task status, and Insights events (kept for assertions).
 * Credentials are checked like Algolia does (403 on a wrong application id or key).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  SearchIndex,
  type IndexRecord,
  type IndexSettings,
  type RankingKey,
} from '../../src/server/modules/search/engine.ts'
import { FilterError } from '../../src/server/modules/search/filters.ts'

interface StoredIndex {
  settings: Record<string, unknown>
  records: Map<string, IndexRecord>
  index: SearchIndex | null
}

function ranking(expr: unknown): RankingKey | null {
  const m = typeof expr === 'string' ? /^(asc|desc)\((.+)\)$/.exec(expr) : null
  return m ? { order: m[1] as 'asc' | 'desc', attribute: m[2]! } : null
}

function stripModifier(a: string): string {
  const m = /^(?:filterOnly|searchable|afterDistinct|unordered)\((.+)\)$/.exec(a)
  return m ? m[1]! : a
}

export class AlgoliaStandIn {
  readonly appId = 'STANDIN'
  readonly apiKey = 'standin-admin-key'
  readonly events: unknown[] = []
  readonly requests: { method: string; path: string }[] = []
  private readonly indices = new Map<string, StoredIndex>()
  private server: Server | null = null
  private taskId = 1
  /** Fail this many requests with a 500 first (retry tests). */
  failNext = 0
  /** Runs before a batch is applied (a test looks at the live index mid-rebuild). */
  beforeBatch: ((indexName: string) => void) | null = null

  get url(): string {
    const address = this.server?.address() as AddressInfo | null
    return `http://127.0.0.1:${address?.port ?? 0}`
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res))
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve))
    return this
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()))
    this.server?.closeAllConnections()
  }

  private stored(name: string): StoredIndex {
    let s = this.indices.get(name)
    if (!s) {
      s = { settings: {}, records: new Map(), index: null }
      this.indices.set(name, s)
    }
    return s
  }

  /** The primary an index replicates, if it is a replica. */
  private primaryOf(name: string): string | null {
    for (const [primary, s] of this.indices) {
      const replicas = Array.isArray(s.settings.replicas) ? (s.settings.replicas as string[]) : []
      if (replicas.includes(name)) return primary
    }
    return null
  }

  private searchable(name: string): { index: SearchIndex; sort: RankingKey[] } {
    const primary = this.primaryOf(name)
    const source = this.stored(primary ?? name)
    const own = this.stored(name).settings
    if (!source.index) {
      const s = source.settings
      const settings: IndexSettings = {
        searchableAttributes: ((s.searchableAttributes as string[]) ?? []).map(stripModifier),
        attributesForFaceting: ((s.attributesForFaceting as string[]) ?? []).map(stripModifier),
        numericAttributes: ['price_ex_tax', 'price_inc_tax', 'popularity', 'created', 'nb_words'],
        customRanking: ((s.customRanking as string[]) ?? []).map(ranking).filter((k): k is RankingKey => !!k),
        attributesToHighlight: (s.attributesToHighlight as string[]) ?? [],
      }
      if (settings.searchableAttributes.length === 0) settings.searchableAttributes = ['name', 'query']
      source.index = new SearchIndex(primary ?? name, settings)
      source.index.saveObjects([...source.records.values()])
    }
    const sort = primary
      ? ((own.ranking as string[]) ?? []).map(ranking).filter((k): k is RankingKey => !!k)
      : []
    return { index: source.index, sort }
  }

  /** The objectIDs a search of `name` finds now, as a shopper's query would. */
  peek(name: string, query: string): string[] {
    return this.query(name, { query }).hits.map((h) => String(h.objectID))
  }

  private query(name: string, params: Record<string, unknown>) {
    const { index, sort } = this.searchable(name)
    const result = index.search({
      query: typeof params.query === 'string' ? params.query : '',
      filters: typeof params.filters === 'string' ? params.filters : undefined,
      hitsPerPage: params.hitsPerPage as number | undefined,
      page: params.page as number | undefined,
      clickAnalytics: params.clickAnalytics === true,
      attributesToHighlight: params.attributesToHighlight as string[] | undefined,
      sort,
    })
    return { ...result, index: name }
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
      res.end(JSON.stringify(body))
    }
    try {
      const url = new URL(req.url ?? '/', 'http://standin')
      this.requests.push({ method: req.method ?? 'GET', path: url.pathname })
      const appId =
        req.headers['x-algolia-application-id'] ?? url.searchParams.get('x-algolia-application-id')
      const key = req.headers['x-algolia-api-key'] ?? url.searchParams.get('x-algolia-api-key')
      if (appId !== this.appId || key !== this.apiKey) {
        return send(403, { message: 'Invalid Application-ID or API key', status: 403 })
      }
      if (this.failNext > 0) {
        this.failNext--
        return send(500, { message: 'Internal error', status: 500 })
      }
      const chunks: Buffer[] = []
      for await (const c of req) chunks.push(c as Buffer)
      const raw = Buffer.concat(chunks).toString('utf8')
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {}
      const path = url.pathname
      const method = req.method
      const task = () => ({ taskID: this.taskId++, updatedAt: new Date().toISOString() })
      let m: RegExpExecArray | null

      if (method === 'POST' && path === '/1/events') {
        const events = Array.isArray(body.events) ? body.events : []
        this.events.push(...events)
        return send(200, { status: 200, message: 'OK' })
      }
      if (method === 'POST' && path === '/1/indexes/*/queries') {
        const requests = Array.isArray(body.requests) ? (body.requests as Record<string, unknown>[]) : []
        return send(200, { results: requests.map((r) => this.query(String(r.indexName), r)) })
      }
      if ((m = /^\/1\/indexes\/([^/]+)\/query$/.exec(path)) && method === 'POST') {
        return send(200, this.query(decodeURIComponent(m[1]!), body))
      }
      if ((m = /^\/1\/indexes\/([^/]+)\/settings$/.exec(path)) && method === 'PUT') {
        const s = this.stored(decodeURIComponent(m[1]!))
        s.settings = { ...s.settings, ...body }
        s.index = null
        return send(200, task())
      }
      if ((m = /^\/1\/indexes\/([^/]+)\/batch$/.exec(path)) && method === 'POST') {
        this.beforeBatch?.(decodeURIComponent(m[1]!))
        const s = this.stored(decodeURIComponent(m[1]!))
        const objectIDs: string[] = []
        for (const op of (body.requests as { action: string; body: IndexRecord }[]) ?? []) {
          if (op.action === 'addObject' || op.action === 'updateObject')
            s.records.set(op.body.objectID, op.body)
          else if (op.action === 'deleteObject') s.records.delete(op.body.objectID)
          objectIDs.push(op.body.objectID)
        }
        s.index = null
        return send(200, { ...task(), objectIDs })
      }
      if ((m = /^\/1\/indexes\/([^/]+)\/clear$/.exec(path)) && method === 'POST') {
        const s = this.stored(decodeURIComponent(m[1]!))
        s.records.clear()
        s.index = null
        return send(200, task())
      }
      if ((m = /^\/1\/indexes\/([^/]+)\/operation$/.exec(path)) && method === 'POST') {
        const source = this.stored(decodeURIComponent(m[1]!))
        const name = String(body.destination)
        const target = this.stored(name)
        const { replicas: _replicas, ...settings } = source.settings
        if (body.operation === 'copy') {
          const scope = Array.isArray(body.scope) ? (body.scope as string[]) : null
          if (!scope || scope.includes('settings')) target.settings = { ...settings }
          if (!scope) target.records = new Map(source.records)
        } else if (body.operation === 'move') {
          target.settings = { ...settings, replicas: target.settings.replicas }
          target.records = source.records
          this.indices.delete(decodeURIComponent(m[1]!))
        } else return send(400, { message: 'operation must be copy or move', status: 400 })
        target.index = null
        return send(200, task())
      }
      if ((m = /^\/1\/indexes\/([^/]+)$/.exec(path)) && method === 'DELETE') {
        this.indices.delete(decodeURIComponent(m[1]!))
        return send(200, { ...task(), deletedAt: new Date().toISOString() })
      }
      if (/^\/1\/indexes\/[^/]+\/task\/\d+$/.test(path) && method === 'GET') {
        return send(200, { status: 'published', pendingTask: false })
      }
      return send(404, { message: `Unknown path ${method} ${path}`, status: 404 })
    } catch (err) {
      if (err instanceof FilterError) return send(400, { message: err.message, status: 400 })
      return send(400, { message: (err as Error).message, status: 400 })
    }
  }
}
