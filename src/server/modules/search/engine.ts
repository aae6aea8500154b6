/**
 * One in-process index: the embedded engine behind the Algolia-shaped search contract.
 *
 * Records are tokenised into a term dictionary with packed postings (record, attribute,
 * position), one per term and record: the term's best place in it. A query word matches
 * dictionary terms exactly, by typo (1 from 4 letters, 2 from 8, a swap counts as one) and, for
 * the last word, as a prefix (typos allowed too). Every query word must match. Hits are ranked
 * on a tuple compared in order:
 *   1. cost: typos, plus 1 for a word only matched as a prefix (exact words first);
 *   2. attribute: the earliest searchable attribute matched (name first);
 *   3. proximity of the query words;
 *   4. position of the first matched word in that attribute;
 *   5. more words matched exactly;
 *   6. fewer letters completed by prefix matches ('exit' before 'extinguisher' for 'exi');
 *   7. the custom ranking (e.g. popularity), then the record order.
 * Sort replicas put their sort before the tuple, as Algolia's standard replicas do.
 */
import { randomBytes } from 'node:crypto'
import type { HighlightResult, SearchResult } from '../../../shared/search.ts'
import { HIGHLIGHT_POST_TAG, HIGHLIGHT_PRE_TAG } from '../../../shared/search.ts'
import type {
  EngineQuery,
  IndexHit,
  IndexRecord,
  IndexSettings,
  RankingKey,
  TermMatch,
} from './engine.types.ts'
import { matchesFilters, parseFilters, type Cnf } from './filters.ts'
import { highlightText } from './highlight.ts'
import { compareByKeys, packScore, topK } from './ranking.ts'
import { allowedTypos, prefixTypoDistance, queryWords, tokenize, typoDistance } from './text.ts'

export type { EngineQuery, IndexHit, IndexRecord, IndexSettings, RankingKey } from './engine.types.ts'

export const DEFAULT_HITS_PER_PAGE = 20
export const MAX_HITS_PER_PAGE = 1000
/** Like Algolia's paginationLimitedTo: hits beyond this are not reachable by paging. */
export const PAGINATION_LIMIT = 1000
/** A one- or two-letter prefix can match thousands of words; only this many are expanded. */
const MAX_PREFIX_TERMS = 500
const MAX_ATTRIBUTES = 64
const MAX_POSITION = 1023
const PROXIMITY_CAP = 8
/** Hits ranked (and cached) per query at least: five pages of 20. */
const RANKED_KEPT = 100

const pack = (doc: number, attr: number, pos: number) => doc * 65536 + attr * 1024 + pos
const docOf = (p: number) => Math.floor(p / 65536)
const attrOf = (p: number) => Math.floor((p % 65536) / 1024)
const posOf = (p: number) => p % 1024

function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (typeof value === 'number') return [String(value)]
  if (Array.isArray(value))
    return value.filter((v) => typeof v === 'string' || typeof v === 'number').map(String)
  return []
}

export class SearchIndex {
  private readonly records: (IndexRecord | undefined)[] = []
  private readonly slots = new Map<string, number>()
  private readonly docTerms: (string[] | undefined)[] = []
  private readonly free: number[] = []
  private readonly postings = new Map<string, number[]>()
  private sortedTerms: string[] | null = null
  private readonly wordCache = new Map<string, Map<string, TermMatch>>()
  private readonly facets: Set<string>
  private readonly numerics: Set<string>
  private readonly filterCache = new Map<string, Cnf>()
  private readonly bitmapCache = new Map<string, Uint8Array>()
  /**
   * The ranked hits (first RANKED_KEPT or more) of recent queries, by words, filters and sort:
   * the next page of a search, or the same search again, costs a slice. Cleared by every write to
   * this index, so it follows other instances' changes the way the index does (their catalogue
   * changes reach this process through the change bus and are applied here).
   */
  private readonly rankedCache = new Map<string, { ranked: number[]; nbHits: number }>()
  private rankCache: Float64Array | null = null
  /** Per sort (replica): each record's place in that sort, equal values sharing one (see sortRank). */
  private readonly sortRankCache = new Map<string, Float64Array>()
  private order = 0
  private readonly orderOf: number[] = []

