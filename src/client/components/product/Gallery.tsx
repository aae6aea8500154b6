/**
 * The product image slider (spec §2, §4 "Gallery", §8, §9): one slide at a time in a box of
 * mediaHW px (default 260), thumbnails of at most 80 px with three in view and arrows to move
 * them, video slides with a play-icon thumbnail, and the zoom dialog.
 *
 * The server renders the first slide only (its box has the slide's size, so nothing moves); the
 * other slides mount in the browser (ADR 0110: a gallery of six was some 3 KB of every first
 * load's HTML). Loading: the slider waits until every image and video has loaded, or 3 s, then
 * rebuilds (`data-state="ready"`); autoplay starts 1 s later and moves on every 8 s. It pauses
 * while the tab is hidden, the zoom is open, a video plays, the pointer or focus is on the
 * slider, or the visitor pressed pause. Without media the gallery is not shown; media that is not
 * a list is logged as an error.
 */
import { useCallback, useEffect, useReducer, useRef, useState, useSyncExternalStore } from 'react'
import { PLACEHOLDER_IMAGE } from '../../../shared/images.ts'
import { useHydrated } from '../../lib/media.ts'
import { galleryImageUrl, type GalleryItem } from '../../../shared/product.ts'
import { ZoomModal } from './ZoomModal.tsx'

export const GALLERY_LOAD_TIMEOUT_MS = 3000
export const AUTOPLAY_START_DELAY_MS = 1000
export const AUTOPLAY_INTERVAL_MS = 8000
export const VISIBLE_THUMBNAILS = 3
export const THUMBNAIL_MAX_PX = 80
export const DEFAULT_MEDIA_SIZE = 260
export const GALLERY_NOT_A_LIST = 'Product gallery: the slider images feature is not a list'

const slideKey = (item: GalleryItem) => (item.kind === 'image' ? item.file : item.src)
const thumbOf = (item: GalleryItem) => (item.kind === 'image' ? galleryImageUrl(item, 'thumb') : item.thumb)

interface SliderState {
  index: number
  /** First thumbnail in view */
  thumbStart: number
}

type SliderAction =
  { type: 'go'; index: number } | { type: 'step'; by: number } | { type: 'thumbs'; by: number }

/** Keeps the current slide's thumbnail in view. */
function withThumbInView(index: number, thumbStart: number, count: number): number {
  const maxStart = Math.max(0, count - VISIBLE_THUMBNAILS)
  let start = Math.min(Math.max(thumbStart, 0), maxStart)
  if (index < start) start = index
  if (index >= start + VISIBLE_THUMBNAILS) start = index - VISIBLE_THUMBNAILS + 1
  return Math.min(Math.max(start, 0), maxStart)
}

export function sliderReducer(count: number) {
  return (state: SliderState, action: SliderAction): SliderState => {
    if (count === 0) return state
    if (action.type === 'thumbs') {
      const maxStart = Math.max(0, count - VISIBLE_THUMBNAILS)
      return { ...state, thumbStart: Math.min(Math.max(state.thumbStart + action.by, 0), maxStart) }
    }
    const target = action.type === 'go' ? action.index : state.index + action.by
    const index = ((target % count) + count) % count
    return { index, thumbStart: withThumbInView(index, state.thumbStart, count) }
  }
}

function subscribeVisibility(notify: () => void) {
  document.addEventListener('visibilitychange', notify)
  return () => document.removeEventListener('visibilitychange', notify)
}

function usePageHidden(): boolean {
  return useSyncExternalStore(
    subscribeVisibility,
    () => document.hidden,
    () => false,
  )
}

/** A decorative image that falls back to the placeholder when its file is missing. */
function SafeImage({
  src,
  size,
  className,
  priority = false,
}: {
  src: string
  size: number
  className: string
  /** The first slide: the product page's largest paint on a phone, fetched first */
  priority?: boolean
}) {
  const [failed, setFailed] = useState(false)
  return (
    <img
      src={failed ? PLACEHOLDER_IMAGE : src}
      alt=""
      width={size}
      height={size}
      fetchPriority={priority ? 'high' : undefined}
      decoding={priority ? undefined : 'async'}
      className={className}
      onError={() => setFailed(true)}
    />
  )
}

export function Gallery({
  items,
  size = DEFAULT_MEDIA_SIZE,
}: {
  items: GalleryItem[] | null
  size?: number
}) {
  const isList = Array.isArray(items)
  useEffect(() => {
    if (!isList) console.error(GALLERY_NOT_A_LIST)
  }, [isList])
  if (!isList || items.length === 0) return null
  return <Slider items={items} size={size} />
}

