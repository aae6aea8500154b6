import { highlightParts, titleCase, type HighlightResult } from '../../../shared/search.ts'

/** A highlighted attribute: matched words in <mark>, in title case (spec §9); no HTML is interpreted. */
export function Highlight({ result, fallback }: { result: HighlightResult | undefined; fallback: string }) {
  const parts = result ? highlightParts(result.value) : [{ text: fallback, highlighted: false }]
  return (
    <>
      {parts.map((part, i) =>
        part.highlighted ? (
          <mark key={i} className="bg-transparent font-bold text-inherit">
            {titleCase(part.text)}
          </mark>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  )
}
