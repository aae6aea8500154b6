/** An image from content, resized through the image service (SVG and remote images unchanged). */
import { Link } from '@inertiajs/react'
import type { PresentedBlok } from '../../../shared/content.ts'
import { imageUrl } from '../../../shared/images.ts'
import { asset, num, str } from './fields.ts'

export function ContentImage({
  image,
  width,
  className,
  sizes = '(min-width: 1024px) 50vw, 100vw',
  eager = false,
}: {
  image: { filename: string; alt: string }
  width: number
  className?: string
  sizes?: string
  eager?: boolean
}) {
  const src = imageUrl(image.filename, { w: width, q: 70 })
  const srcSet =
    src === image.filename
      ? undefined
      : [Math.round(width / 2), width, width * 2]
          .filter((w) => w <= 2000)
          .map((w) => `${imageUrl(image.filename, { w, q: 70 })} ${w}w`)
          .join(', ')
  return (
    <img
      src={src}
      srcSet={srcSet}
      sizes={srcSet ? sizes : undefined}
      alt={image.alt}
      loading={eager ? 'eager' : 'lazy'}
      // An eager image is at the top of its page (the slider's first slide): fetched first.
      fetchPriority={eager ? 'high' : undefined}
      decoding="async"
      className={className}
    />
  )
}

export function ImageBlock({ blok }: { blok: PresentedBlok }) {
  const image = asset(blok.image)
  if (!image) return null
  const link = str(blok.link)
  const caption = str(blok.caption)
  const picture = (
    <ContentImage image={image} width={num(blok.width, 800)} className="h-auto w-full rounded-md" />
  )
  const linked = link ? (
    link.startsWith('/') ? (
      <Link href={link}>{picture}</Link>
    ) : (
      <a href={link}>{picture}</a>
    )
  ) : (
    picture
  )
  return (
    <figure>
      {linked}
      {caption ? <figcaption className="mt-2 text-sm text-gray-600">{caption}</figcaption> : null}
    </figure>
  )
}
