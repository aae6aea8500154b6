/** Image map index: category and product images, each linking to its detail page (spec §2). */
import { Head, Link } from '@inertiajs/react'
import { imageUrl } from '../../../shared/images.ts'
import type { ImagemapEntry, ImagemapIndexProps } from '../../../shared/listing.ts'
import { pageTitle } from '../../../shared/titles.ts'
import { Pagination } from '../../components/catalog/Pagination.tsx'
import { useSiteName } from '../../lib/shared-props.ts'

export type { ImagemapIndexProps }

function EntryList({ entries, label }: { entries: ImagemapEntry[]; label: string }) {
  return (
    <ul
      aria-label={label}
      className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-6"
    >
      {entries.map((e) => (
        <li key={`${e.kind}-${e.id}`}>
          <Link
            href={e.href}
            className="flex h-full flex-col gap-2 rounded-md border border-gray-200 bg-white p-2 text-sm hover:border-primary"
          >
            <img
              src={imageUrl(e.image.file_location, { w: 200, h: 200, q: 50, fit: 'contain' })}
              alt={e.image.alt}
              width={200}
              height={200}
              loading="lazy"
              className="aspect-square w-full object-contain"
            />
            <span className="font-medium text-gray-900">{e.name}</span>
          </Link>
        </li>
      ))}
    </ul>
  )
}

export default function ImagemapIndex({ categories = [], products = [], pagination }: ImagemapIndexProps) {
  const siteName = useSiteName()
  const heading = pageTitle({ page: 'imagemapIndex' })
  return (
    <>
      <Head title={pageTitle({ page: 'imagemapIndex' }, siteName)} />
      <h1 className="text-3xl font-bold tracking-tight">{heading}</h1>
      {categories.length > 0 ? (
        <section aria-labelledby="imagemap-categories" className="mt-8">
          <h2 id="imagemap-categories" className="text-xl font-semibold">
            Category images
          </h2>
          <EntryList entries={categories} label="Category images" />
        </section>
      ) : null}
      <section aria-labelledby="imagemap-products" className="mt-8">
        <h2 id="imagemap-products" className="text-xl font-semibold">
          Product images
        </h2>
        {products.length > 0 ? (
          <EntryList entries={products} label="Product images" />
        ) : (
          <p className="mt-4 text-gray-700">No product images yet.</p>
        )}
      </section>
      <Pagination pagination={pagination} className="mt-8" />
    </>
  )
}
