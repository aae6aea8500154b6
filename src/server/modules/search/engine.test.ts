import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { SearchIndex, type IndexRecord, type RankingKey } from './engine.ts'
import { tokenize } from './text.ts'

const corpus: IndexRecord[] = [
  {
    objectID: 'p1',
    type: 'product',
    status: 'published',
    name: 'Fire Exit Sign Running Man',
    short_description: 'Photoluminescent rigid plastic',
    category_name: 'Fire Exit Signs',
    price_ex_tax: 450,
    popularity: 1,
  },
  {
    objectID: 'p2',
    type: 'product',
    status: 'published',
    name: 'Fire Extinguisher ID Sign - CO2',
    short_description: 'Identifies the extinguisher',
    category_name: 'Fire Extinguisher Signs',
    price_ex_tax: 300,
    popularity: 9,
  },
  {
    objectID: 'p3',
    type: 'product',
    status: 'published',
    name: 'Fire Exit Keep Clear Sign',
    short_description: 'For doors',
    category_name: 'Fire Exit Signs',
    price_ex_tax: 500,
    popularity: 2,
  },
  {
    objectID: 'p4',
    type: 'product',
    status: 'published',
    name: 'Hi-Vis Vest',
    short_description: 'Fire retardant orange vest',
    category_name: 'Workwear',
    price_ex_tax: 399,
    popularity: 5,
  },
  {
    objectID: 'p5',
    type: 'product',
    status: 'unpublished',
    name: 'Fire Exit Sign Draft',
    short_description: '',
    category_name: 'Fire Exit Signs',
    price_ex_tax: 100,
    popularity: 0,
  },
  {
    objectID: 'p6',
    type: 'product_group',
    status: 'published',
    name: 'Safety Gloves',
    short_description: 'Cut resistant',
    category_name: 'Gloves',
    price_ex_tax: 250,
    popularity: 3,
  },
  {
    objectID: 'c1',
    type: 'category',
    status: 'published',
    name: 'Fire Exit Signs',
    short_description: '',
    category_name: '',
    price_ex_tax: 0,
    popularity: 0,
  },
  {
    objectID: 'c2',
    type: 'category',
    status: 'published',
    name: 'Signs',
    short_description: 'Every sign we make',
    category_name: '',
    price_ex_tax: 0,
    popularity: 0,
  },
  {
    objectID: 'p7',
    type: 'product',
    status: 'published',
    name: 'First Aid Kit',
    short_description: 'BS 8599 compliant',
    category_name: 'First Aid',
    price_ex_tax: 1999,
    popularity: 4,
  },
]

function build() {
  const index = new SearchIndex('test', {
    searchableAttributes: ['name', 'category_name', 'short_description'],
    attributesForFaceting: ['type', 'status'],
    numericAttributes: ['price_ex_tax'],
    customRanking: [{ attribute: 'popularity', order: 'desc' }],
    attributesToHighlight: ['name'],
  })
  index.saveObjects(corpus)
  return index
}

const ids = (index: SearchIndex, query: string, filters = 'status:published') =>
  index.search({ query, filters, hitsPerPage: 50 }).hits.map((h) => h.objectID)

