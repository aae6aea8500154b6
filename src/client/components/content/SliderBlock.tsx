/**
 * Slider (Embla Carousel): slides per view for mobile, tablet (768 px) and desktop (1024 px),
 * optional wrap-around and autoplay, swipe with a finger or mouse, arrow keys when focused, and
 * previous/next buttons.
 *
 * Embla (about 8 KB compressed) is loaded when a slider is on the page, not with every page that
 * can show content blocks (issue 18's first-load budget): the server-rendered slides are laid out
 * by CSS alone, and Embla attaches to the same elements once loaded, so nothing moves.
 */
import { Link } from '@inertiajs/react'
import type { EmblaCarouselType, EmblaOptionsType } from 'embla-carousel'
import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
} from 'react'
import type { PresentedBlok } from '../../../shared/content.ts'
import { asset, list, num, str } from './fields.ts'
import { ContentImage } from './ImageBlock.tsx'

export const SLIDER_AUTOPLAY_MS = 8000

const clampSlides = (v: unknown, fallback: number) => Math.min(6, Math.max(1, Math.floor(num(v, fallback))))

/** Embla on the viewport element, imported on first use; undefined until it is ready. */
function useLazyEmbla(options: EmblaOptionsType, autoplay: boolean) {
  const [viewport, setViewport] = useState<HTMLElement | null>(null)
  const [api, setApi] = useState<EmblaCarouselType>()
  const { loop, align, slidesToScroll } = options
  useEffect(() => {
    if (!viewport) return
    let instance: EmblaCarouselType | undefined
    let cancelled = false
    void Promise.all([
      import('embla-carousel'),
      autoplay ? import('embla-carousel-autoplay') : Promise.resolve(null),
    ]).then(([{ default: EmblaCarousel }, autoplayModule]) => {
      if (cancelled) return
      const plugins = autoplayModule
        ? [autoplayModule.default({ delay: SLIDER_AUTOPLAY_MS, stopOnInteraction: true })]
        : []
      instance = EmblaCarousel(viewport, { loop, align, slidesToScroll }, plugins)
      setApi(instance)
    })
    return () => {
      cancelled = true
      instance?.destroy()
      setApi(undefined)
    }
  }, [viewport, autoplay, loop, align, slidesToScroll])
  return [setViewport, api] as const
}

export function SliderBlock({ blok }: { blok: PresentedBlok }) {
  const id = useId()
  const slides = list(blok.slides)
  const perView = {
    '--slides-m': clampSlides(blok.mobileNumOfSlides, 1),
    '--slides-t': clampSlides(blok.tabletNumOfSlides, 2),
    '--slides-d': clampSlides(blok.desktopNumOfSlides, 3),
  } as CSSProperties
  const [viewportRef, api] = useLazyEmbla(
    { loop: blok.wrapAround === true, align: 'start', slidesToScroll: 1 },
    blok.autoPlay === true,
  )
  const [selected, setSelected] = useState(0)
  const [canPrev, setCanPrev] = useState(blok.wrapAround === true)
  const [canNext, setCanNext] = useState(slides.length > 1)

  const sync = useCallback(() => {
    if (!api) return
    setSelected(api.selectedScrollSnap())
    setCanPrev(api.canScrollPrev())
    setCanNext(api.canScrollNext())
  }, [api])

  // A press before Embla has loaded is kept and done as soon as it is ready.
  const pending = useRef<'prev' | 'next' | null>(null)
  const move = (direction: 'prev' | 'next') => {
    if (!api) pending.current = direction
    else if (direction === 'prev') api.scrollPrev()
    else api.scrollNext()
  }
  useEffect(() => {
    if (!api || !pending.current) return
    if (pending.current === 'prev') api.scrollPrev()
    else api.scrollNext()
    pending.current = null
  }, [api])

  useEffect(() => {
    if (!api) return
    const frame = requestAnimationFrame(sync)
    api.on('select', sync).on('reInit', sync)
    return () => {
      cancelAnimationFrame(frame)
      api.off('select', sync).off('reInit', sync)
    }
  }, [api, sync])

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowLeft') {
      e.preventDefault()
      move('prev')
    } else if (e.key === 'ArrowRight') {
      e.preventDefault()
      move('next')
    }
  }

  if (slides.length === 0) return null
  const title = str(blok.title)
  return (
    <section
      aria-roledescription="carousel"
      aria-label={title || 'Featured'}
      className="relative"
      style={perView}
      data-testid="slider"
      data-selected={selected}
    >
      <div
        ref={viewportRef}
        className="overflow-hidden rounded-md focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
        tabIndex={0}
        role="region"
        aria-label={`${title || 'Featured'} slides, use the arrow keys to move`}
        onKeyDown={onKeyDown}
      >
        <div className="flex touch-pan-y" id={`${id}-track`}>
          {slides.map((slide, i) => {
            const image = asset(slide.image)
            const link = str(slide.link)
            const inner = (
              <>
                {image ? (
                  <ContentImage
                    image={image}
                    width={600}
                    eager={i === 0}
                    sizes="(min-width: 1024px) 33vw, (min-width: 768px) 50vw, 100vw"
                    className="aspect-[2/1] w-full rounded-md object-cover"
                  />
                ) : null}
                {str(slide.title) ? <p className="mt-2 text-lg font-semibold">{str(slide.title)}</p> : null}
                {str(slide.text) ? <p className="text-sm text-gray-700">{str(slide.text)}</p> : null}
              </>
            )
            return (
              <div
                key={slide._uid ?? i}
                role="group"
                aria-roledescription="slide"
                aria-label={`${i + 1} of ${slides.length}`}
                className="min-w-0 shrink-0 grow-0 basis-[calc(100%/var(--slides-m))] px-2 md:basis-[calc(100%/var(--slides-t))] lg:basis-[calc(100%/var(--slides-d))]"
              >
                {link ? (
                  link.startsWith('/') ? (
                    <Link href={link} className="block">
                      {inner}
                    </Link>
                  ) : (
                    <a href={link} className="block">
                      {inner}
                    </a>
                  )
                ) : (
                  inner
                )}
              </div>
            )
          })}
        </div>
      </div>
      <div className="mt-3 flex items-center justify-end gap-2">
        <button
          type="button"
          className="rounded-full border border-gray-300 px-3 py-1 disabled:opacity-40"
          aria-controls={`${id}-track`}
          aria-label="Previous slide"
          disabled={!canPrev}
          onClick={() => move('prev')}
        >
          ‹
        </button>
        <button
          type="button"
          className="rounded-full border border-gray-300 px-3 py-1 disabled:opacity-40"
          aria-controls={`${id}-track`}
          aria-label="Next slide"
          disabled={!canNext}
          onClick={() => move('next')}
        >
          ›
        </button>
      </div>
    </section>
  )
}
