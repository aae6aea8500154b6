/**
 * One in-process index: the embedded engine behind the Algolia-shaped search contract.
 *
 * Records are tokenised into a term dictionary with packed postings (record, attribute,
 * position). A query word matches dictionary terms exactly, by typo (1 from 4 letters, 2 from
 * 8, a swap counts as one) and, for the last word, as a prefix (typos allowed too). Every query
 * word must match. Hits are ranked on a tuple compared in order:
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
import { matchesFilters, parseFilters, type Cnf } from './filters.ts'
import { allowedTypos, prefixTypoDistance, queryWords, tokenize, typoDistance } from './text.ts'

export type IndexRecord = { objectID: string } & Record<string, unknown>
export type IndexHit = IndexRecord & { _highlightResult?: Record<string, HighlightResult> }

export interface RankingKey {
  attribute: string
  order: 'asc' | 'desc'
}

export interface IndexSettings {
  /** Searchable attributes, most important first (string or string[] values) */
  searchableAttributes: string[]
  /** Attributes usable in `attr:value` filters */
  attributesForFaceting: string[]
  /** Attributes usable in numeric filters */
  numericAttributes?: string[]
  customRanking?: RankingKey[]
  attributesToHighlight?: string[]
  /** Named sorts (replicas): index name suffix -> keys applied before relevance */
  replicas?: Record<string, RankingKey[]>
}

export interface EngineQuery {
  query?: string
  filters?: string
  hitsPerPage?: number
  page?: number
  clickAnalytics?: boolean
  attributesToHighlight?: string[]
  highlightPreTag?: string
  highlightPostTag?: string
  /** Sort keys applied before relevance (a replica) */
  sort?: RankingKey[]
}

export const DEFAULT_HITS_PER_PAGE = 20
export const MAX_HITS_PER_PAGE = 1000
/** Like Algolia's paginationLimitedTo: hits beyond this are not reachable by paging. */
export const PAGINATION_LIMIT = 1000
/** A one- or two-letter prefix can match thousands of words; only this many are expanded. */
const MAX_PREFIX_TERMS = 500
const MAX_ATTRIBUTES = 64
const MAX_POSITION = 1023
const PROXIMITY_CAP = 8

interface TermMatch {
  typos: number
  prefix: boolean
  /** Letters the term has beyond the typed word (prefix matches) */
  completion: number
}

interface WordHit {
  cost: number
  attr: number
  pos: number
  completion: number
  exact: boolean
}

const pack = (doc: number, attr: number, pos: number) => doc * 65536 + attr * 1024 + pos
const docOf = (p: number) => Math.floor(p / 65536)
const attrOf = (p: number) => Math.floor((p % 65536) / 1024)
const posOf = (p: number) => p % 1024

function compareValues(a: unknown, b: unknown): number {
  const aMissing = a === undefined || a === null
  const bMissing = b === undefined || b === null
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1
  if (typeof a === 'number' && typeof b === 'number') return a - b
  return String(a).localeCompare(String(b), 'en', { sensitivity: 'base' })
}