describe('the embedded search index', () => {
  it('finds fire exit signs first for the misspelt "fire exti"', () => {
    const found = ids(build(), 'fire exti', 'type:product AND status:published')
    expect(found.slice(0, 2).sort()).toEqual(['p1', 'p3'])
    expect(found).toContain('p2')
  })

  it('counts a swap of two letters as one typo, from four letters', () => {
    const index = build()
    expect(ids(index, 'gloevs')).toEqual(['p6'])
    expect(ids(index, 'vset')).toEqual(['p4'])
    // three letters: no typo allowed
    expect(ids(index, 'kti ')).toEqual([])
  })

  it('allows two typos only from eight letters', () => {
    const index = build()
    expect(ids(index, 'extinguishre sign')).toContain('p2') // 12 letters, one swap
    expect(ids(index, 'extnguishr sign')).toContain('p2') // two missing letters, 10 typed
    expect(ids(index, 'gleovs')).toEqual([]) // 6 letters, two typos
  })

  it('matches the last word as a prefix, and earlier words only as whole words', () => {
    const index = build()
    expect(ids(index, 'safety glo')).toEqual(['p6'])
    expect(ids(index, 'saf gloves')).toEqual([])
  })

  it('ranks an exact whole word before a prefix completion', () => {
    const index = build()
    const found = ids(index, 'vest')
    expect(found).toEqual(['p4'])
    const signs = ids(index, 'sign', 'type:category')
    // 'Signs' is a prefix completion of 'sign'; 'Fire Exit Signs' too: the earlier position wins
    expect(signs).toEqual(['c2', 'c1'])
  })

  it('puts name matches before matches in other attributes', () => {
    // 'fire' is in the name of p1..p3 and only in the description of p4; 'First' (p7) is a
    // prefix with a typo, so it comes after every exact match
    const found = ids(build(), 'fire', 'type:product AND status:published')
    expect(found.slice(3)).toEqual(['p4', 'p7'])
  })

  it('breaks ties with the custom ranking', () => {
    const found = ids(build(), 'fire', 'type:product AND status:published')
    // p1, p2 and p3 all start with the exact word 'fire' in the name: popularity decides
    expect(found.slice(0, 3)).toEqual(['p2', 'p3', 'p1'])
  })

  it('applies the storefront filters, OR groups binding tighter than AND', () => {
    const index = build()
    expect(ids(index, 'fire exit', 'type:category AND status:published')).toEqual(['c1'])
    expect(ids(index, 'sign draft', 'type:product_group OR type:product AND status:published')).toEqual([])
    expect(ids(index, 'gloves', 'type:product_group OR type:product AND status:published')).toEqual(['p6'])
    expect(ids(index, 'gloves', 'type:product AND status:published')).toEqual([])
  })

  it('returns every record for an empty query, filtered and in custom order', () => {
    const found = ids(build(), '', 'type:category')
    expect(found.sort()).toEqual(['c1', 'c2'])
  })

  it('highlights matched words, only the typed part of a prefix', () => {
    const index = build()
    const [hit] = index.search({ query: 'safety glo', filters: 'status:published' }).hits
    expect(hit?._highlightResult?.name).toEqual({
      value: '<em>Safety</em> <em>Glo</em>ves',
      matchLevel: 'full',
      matchedWords: ['safety', 'glo'],
      fullyHighlighted: true,
    })
    const typo = index.search({ query: 'gloevs' }).hits[0]
    expect(typo?._highlightResult?.name?.value).toBe('Safety <em>Gloves</em>')
    expect(typo?._highlightResult?.name?.matchLevel).toBe('full')
  })

  it('pages through hits with Algolia numbers', () => {
    const index = build()
    const result = index.search({ query: 'fire', hitsPerPage: 2, page: 1, filters: 'status:published' })
    expect(result.nbHits).toBe(6)
    expect(result.nbPages).toBe(3)
    expect(result.page).toBe(1)
    expect(result.hits).toHaveLength(2)
    expect(result.queryID).toBeUndefined()
    expect(index.search({ query: 'fire', clickAnalytics: true }).queryID).toMatch(/^[0-9a-f]{32}$/)
  })

  it('updates and deletes records in place', () => {
    const index = build()
    index.saveObjects([{ ...corpus[5]!, name: 'Nitrile Gauntlets' }])
    expect(ids(index, 'gloves', 'type:product_group')).toEqual(['p6']) // still in category_name
    expect(ids(index, 'gauntlets')).toEqual(['p6'])
    index.deleteObjects(['p6'])
    expect(ids(index, 'gauntlets')).toEqual([])
    expect(index.size).toBe(corpus.length - 1)
  })

  it('keeps one posting per term per record, however many fields and places hold the term', () => {
    const index = new SearchIndex('t', {
      searchableAttributes: ['name', 'category_name', 'short_description'],
      attributesForFaceting: [],
    })
    index.saveObjects([
      { objectID: 'a', name: 'Sign', category_name: 'Sign sign', short_description: 'A sign, sign' },
      { objectID: 'b', name: 'Fire exit sign', category_name: 'Signs', short_description: 'sign' },
      { objectID: 'c', name: 'Locker', category_name: 'Lockers', short_description: 'steel' },
    ])
    expect(index.postingCount('sign')).toBe(2)
    expect(index.postingCount('signs')).toBe(1)
    index.saveObjects([{ objectID: 'a', name: 'Chair', category_name: 'Chairs', short_description: 'sign' }])
    expect(index.postingCount('sign')).toBe(2)
    index.deleteObjects(['b'])
    expect(index.postingCount('sign')).toBe(1)
    expect(index.search({ query: 'sign' }).hits.map((h) => h.objectID)).toEqual(['a'])
  })

  it('scores a record on the best place of a word: the earliest field, then the first position there', () => {
    const index = new SearchIndex('t', {
      searchableAttributes: ['name', 'short_description'],
      attributesForFaceting: [],
    })
    index.saveObjects([
      { objectID: 'later-in-name', name: 'fire sign', short_description: '' },
      // Its description has 'sign' too, after the name's 'sign' at position 0: the name counts.
      { objectID: 'first-in-name', name: 'sign', short_description: 'fire sign sign' },
      { objectID: 'description-only', name: 'fire exit', short_description: 'sign' },
    ])
    expect(index.search({ query: 'sign' }).hits.map((h) => h.objectID)).toEqual([
      'first-in-name',
      'later-in-name',
      'description-only',
    ])
    expect(index.postingCount('sign')).toBe(3)
  })

  it('sorts by a replica key before relevance', () => {
    const found = build()
      .search({
        query: 'fire',
        filters: 'type:product AND status:published',
        sort: [{ attribute: 'price_ex_tax', order: 'asc' }],
      })
      .hits.map((h) => h.objectID)
    expect(found).toEqual(['p2', 'p4', 'p1', 'p3', 'p7'])
  })

  it('treats hostile query text as words, never as syntax', () => {
    const index = build()
    expect(ids(index, "type:category' OR 1=1 --")).toEqual([])
    expect(ids(index, '🔥 fire exit')).toContain('p1')
    expect(() => index.search({ query: 'x'.repeat(4096) })).not.toThrow()
  })
})

