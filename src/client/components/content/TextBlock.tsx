/**
 * Text with read-more: when the server sent a preview (show_more on and the text well over its
 * limit), the preview shows first and 'Read more' reveals the whole text.
 */
import { useId, useState } from 'react'
import type { PresentedBlok } from '../../../shared/content.ts'
import { Html } from './Html.tsx'

export function TextBlock({ blok }: { blok: PresentedBlok }) {
  const id = useId()
  const [expanded, setExpanded] = useState(false)
  const preview = typeof blok.preview === 'string' && blok.preview ? blok.preview : null
  const indent = blok.indent_content === true ? 'pl-4 md:pl-8' : ''
  if (!preview) return <Html html={blok.text} className={indent} />
  return (
    <div className={indent} data-testid="read-more">
      <div id={id}>
        <Html html={expanded ? blok.text : preview} />
      </div>
      <button
        type="button"
        className="mt-2 font-semibold text-primary underline underline-offset-2"
        aria-expanded={expanded}
        aria-controls={id}
        onClick={() => setExpanded((v) => !v)}
      >
        {expanded ? 'Read less' : 'Read more'}
      </button>
    </div>
  )
}