function compareByKeys(a: IndexRecord, b: IndexRecord, keys: RankingKey[]): number {
  for (const key of keys) {
    const av = a[key.attribute]
    const bv = b[key.attribute]
    const missingA = av === undefined || av === null
    const missingB = bv === undefined || bv === null
    if (missingA || missingB) {
      if (missingA !== missingB) return missingA ? 1 : -1 // records without the value go last
      continue
    }
    const c = compareValues(av, bv)
    if (c !== 0) return key.order === 'asc' ? c : -c
  }
  return 0
}

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

  private changed() {
    this.sortedTerms = null
    this.wordCache.clear()
  }

  private index(slot: number, record: IndexRecord) {
    const terms = new Set<string>()
    this.settings.searchableAttributes.forEach((attribute, attr) => {
      let offset = 0
      for (const text of textsOf(record[attribute])) {
        for (const token of tokenize(text)) {
          const pos = Math.min(MAX_POSITION, offset + token.position)
          let list = this.postings.get(token.word)
          if (!list) {
            list = []
            this.postings.set(token.word, list)
          }
          list.push(pack(slot, attr, pos))
          terms.add(token.word)
        }
        offset += 8 // items of a list attribute are not neighbours
      }
    })
    this.docTerms[slot] = [...terms]
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

  search(params: EngineQuery): SearchResult<IndexHit> {
    const started = performance.now()
    const query = typeof params.query === 'string' ? params.query : ''
    const hitsPerPage = Math.min(
      MAX_HITS_PER_PAGE,
      Math.max(1, Math.floor(Number(params.hitsPerPage ?? DEFAULT_HITS_PER_PAGE)) || DEFAULT_HITS_PER_PAGE),
    )
    const page = Math.max(0, Math.floor(Number(params.page ?? 0)) || 0)
    const cnf = this.compileFilters(params.filters)
    const words = queryWords(query)
    const passes = (slot: number) => {
      const record = this.records[slot]
      return !!record && (cnf.length === 0 || matchesFilters(cnf, (a) => record[a]))
    }

    let ranked: number[]
    const custom = this.settings.customRanking ?? []
    const sort = params.sort ?? []
    const matchesPerWord = words.map((w, i) => this.matchWord(w, i === words.length - 1))

    if (words.length === 0) {
      ranked = []
      for (const slot of this.slots.values()) if (passes(slot)) ranked.push(slot)
      ranked.sort(
        (a, b) =>
          compareByKeys(this.records[a]!, this.records[b]!, [...sort, ...custom]) ||
          this.orderOf[a]! - this.orderOf[b]!,
      )
    } else {
      // Best hit of each word per record.
      const perWord: Map<number, WordHit>[] = matchesPerWord.map((matches) => {
        const best = new Map<number, WordHit>()
        for (const [term, m] of matches) {
          const cost = m.typos + (m.prefix ? 1 : 0)
          for (const p of this.postings.get(term) ?? []) {
            const doc = docOf(p)
            const attr = attrOf(p)
            const pos = posOf(p)
            const prev = best.get(doc)
            if (
              !prev ||
              cost < prev.cost ||
              (cost === prev.cost && (attr < prev.attr || (attr === prev.attr && pos < prev.pos)))
            ) {
              best.set(doc, { cost, attr, pos, completion: m.completion, exact: cost === 0 })
            }
          }
        }
        return best
      })
      const order = perWord.map((_, i) => i).sort((a, b) => perWord[a]!.size - perWord[b]!.size)
      const smallest = perWord[order[0]!]!
      const scored: { slot: number; key: number[] }[] = []
      for (const [slot, first] of smallest) {
        let cost = 0
        let attr = MAX_ATTRIBUTES
        let pos = MAX_POSITION
        let exact = 0
        let completion = 0
        let proximity = 0
        let ok = true
        let previous: WordHit | undefined
        for (let w = 0; w < perWord.length; w++) {
          const hit = w === order[0] ? first : perWord[w]!.get(slot)
          if (!hit) {
            ok = false
            break
          }
          cost += hit.cost
          if (hit.attr < attr || (hit.attr === attr && hit.pos < pos)) {
            attr = hit.attr
            pos = hit.pos
          }
          if (hit.exact) exact++
          completion += hit.completion
          if (previous) {
            proximity +=
              previous.attr === hit.attr
                ? Math.min(PROXIMITY_CAP, Math.abs(hit.pos - previous.pos))
                : PROXIMITY_CAP
          }
          previous = hit
        }
        if (!ok || !passes(slot)) continue
        scored.push({ slot, key: [cost, attr, proximity, pos, -exact, completion] })
      }
      scored.sort((a, b) => {
        const ra = this.records[a.slot]!
        const rb = this.records[b.slot]!
        const s = compareByKeys(ra, rb, sort)
        if (s !== 0) return s
        for (let i = 0; i < a.key.length; i++) {
          const d = a.key[i]! - b.key[i]!
          if (d !== 0) return d
        }
        return compareByKeys(ra, rb, custom) || this.orderOf[a.slot]! - this.orderOf[b.slot]!
      })
      ranked = scored.map((s) => s.slot)
    }

    const nbHits = ranked.length
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

/** Wraps the words of `value` that match the query in the highlight tags. */
export function highlightText(
  value: string,
  words: string[],
  matchesPerWord: Map<string, TermMatch>[],
  pre: string,
  post: string,
): HighlightResult {
  const matched = new Set<number>()
  let out = ''
  let last = 0
  let all = true
  let tokensSeen = 0
  for (const token of tokenize(value)) {
    tokensSeen++
    let wordIndex = -1
    let match: TermMatch | undefined
    for (let w = 0; w < matchesPerWord.length; w++) {
      const m = matchesPerWord[w]!.get(token.word)
      if (m && (!match || m.typos + Number(m.prefix) < match.typos + Number(match.prefix))) {
        match = m
        wordIndex = w
      }
    }
    if (!match) {
      all = false
      continue
    }
    matched.add(wordIndex)
    // An exact prefix highlights the typed letters only; a typo highlights the whole word.
    const typed = words[wordIndex]!
    const end =
      match.prefix && match.typos === 0 && token.end - token.start >= typed.length
        ? token.start + typed.length
        : token.end
    out += value.slice(last, token.start) + pre + value.slice(token.start, end) + post
    last = end
  }
  out += value.slice(last)
  const matchedWords = [...matched].sort((a, b) => a - b).map((i) => words[i]!)
  const matchLevel = matched.size === 0 ? 'none' : matched.size === words.length ? 'full' : 'partial'
  return {
    value: out,
    matchLevel,
    matchedWords,
    ...(matched.size > 0 ? { fullyHighlighted: all && tokensSeen > 0 } : {}),
  }
}
