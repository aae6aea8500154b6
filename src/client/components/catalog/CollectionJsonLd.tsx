/**
 * schema.org CollectionPage with an ItemList of the listed products, in the page head. The
 * BreadcrumbList comes from <Breadcrumbs>. Serialised with `<` escaped so it cannot end the script.
 */
import { Head } from '@inertiajs/react'
import { serializeJsonLd } from '../../../shared/breadcrumbs.ts'
import type { ProductTileData } from '../../../shared/listing.ts'
import { useShared } from '../../lib/shared-props.ts'
import { tileDisplay } from './ProductTile.tsx'

function absolute(url: string, base: string): string {
  try {
    return new URL(url, base).href
  } catch {
    return url
  }
}

export function collectionJsonLd(options: {
  name: string
  url: string
  description: string
  products: readonly ProductTileData[]
  baseUrl: string
  /** Position of the first product (later pages of a listing) */
  firstPosition?: number
}) {
  const first = options.firstPosition ?? 1
  return {
    '@context': 'https://schema.org',
    '@type': 'CollectionPage',
    name: options.name,
    url: options.url,
    ...(options.description ? { description: options.description } : {}),
    mainEntity: {
      '@type': 'ItemList',
      numberOfItems: options.products.length,
      itemListElement: options.products.map((p, i) => {
        const shown = tileDisplay(p)
        return {
          '@type': 'ListItem',
          position: first + i,
          name: shown.name,
          url: absolute(shown.href, options.baseUrl),
        }
      }),
    },
  }
}

export function CollectionJsonLd(props: {
  name: string
  url: string
  description: string
  products: readonly ProductTileData[]
  firstPosition?: number
}) {
  const { site } = useShared()
  const json = serializeJsonLd(collectionJsonLd({ ...props, baseUrl: site?.baseUrl ?? props.url }))
  return (
    <Head>
      <script type="application/ld+json" head-key="collection-page">
        {json}
      </script>
    </Head>
  )
}
