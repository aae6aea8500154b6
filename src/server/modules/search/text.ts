/**
 * Text handling of the embedded search engine: normalisation, tokenising with positions, the
 * typo allowance (spec: 1 typo from 4 letters, 2 from 8) and a bounded Damerau-Levenshtein
 * distance in which a swap of two neighbouring letters counts as one typo, as Algolia counts it.
 */

/** Query words of at least this many letters may have 1 typo (Algolia `minWordSizefor1Typo`). */
export const MIN_WORD_SIZE_FOR_1_TYPO = 4
/** ... and 2 typos from this many (Algolia `minWordSizefor2Typos`). */
export const MIN_WORD_SIZE_FOR_2_TYPOS = 8

/** Lower case, accents removed (é → e), so 'Café' and 'cafe' are the same word. */
export function normalise(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
}

export interface Token {
  /** Normalised word */
  word: string
  /** Position of the word in its text (0-based word count) */
  position: number
  /** Character offsets of the word in the original text */
  start: number
  end: number
}

const WORD = /[\p{L}\p{N}]+/gu

/**
 * Words of a text with their offsets in the original string. Normalising can change the length
 * of a character (ﬁ → fi), so offsets come from the original and the word from its normal form.
 */
export function tokenize(text: string): Token[] {
  const out: Token[] = []
  let position = 0
  for (const m of text.matchAll(WORD)) {
    const word = normalise(m[0])
    if (!word) continue
    out.push({ word, position: position++, start: m.index, end: m.index + m[0].length })
  }
  return out
}

/** Normalised words of a query, at most `max` of them. */
export function queryWords(query: string, max = 10): string[] {
  return tokenize(query)
    .map((t) => t.word)
    .slice(0, max)
}

/** How many typos a query word of this length may have. Words with digits (codes, sizes) get none. */
export function allowedTypos(word: string): number {
  if (/\d/.test(word)) return 0
  const length = [...word].length
  if (length >= MIN_WORD_SIZE_FOR_2_TYPOS) return 2
  if (length >= MIN_WORD_SIZE_FOR_1_TYPO) return 1
  return 0
}

/**
 * Optimal-string-alignment distance (Damerau-Levenshtein where a swap of neighbours is one edit),
 * or `max + 1` as soon as the distance must exceed `max`.
 */
export function typoDistance(a: string, b: string, max: number): number {
  if (a === b) return 0
  const n = a.length
  const m = b.length
  if (Math.abs(n - m) > max) return max + 1
  if (n === 0) return m
  if (m === 0) return n
  let prevPrev = new Array<number>(m + 1).fill(0)
  let prev = new Array<number>(m + 1)
  let curr = new Array<number>(m + 1)
  for (let j = 0; j <= m; j++) prev[j] = j
  for (let i = 1; i <= n; i++) {
    curr[0] = i
    let rowMin = i
    const ai = a.charCodeAt(i - 1)
    for (let j = 1; j <= m; j++) {
      const bj = b.charCodeAt(j - 1)
      const cost = ai === bj ? 0 : 1
      let v = Math.min(prev[j]! + 1, curr[j - 1]! + 1, prev[j - 1]! + cost)
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) {
        v = Math.min(v, prevPrev[j - 2]! + 1)
      }
      curr[j] = v
      if (v < rowMin) rowMin = v
    }
    if (rowMin > max) return max + 1
    const t = prevPrev
    prevPrev = prev
    prev = curr
    curr = t
  }
  return Math.min(prev[m]!, max + 1)
}

/**
 * Distance between a query word typed so far and the best-matching beginning of a dictionary
 * word (for the last query word, which is still being typed), or `max + 1`.
 */
export function prefixTypoDistance(typed: string, term: string, max: number): number {
  let best = max + 1
  const from = Math.max(1, typed.length - max)
  const to = Math.min(term.length, typed.length + max)
  for (let len = from; len <= to; len++) {
    const d = typoDistance(typed, term.slice(0, len), max)
    if (d < best) best = d
    if (best === 0) break
  }
  return best
}