  constructor(
    readonly name: string,
    readonly settings: IndexSettings,
  ) {
    if (settings.searchableAttributes.length > MAX_ATTRIBUTES)
      throw new Error('too many searchable attributes')
    this.facets = new Set(settings.attributesForFaceting)
    this.numerics = new Set(settings.numericAttributes ?? [])
  }

  get size(): number {
    return this.slots.size
  }

  /** Adds or replaces records (by objectID). */
  saveObjects(records: IndexRecord[]): void {
    for (const record of records) {
      if (!record || typeof record.objectID !== 'string' || !record.objectID) continue
      const existing = this.slots.get(record.objectID)
      if (existing !== undefined) this.unindex(existing)
      const slot = existing ?? this.free.pop() ?? this.records.length
      this.records[slot] = record
      this.orderOf[slot] = existing !== undefined ? this.orderOf[slot]! : this.order++
      this.slots.set(record.objectID, slot)
      this.index(slot, record)
    }
    this.changed()
  }

  deleteObjects(objectIDs: string[]): void {
    for (const id of objectIDs) {
      const slot = this.slots.get(id)
      if (slot === undefined) continue
      this.unindex(slot)
      this.records[slot] = undefined
      this.slots.delete(id)
      this.free.push(slot)
    }
    this.changed()
  }

  clear(): void {
    this.records.length = 0
    this.docTerms.length = 0
    this.orderOf.length = 0
    this.free.length = 0
    this.slots.clear()
    this.postings.clear()
    this.changed()
  }

  getObject(objectID: string): IndexRecord | undefined {
    const slot = this.slots.get(objectID)
    return slot === undefined ? undefined : this.records[slot]
  }

  /** Every record, in insertion order (for exports and tests). */
  all(): IndexRecord[] {
    return this.records.filter((r): r is IndexRecord => r !== undefined)
  }

  /** Each record's place in the custom ranking (then insertion order), computed once per change. */
  private customRank(): Float64Array {
    if (this.rankCache && this.rankCache.length >= this.records.length) return this.rankCache
    const custom = this.settings.customRanking ?? []
    const slots = [...this.slots.values()].sort(
      (a, b) =>
        compareByKeys(this.records[a]!, this.records[b]!, custom) || this.orderOf[a]! - this.orderOf[b]!,
    )
    const rank = new Float64Array(Math.max(16, this.records.length))
    slots.forEach((slot, i) => (rank[slot] = i))
    this.rankCache = rank
    return rank
  }

  /**
   * Each record's place in the order of `keys` (a replica's sort), computed once per change:
   * records whose sort values are equal share a place, so `rank[a] - rank[b]` has the sign of
   * `compareByKeys(a, b, keys)` and the relevance tuple still decides between them. A search then
   * compares two numbers instead of two records' values (a collation for names) per step.
   */
  private sortRank(keys: RankingKey[]): Float64Array {
    const cacheKey = JSON.stringify(keys)
    const cached = this.sortRankCache.get(cacheKey)
    if (cached) return cached
    const slots = [...this.slots.values()].sort((a, b) =>
      compareByKeys(this.records[a]!, this.records[b]!, keys),
    )
    const rank = new Float64Array(Math.max(16, this.records.length))
    let place = 0
    for (let i = 0; i < slots.length; i++) {
      if (i > 0 && compareByKeys(this.records[slots[i - 1]!]!, this.records[slots[i]!]!, keys) !== 0) place++
      rank[slots[i]!] = place
    }
    this.sortRankCache.set(cacheKey, rank)
    return rank
  }

  private changed() {
    this.rankCache = null
    this.sortRankCache.clear()
    this.sortedTerms = null
    this.wordCache.clear()
    this.bitmapCache.clear()
    this.rankedCache.clear()
  }

  /**
   * One posting per term per record: the term's best place in the record (the earliest
   * searchable attribute, then the first position there). A search keeps only each record's best
   * hit per word, and for one term that is this posting, so the others were only scanned and
   * dropped; a word that appears in the name, the description and the category (most of them in
   * a large catalogue) cost three postings.
   */
  private index(slot: number, record: IndexRecord) {
    const best = new Map<string, number>()
    this.settings.searchableAttributes.forEach((attribute, attr) => {
      let offset = 0
      for (const text of textsOf(record[attribute])) {
        for (const token of tokenize(text)) {
          const pos = Math.min(MAX_POSITION, offset + token.position)
          const packed = pack(slot, attr, pos)
          const seen = best.get(token.word)
          if (seen === undefined || packed < seen) best.set(token.word, packed)
        }
        offset += 8 // items of a list attribute are not neighbours
      }
    })
    for (const [term, packed] of best) {
      let list = this.postings.get(term)
      if (!list) {
        list = []
        this.postings.set(term, list)
      }
      list.push(packed)
    }
    this.docTerms[slot] = [...best.keys()]
  }

