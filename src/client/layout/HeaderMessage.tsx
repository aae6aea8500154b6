/**
 * The message banner above the header. Open by default at 768 px and wider, closed below; the
 * visitor's open/closed choice is remembered in sessionStorage for the browser session.
 * The server cannot know the viewport, so SSR (and the hydrating render) leave the choice to CSS
 * (open from md up); the real state applies right after hydration.
 */
import { HtmlContent } from '../components/SafeHtml.tsx'
import { useId, useState } from 'react'
import type { HeaderMessage as HeaderMessageProps } from '../../shared/page-props.ts'
import { WIDE_QUERY, useMediaQuery } from '../lib/media.ts'
import { useSessionFlag } from '../lib/session-flag.ts'
import { ChevronDownIcon } from './icons.tsx'

export const HEADER_MESSAGE_STORAGE_KEY = 'headerMessageOpen'

export function HeaderMessage({ message }: { message: HeaderMessageProps }) {
  const id = useId()
  const isWide = useMediaQuery(WIDE_QUERY)
  const [stored, setStored] = useSessionFlag(HEADER_MESSAGE_STORAGE_KEY)
  const [moreShown, setMoreShown] = useState(false)

  // null = not known yet (server / hydrating render): CSS decides by viewport.
  const open: boolean | null = stored === undefined ? null : (stored ?? isWide)
  const bodyId = `${id}-body`
  const moreId = `${id}-more`
  const visibility = open === null ? 'hidden md:block' : open ? 'block' : 'hidden'

  return (
    <aside aria-label="Announcement" className={message.christmas_message ? 'msg-xmas' : 'msg'}>
      <div className="msg-in">
        <button
          type="button"
          className="msg-btn"
          aria-expanded={open ?? undefined}
          aria-controls={bodyId}
          onClick={() => setStored(!(open ?? isWide))}
        >
          <span>{message.title}</span>
          <ChevronDownIcon className={open ? 'msg-chev rotate-180' : 'msg-chev'} />
        </button>
        <div id={bodyId} className={`${visibility} msg-body`}>
          <HtmlContent html={message.text} keepEmpty />
          {message.show_more_text ? (
            <>
              <HtmlContent
                id={moreId}
                hidden={!moreShown}
                className="pt-1"
                html={message.show_more_text}
                keepEmpty
              />
              <button
                type="button"
                className="msg-more"
                aria-expanded={moreShown}
                aria-controls={moreId}
                onClick={() => setMoreShown((v) => !v)}
              >
                {moreShown ? 'Show less' : 'Show more'}
              </button>
            </>
          ) : null}
        </div>
      </div>
    </aside>
  )
}
