/**
 * The embedded index's orderings: records by ranking keys (custom ranking, sort replicas), the
 * relevance tuple packed into one number, and the first k of a list without a full sort.
 */
import type { IndexRecord, RankingKey } from './engine.types.ts'

/** The same order as `localeCompare(b, 'en', { sensitivity: 'base' })`, without a collator per call. */
const collator = new Intl.Collator('en', { sensitivity: 'base' })

function compareValues(a: unknown, b: unknown): number {
  const aMissing = a === undefined || a === null
  const bMissing = b === undefined || b === null
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1
  if (typeof a === 'number' && typeof b === 'number') return a - b
  return collator.compare(String(a), String(b))
}

export function compareByKeys(a: IndexRecord, b: IndexRecord, keys: RankingKey[]): number {
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

/**
 * The relevance tuple packed into one number (lower is better), each part capped to its bits:
 * cost 5, attribute 6, proximity 7, position 10, words not exact 4, completion 13.
 */
function cap(v: number, bits: number): number {
  return Math.min(v, 2 ** bits - 1)
}

export function packScore(
  cost: number,
  attr: number,
  proximity: number,
  pos: number,
  inexact: number,
  completion: number,
) {
  return (
    cap(cost, 5) * 2 ** 40 +
    cap(attr, 6) * 2 ** 34 +
    cap(proximity, 7) * 2 ** 27 +
    cap(pos, 10) * 2 ** 17 +
    cap(inexact, 4) * 2 ** 13 +
    cap(completion, 13)
  )
}

/**
 * The first `k` items of `items` in `compare` order, without sorting them all: a bounded
 * max-heap keeps the best k seen so far (its root is the worst of them, so most items cost one
 * comparison), then only those k are sorted. O(n log k). Equal to a full sort's first k when
 * `compare` is a total order (no two items compare equal); the engine's comparators end on the
 * record's unique rank, so they are.
 */
export function topK<T>(items: readonly T[], k: number, compare: (a: T, b: T) => number): T[] {
  if (k <= 0) return []
  if (k >= items.length) return [...items].sort(compare)
  const heap: T[] = []
  const siftDown = (from: number) => {
    let i = from
    const item = heap[i]!
    for (;;) {
      const left = 2 * i + 1
      if (left >= heap.length) break
      const right = left + 1
      const worse = right < heap.length && compare(heap[right]!, heap[left]!) > 0 ? right : left
      if (compare(heap[worse]!, item) <= 0) break
      heap[i] = heap[worse]!
      i = worse
    }
    heap[i] = item
  }
  for (const item of items) {
    if (heap.length < k) {
      // Sift up: the worst kept item stays at the root.
      let i = heap.length
      heap.push(item)
      while (i > 0) {
        const parent = (i - 1) >> 1
        if (compare(heap[parent]!, item) >= 0) break
        heap[i] = heap[parent]!
        i = parent
      }
      heap[i] = item
    } else if (compare(item, heap[0]!) < 0) {
      heap[0] = item
      siftDown(0)
    }
  }
  return heap.sort(compare)
}