  /** How many postings a term has (tests: one per record holding it). */
  postingCount(term: string): number {
    return this.postings.get(term)?.length ?? 0
  }

  private unindex(slot: number) {
    for (const term of this.docTerms[slot] ?? []) {
      const list = this.postings.get(term)
      if (!list) continue
      const kept = list.filter((p) => docOf(p) !== slot)
      if (kept.length) this.postings.set(term, kept)
      else this.postings.delete(term)
    }
    this.docTerms[slot] = undefined
  }

  private terms(): string[] {
    this.sortedTerms ??= [...this.postings.keys()].sort()
    return this.sortedTerms
  }

  /** Dictionary terms a query word matches, with how. */
  matchWord(word: string, isLast: boolean): Map<string, TermMatch> {
    const key = `${isLast ? 'p' : 'w'}:${word}`
    const cached = this.wordCache.get(key)
    if (cached) return cached
    const out = new Map<string, TermMatch>()
    if (this.postings.has(word)) out.set(word, { typos: 0, prefix: false, completion: 0 })
    const terms = this.terms()
    if (isLast) {
      let lo = 0
      let hi = terms.length
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (terms[mid]! < word) lo = mid + 1
        else hi = mid
      }
      for (let i = lo, n = 0; i < terms.length && n < MAX_PREFIX_TERMS && terms[i]!.startsWith(word); i++) {
        const term = terms[i]!
        if (term !== word) {
          out.set(term, { typos: 0, prefix: true, completion: term.length - word.length })
          n++
        }
      }
    }
    const k = allowedTypos(word)
    if (k > 0) {
      for (const term of terms) {
        if (out.has(term) || /\d/.test(term)) continue
        const whole = Math.abs(term.length - word.length) <= k ? typoDistance(word, term, k) : k + 1
        if (whole <= k) {
          out.set(term, { typos: whole, prefix: false, completion: 0 })
          continue
        }
        if (isLast && term.length > word.length - k) {
          const d = prefixTypoDistance(word, term, k)
          if (d <= k)
            out.set(term, { typos: d, prefix: true, completion: Math.max(0, term.length - word.length) })
        }
      }
    }
    if (this.wordCache.size > 5000) this.wordCache.clear()
    this.wordCache.set(key, out)
    return out
  }

  private generation = 0
  private scratchArrays: { values: Float64Array[]; stamps: Uint32Array[]; score: Float64Array } = {
    values: [],
    stamps: [],
    score: new Float64Array(16),
  }

  private nextGeneration(): number {
    this.generation = (this.generation + 1) >>> 0
    if (this.generation === 0) {
      for (const s of this.scratchArrays.stamps) s.fill(0)
      this.generation = 1
    }
    return this.generation
  }

  /** Per-word scratch arrays sized to the records (grown when records are added). */
  private scratch(words: number) {
    const size = this.records.length
    const a = this.scratchArrays
    if (a.score.length < size) {
      a.values = []
      a.stamps = []
      a.score = new Float64Array(size)
    }
    while (a.values.length < words) {
      a.values.push(new Float64Array(Math.max(size, 16)))
      a.stamps.push(new Uint32Array(Math.max(size, 16)))
    }
    return a
  }

  /** Records passing a filter, as a bitmap by slot (null = no filter); cached until the next write. */
  private allowedSlots(filters: string | undefined): Uint8Array | null {
    const cnf = this.compileFilters(filters)
    if (cnf.length === 0) return null
    const key = filters ?? ''
    let bitmap = this.bitmapCache.get(key)
    if (!bitmap) {
      bitmap = new Uint8Array(this.records.length)
      for (let slot = 0; slot < this.records.length; slot++) {
        const record = this.records[slot]
        if (record && matchesFilters(cnf, (a) => record[a])) bitmap[slot] = 1
      }
      if (this.bitmapCache.size > 50) this.bitmapCache.clear()
      this.bitmapCache.set(key, bitmap)
    }
    return bitmap
  }

  private compileFilters(filters: string | undefined): Cnf {
    const key = filters ?? ''
    let cnf = this.filterCache.get(key)
    if (!cnf) {
      cnf = parseFilters(filters, this.facets, this.numerics)
      if (this.filterCache.size > 200) this.filterCache.clear()
      this.filterCache.set(key, cnf)
    }
    return cnf
  }

  /**
   * Answers one query. `reference` (tests only) orders every hit with the plain comparators, by a
   * full sort: the straightforward version the fast path (top-k over precomputed ranks) must equal.
   */
  search(params: EngineQuery, reference = false): SearchResult<IndexHit> {
    const started = performance.now()
    const query = typeof params.query === 'string' ? params.query : ''
    const hitsPerPage = Math.min(
      MAX_HITS_PER_PAGE,
      Math.max(1, Math.floor(Number(params.hitsPerPage ?? DEFAULT_HITS_PER_PAGE)) || DEFAULT_HITS_PER_PAGE),
    )
    const page = Math.max(0, Math.floor(Number(params.page ?? 0)) || 0)
    const allowed = this.allowedSlots(params.filters)
    const words = queryWords(query)
    const passes = (slot: number) =>
      this.records[slot] !== undefined && (allowed === null || allowed[slot] === 1)

    let ranked: number[]
    let nbHitsTotal: number
    const sort = params.sort ?? []
    const matchesPerWord = words.map((w, i) => this.matchWord(w, i === words.length - 1))
    // Only the hits up to the requested page need to be in order.
    const needed = Math.min(PAGINATION_LIMIT, (page + 1) * hitsPerPage)
    const rank = this.customRank()
    const tieBreak = (a: number, b: number) => rank[a]! - rank[b]!
    const bySortKeys = (a: number, b: number) => compareByKeys(this.records[a]!, this.records[b]!, sort)
    const sortPlace = sort.length && !reference ? this.sortRank(sort) : null
    // A few pages are ranked at once, so the next ones come from the cache.
    const kept = Math.min(PAGINATION_LIMIT, Math.max(needed, RANKED_KEPT))
    const select = (slots: number[], compare: (a: number, b: number) => number) =>
      reference ? slots.sort(compare).slice(0, needed) : topK(slots, kept, compare)
    const cacheKey = reference ? null : JSON.stringify([words, params.filters ?? '', sort])
    const cached = cacheKey === null ? undefined : this.rankedCache.get(cacheKey)

    if (cached && cached.ranked.length >= Math.min(needed, cached.nbHits)) {
      ranked = cached.ranked
      nbHitsTotal = cached.nbHits
    } else if (words.length === 0) {
      const all: number[] = []
      for (const slot of this.slots.values()) if (passes(slot)) all.push(slot)
      nbHitsTotal = all.length
      const bySort = sortPlace
        ? (a: number, b: number) => sortPlace[a]! - sortPlace[b]! || rank[a]! - rank[b]!
        : (a: number, b: number) => (sort.length ? bySortKeys(a, b) : 0) || tieBreak(a, b)
      ranked = select(all, bySort)
    } else {
      // Words with the fewest postings first: later words only look at records still in the running.
      const order = matchesPerWord
        .map((matches, w) => {
          let n = 0
          for (const term of matches.keys()) n += this.postings.get(term)?.length ?? 0
          return { w, n }
        })
        .sort((a, b) => a.n - b.n)
        .map((x) => x.w)
      // Per word, the best hit of each record, packed (cost, attribute, position, completion) in a
      // reusable typed array; a stamp per record says whether it was set by this query.
      const gen = this.nextGeneration()
      const best = this.scratch(words.length)
      let previous = -1
      let survivors: number[] = []
      for (const w of order) {
        const values = best.values[w]!
        const stamps = best.stamps[w]!
        const prevStamps = previous >= 0 ? best.stamps[previous]! : null
        const touched: number[] = []
        for (const [term, m] of matchesPerWord[w]!) {
          const cost = m.typos + (m.prefix ? 1 : 0)
          const list = this.postings.get(term)
          if (!list) continue
          const base = cost * 2 ** 35 + Math.min(m.completion, 8191)
          for (let i = 0; i < list.length; i++) {
            const p = list[i]!
            const doc = docOf(p)
            if (prevStamps ? prevStamps[doc] !== gen : !passes(doc)) continue
            const packed = base + attrOf(p) * 2 ** 29 + posOf(p) * 2 ** 19
            if (stamps[doc] !== gen) {
              stamps[doc] = gen
              values[doc] = packed
              touched.push(doc)
            } else if (packed < values[doc]!) {
              values[doc] = packed
            }
          }
        }
        survivors = touched
        previous = w
        if (touched.length === 0) break
      }
      const score = best.score
      for (const slot of survivors) {
        let cost = 0
        let attr = MAX_ATTRIBUTES
        let pos = MAX_POSITION
        let exact = 0
        let completion = 0
        let proximity = 0
        let prevAttr = -1
        let prevPos = 0
        for (let w = 0; w < words.length; w++) {
          const v = best.values[w]![slot]!
          const hitCost = Math.floor(v / 2 ** 35)
          const hitAttr = Math.floor(v / 2 ** 29) % 64
          const hitPos = Math.floor(v / 2 ** 19) % 1024
          cost += hitCost
          if (hitAttr < attr || (hitAttr === attr && hitPos < pos)) {
            attr = hitAttr
            pos = hitPos
          }
          if (hitCost === 0) exact++
          completion += v % 8192
          if (w > 0)
            proximity +=
              prevAttr === hitAttr ? Math.min(PROXIMITY_CAP, Math.abs(hitPos - prevPos)) : PROXIMITY_CAP
          prevAttr = hitAttr
          prevPos = hitPos
        }
        score[slot] = packScore(cost, attr, proximity, pos, words.length - exact, completion)
      }
      nbHitsTotal = survivors.length
      const byRelevance = sortPlace
        ? (a: number, b: number) =>
            sortPlace[a]! - sortPlace[b]! || score[a]! - score[b]! || rank[a]! - rank[b]!
        : sort.length
          ? (a: number, b: number) => bySortKeys(a, b) || score[a]! - score[b]! || tieBreak(a, b)
          : (a: number, b: number) => score[a]! - score[b]! || rank[a]! - rank[b]!
      ranked = select(survivors, byRelevance)
    }
    if (cacheKey !== null && ranked !== cached?.ranked) {
      if (this.rankedCache.size >= 200) this.rankedCache.clear()
      this.rankedCache.set(cacheKey, { ranked, nbHits: nbHitsTotal })
    }

    const nbHits = nbHitsTotal
    const reachable = Math.min(nbHits, PAGINATION_LIMIT)
    const nbPages = Math.ceil(reachable / hitsPerPage)
    const pageSlots = ranked.slice(page * hitsPerPage, Math.min(reachable, (page + 1) * hitsPerPage))
    const toHighlight = params.attributesToHighlight ?? this.settings.attributesToHighlight ?? []
    const pre = typeof params.highlightPreTag === 'string' ? params.highlightPreTag : HIGHLIGHT_PRE_TAG
    const post = typeof params.highlightPostTag === 'string' ? params.highlightPostTag : HIGHLIGHT_POST_TAG
    const hits = pageSlots.map((slot): IndexHit => {
      const record = this.records[slot]!
      const highlight: Record<string, HighlightResult> = {}
      for (const attribute of toHighlight) {
        const value = record[attribute]
        if (typeof value !== 'string') continue
        highlight[attribute] = highlightText(value, words, matchesPerWord, pre, post)
      }
      return toHighlight.length ? { ...record, _highlightResult: highlight } : { ...record }
    })

    const result: SearchResult<IndexHit> = {
      hits,
      nbHits,
      page,
      nbPages,
      hitsPerPage,
      processingTimeMS: Math.round(performance.now() - started),
      query,
      params: new URLSearchParams(
        Object.entries({ query, filters: params.filters ?? '', hitsPerPage, page }).map(([k, v]) => [
          k,
          String(v),
        ]),
      ).toString(),
      index: this.name,
      exhaustiveNbHits: true,
    }
    if (params.clickAnalytics) result.queryID = randomBytes(16).toString('hex')
    return result
  }
}
