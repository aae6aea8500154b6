/**
 * A video by id (YouTube or Vimeo), click-to-load: nothing is requested from the video host
 * until the visitor presses play; then the player loads in an iframe and starts.
 */
import { useState } from 'react'
import type { PresentedBlok } from '../../../shared/content.ts'
import { str } from './fields.ts'

export function videoEmbedUrl(provider: string, id: string): string | null {
  if (provider === 'vimeo')
    return /^\d{1,15}$/.test(id) ? `https://player.vimeo.com/video/${id}?autoplay=1&dnt=1` : null
  return /^[A-Za-z0-9_-]{6,20}$/.test(id)
    ? `https://www.youtube-nocookie.com/embed/${id}?autoplay=1&rel=0`
    : null
}

export function VideoBlock({ blok }: { blok: PresentedBlok }) {
  const [playing, setPlaying] = useState(false)
  const title = str(blok.title, 'Video')
  const src = videoEmbedUrl(str(blok.provider, 'youtube'), str(blok.video_id))
  if (!src) return null
  return (
    <figure
      className="aspect-video w-full max-w-3xl overflow-hidden rounded-md bg-gray-900"
      data-testid="video"
    >
      {playing ? (
        <iframe
          src={src}
          title={title}
          className="h-full w-full"
          allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
        />
      ) : (
        <button
          type="button"
          className="flex h-full w-full flex-col items-center justify-center gap-3 text-white"
          onClick={() => setPlaying(true)}
        >
          <span
            aria-hidden="true"
            className="flex h-16 w-16 items-center justify-center rounded-full bg-white/90 text-3xl text-gray-900"
          >
            ▶
          </span>
          <span className="font-semibold">Play video: {title}</span>
          <span className="text-xs text-gray-200">
            Loads the player from {src.includes('vimeo') ? 'Vimeo' : 'YouTube'}
          </span>
        </button>
      )}
    </figure>
  )
}