function Slider({ items, size }: { items: GalleryItem[]; size: number }) {
  const count = items.length
  const [{ index, thumbStart }, dispatch] = useReducer(sliderReducer(count), { index: 0, thumbStart: 0 })
  const [ready, setReady] = useState(false)
  const [autoplay, setAutoplay] = useState(false)
  const [userPaused, setUserPaused] = useState(false)
  const [hovered, setHovered] = useState(false)
  const [focused, setFocused] = useState(false)
  const [videoPlaying, setVideoPlaying] = useState(false)
  const [zoomOpen, setZoomOpen] = useState(false)
  const pageHidden = usePageHidden()
  const trackRef = useRef<HTMLDivElement>(null)
  const zoomTrigger = useRef<HTMLButtonElement | null>(null)
  // False in the server's HTML and in hydration (the first slide only), then every slide.
  const mounted = useHydrated()

  // Loading: every image and video loaded, or the time-out, whichever comes first.
  useEffect(() => {
    const track = trackRef.current
    if (!track || !mounted) return
    const media = [...track.querySelectorAll<HTMLImageElement | HTMLVideoElement>('img, video')]
    let remaining = media.length
    let settled = false
    const settle = () => {
      if (settled) return
      settled = true
      setReady(true)
    }
    const timer = window.setTimeout(settle, GALLERY_LOAD_TIMEOUT_MS)
    const offs: (() => void)[] = []
    const loadedOne = () => {
      remaining -= 1
      if (remaining <= 0) settle()
    }
    for (const el of media) {
      const done = el instanceof HTMLImageElement ? el.complete : el.readyState >= 1
      if (done) {
        remaining -= 1
        continue
      }
      const event = el instanceof HTMLImageElement ? 'load' : 'loadedmetadata'
      el.addEventListener(event, loadedOne, { once: true })
      el.addEventListener('error', loadedOne, { once: true })
      offs.push(() => {
        el.removeEventListener(event, loadedOne)
        el.removeEventListener('error', loadedOne)
      })
    }
    // Already complete (cached, or loaded before hydration): settle on the next tick.
    const immediate = remaining <= 0 ? window.setTimeout(settle, 0) : undefined
    return () => {
      window.clearTimeout(timer)
      if (immediate !== undefined) window.clearTimeout(immediate)
      offs.forEach((off) => off())
    }
  }, [mounted])

  // Autoplay starts a second after the slider is ready.
  useEffect(() => {
    if (!ready || count < 2) return
    const timer = window.setTimeout(() => setAutoplay(true), AUTOPLAY_START_DELAY_MS)
    return () => window.clearTimeout(timer)
  }, [ready, count])

  const paused = userPaused || zoomOpen || pageHidden || hovered || focused || videoPlaying
  const playing = autoplay && !paused

  useEffect(() => {
    if (!playing) return
    const timer = window.setInterval(() => dispatch({ type: 'step', by: 1 }), AUTOPLAY_INTERVAL_MS)
    return () => window.clearInterval(timer)
  }, [playing])

  // A video that scrolls out of view stops.
  useEffect(() => {
    trackRef.current?.querySelectorAll('video').forEach((video) => {
      if (Number(video.dataset.slide) !== index && !video.paused) video.pause()
    })
  }, [index])

  const closeZoom = useCallback(() => {
    setZoomOpen(false)
    zoomTrigger.current?.focus()
  }, [])

  const current = items[index] ?? items[0]!
  const visibleThumbs = items.slice(thumbStart, thumbStart + VISIBLE_THUMBNAILS)
  const thumbArrows = count > VISIBLE_THUMBNAILS
  // Three thumbnails, their gaps and (with more than three) two 32 px arrows fit the image's width.
  const thumbRoom = size - 8 * (VISIBLE_THUMBNAILS - 1) - (thumbArrows ? 2 * 32 + 8 : 0)
  const thumbSize = Math.max(32, Math.min(THUMBNAIL_MAX_PX, Math.floor(thumbRoom / VISIBLE_THUMBNAILS)))

  return (
    <section
      aria-roledescription="carousel"
      aria-label="Product images"
      data-testid="product-gallery"
      data-state={ready ? 'ready' : 'loading'}
      data-autoplay={playing ? 'on' : 'off'}
      aria-busy={!ready || undefined}
      className="w-fit max-w-full"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false)
      }}
    >
      <div
        ref={trackRef}
        className="gal-track"
        style={{ width: size, height: size, maxWidth: '100%' }}
        aria-live={playing ? 'off' : 'polite'}
      >
        {(mounted ? items : items.slice(0, 1)).map((item, i) => (
          <div
            key={`${slideKey(item)}-${i}`}
            role="group"
            aria-roledescription="slide"
            aria-label={`${i + 1} of ${count}`}
            hidden={i !== index}
            className="gal-slide"
          >
            {item.kind === 'image' ? (
              <button
                type="button"
                className="gal-zoom"
                aria-haspopup="dialog"
                aria-label={`Enlarge image ${i + 1}: ${item.alt}`}
                onClick={(e) => {
                  zoomTrigger.current = e.currentTarget
                  setZoomOpen(true)
                }}
              >
                <SafeImage
                  src={galleryImageUrl(item, 'slide')}
                  size={size}
                  className="gal-fill"
                  priority={i === 0}
                />
              </button>
            ) : item.src ? (
              <video
                src={item.src}
                poster={item.poster ?? undefined}
                data-slide={i}
                controls
                preload="metadata"
                aria-label={item.alt}
                className="h-full w-full bg-black object-contain"
                onPlay={() => setVideoPlaying(true)}
                onPause={() => setVideoPlaying(false)}
                onEnded={() => setVideoPlaying(false)}
              />
            ) : (
              <div className="relative h-full w-full bg-gray-900">
                {item.poster ? <SafeImage src={item.poster} size={size} className="gal-fill" /> : null}
                {item.link ? (
                  <a
                    href={item.link}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`Play video: ${item.alt} (opens in a new tab)`}
                    className="absolute inset-0 flex items-center justify-center"
                  >
                    <span
                      aria-hidden="true"
                      className="flex h-16 w-16 items-center justify-center rounded-full bg-black/70 text-3xl text-white"
                    >
                      ▶
                    </span>
                  </a>
                ) : null}
              </div>
            )}
          </div>
        ))}
      </div>

      {count > 1 ? (
        <div className="gal-bar" style={{ width: size, maxWidth: '100%' }}>
          <button
            type="button"
            className="gal-arrow"
            aria-label="Previous image"
            onClick={() => dispatch({ type: 'step', by: -1 })}
          >
            <span aria-hidden="true">‹</span>
          </button>
          <span className="gal-count">
            {index + 1} / {count}
          </span>
          <button
            type="button"
            className="gal-play"
            onClick={() => {
              setUserPaused((p) => !p)
              setAutoplay(true)
            }}
          >
            {userPaused ? 'Play slideshow' : 'Pause slideshow'}
          </button>
          <button
            type="button"
            className="gal-arrow"
            aria-label="Next image"
            onClick={() => dispatch({ type: 'step', by: 1 })}
          >
            <span aria-hidden="true">›</span>
          </button>
        </div>
      ) : null}

      {count > 1 ? (
        <div
          className="gal-thumbs"
          style={{ width: size, maxWidth: '100%' }}
          data-testid="gallery-thumbnails"
        >
          {thumbArrows ? (
            <button
              type="button"
              className="gal-arrow"
              aria-label="Previous thumbnails"
              disabled={thumbStart === 0}
              onClick={() => dispatch({ type: 'thumbs', by: -1 })}
            >
              <span aria-hidden="true">‹</span>
            </button>
          ) : null}
          <ul className="gal-thumb-list">
            {visibleThumbs.map((item, j) => {
              const i = thumbStart + j
              const thumb = thumbOf(item)
              return (
                <li key={`${slideKey(item)}-${i}`}>
                  <button
                    type="button"
                    aria-label={item.kind === 'video' ? `Show video ${i + 1}` : `Show image ${i + 1}`}
                    aria-current={i === index || undefined}
                    onClick={() => dispatch({ type: 'go', index: i })}
                    className="gal-thumb"
                    // thumbSize is at most THUMBNAIL_MAX_PX already.
                    style={{ width: thumbSize, height: thumbSize }}
                  >
                    {thumb ? <SafeImage src={thumb} size={thumbSize} className="gal-fill" /> : null}
                    {item.kind === 'video' ? (
                      <span
                        aria-hidden="true"
                        data-testid="video-thumbnail"
                        className="absolute inset-0 flex items-center justify-center bg-black/60 text-2xl text-white"
                      >
                        ▶
                      </span>
                    ) : null}
                  </button>
                </li>
              )
            })}
          </ul>
          {thumbArrows ? (
            <button
              type="button"
              className="gal-arrow"
              aria-label="Next thumbnails"
              disabled={thumbStart >= count - VISIBLE_THUMBNAILS}
              onClick={() => dispatch({ type: 'thumbs', by: 1 })}
            >
              <span aria-hidden="true">›</span>
            </button>
          ) : null}
        </div>
      ) : null}

      <ZoomModal
        open={zoomOpen}
        item={current.kind === 'image' ? current : null}
        position={`Image ${index + 1} of ${count}`}
        onClose={closeZoom}
      />
    </section>
  )
}
