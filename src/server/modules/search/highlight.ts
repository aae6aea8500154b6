/** Highlighting of the query's words in a hit's attribute (Algolia's `_highlightResult`). */
import type { HighlightResult } from '../../../shared/search.ts'
import type { TermMatch } from './engine.types.ts'
import { tokenize } from './text.ts'

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
