/** Image map detail: a product's image with links to the product page and to all its images. */
import { Head, Link } from '@inertiajs/react'
import { imageUrl } from '../../../shared/images.ts'
import type { ImagemapShowProps } from '../../../shared/listing.ts'
import { pageTitle } from '../../../shared/titles.ts'
import { useSiteName } from '../../lib/shared-props.ts'

export type { ImagemapShowProps }

export default function ImagemapShow({ product, image, images = [] }: ImagemapShowProps) {
  const siteName = useSiteName()
  return (
    <>
      <Head title={pageTitle({ page: 'imagemapShow', name: product.name }, siteName)} />
      <p className="text-sm">
        <Link href="/imagemap" className="text-primary underline-offset-2 hover:underline">
          All image maps
        </Link>
      </p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight">{product.name}</h1>
      <figure className="mt-6 max-w-2xl">
        <img
          src={imageUrl(image.file_location, { w: 800, q: 80, fit: 'inside' })}
          alt={image.alt}
          className="h-auto w-full rounded-md border border-gray-200 bg-white object-contain"
        />
      </figure>
      <p className="mt-6">
        <Link
          href={product.url}
          className="inline-flex min-h-10 items-center rounded-md bg-primary px-4 font-medium text-on-primary"
        >
          View product details
        </Link>
      </p>
      {images.length > 0 ? (
        <section aria-labelledby="imagemap-all-images" className="mt-8">
          <h2 id="imagemap-all-images" className="text-xl font-semibold">
            All product images
          </h2>
          <ul className="mt-3 list-disc pl-6">
            {images.map((img, i) => (
              <li key={`${img.file_location}-${i}`}>
                <a href={img.file_location} className="text-primary underline underline-offset-2">
                  {img.alt} (image {i + 1} of {images.length})
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  )
}