describe('the fast ranking path (top-k over precomputed sort places)', () => {
  const words = [
    'fire',
    'exit',
    'sign',
    'signal',
    'steel',
    'locker',
    'first',
    'aid',
    'office',
    'chair',
    'été',
  ]
  const recordArb = fc.record({
    name: fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 4 }).map((w) => w.join(' ')),
    short_description: fc.array(fc.constantFrom(...words), { maxLength: 3 }).map((w) => w.join(' ')),
    category_name: fc.constantFrom('Fire Signs', 'Lockers', 'Chairs'),
    status: fc.constantFrom('published', 'unpublished'),
    // Few distinct values, so sorts have many ties for the relevance tuple to break.
    sort_name: fc.constantFrom('aid kit', 'Aid kit', 'chair', 'exit', 'étagère', null),
    sort_price: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }),
    created: fc.integer({ min: 0, max: 3 }),
    popularity: fc.integer({ min: 0, max: 3 }),
  })
  const sorts: RankingKey[][] = [
    [],
    [{ attribute: 'sort_name', order: 'asc' }],
    [{ attribute: 'sort_name', order: 'desc' }],
    [{ attribute: 'sort_price', order: 'asc' }],
    [{ attribute: 'sort_price', order: 'desc' }],
    [{ attribute: 'created', order: 'desc' }],
  ]
  const settings = {
    searchableAttributes: ['name', 'category_name', 'short_description'],
    attributesForFaceting: ['status'],
    customRanking: [{ attribute: 'popularity', order: 'desc' as const }],
  }

  it('returns the same hits in the same order as sorting every hit, for any query, sort and page', () => {
    fc.assert(
      fc.property(
        fc.array(recordArb, { minLength: 1, maxLength: 120 }),
        fc.constantFrom('', 'sign', 'fire si', 'sig', 'exti', 'lockr', 'e'),
        fc.constantFrom(...sorts),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 0, max: 6 }),
        fc.boolean(),
        (records, query, sort, hitsPerPage, page, filtered) => {
          const index = new SearchIndex('t', settings)
          index.saveObjects(records.map((r, i) => ({ objectID: `r${i}`, ...r })))
          // A change after the first build: the places must follow it.
          index.deleteObjects(['r0'])
          const params = {
            query,
            sort,
            hitsPerPage,
            page,
            ...(filtered ? { filters: 'status:published' } : {}),
          }
          const fast = index.search(params)
          const reference = index.search(params, true)
          expect(fast.hits.map((h) => h.objectID)).toEqual(reference.hits.map((h) => h.objectID))
          expect(fast.nbHits).toBe(reference.nbHits)
          expect(fast.nbPages).toBe(reference.nbPages)
          // The next page comes from the ranked-hits cache: the same as ranking again.
          const next = { ...params, page: page + 1 }
          expect(index.search(next).hits.map((h) => h.objectID)).toEqual(
            index.search(next, true).hits.map((h) => h.objectID),
          )
        },
      ),
      { numRuns: 300 },
    )
  })

  it('holds one posting per record for every term, for any records', () => {
    fc.assert(
      fc.property(fc.array(recordArb, { minLength: 1, maxLength: 60 }), (records) => {
        const index = new SearchIndex('t', settings)
        index.saveObjects(records.map((r, i) => ({ objectID: `r${i}`, ...r })))
        for (const word of words) {
          const term = tokenize(word)[0]!.word
          const holding = records.filter((r) =>
            settings.searchableAttributes.some((a) =>
              tokenize(String(r[a as keyof typeof r] ?? '')).some((t) => t.word === term),
            ),
          ).length
          expect(index.postingCount(term)).toBe(holding)
        }
      }),
      { numRuns: 100 },
    )
  })

  it('orders names the way localeCompare does (accents and case count as the same letter)', () => {
    const index = new SearchIndex('t', { ...settings, customRanking: [] })
    const names = ['étagère', 'Etagere b', 'aid', 'Zebra', 'zebra a', 'apple']
    index.saveObjects(names.map((n, i) => ({ objectID: `n${i}`, name: 'x', sort_name: n })))
    const hits = index.search({
      query: '',
      sort: [{ attribute: 'sort_name', order: 'asc' }],
      hitsPerPage: 10,
    }).hits
    const expected = [...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }))
    expect(hits.map((h) => h.sort_name)).toEqual(expected)
  })
})
