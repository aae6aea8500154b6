/**
 * Image maps (spec §2 "Other pages"): `GET /imagemap` lists category and product images (products
 * paged, categories on the first page) linking to detail pages; `GET /imagemap/:id` shows a
 * product group's image with links to the product page and to every image of the product.
 */
import type { FastifyInstance } from 'fastify'
import type {
  ImagemapEntry,
  ImagemapImage,
  ImagemapIndexProps,
  ImagemapShowProps,
} from '../../../shared/listing.ts'
import { clampPage, pageOffset, paginationMeta, parsePage } from '../../../shared/pagination.ts'
import type { CatalogMedia } from '../../../shared/catalog.ts'
import {
  countImagemapProducts,
  findImagemapCategories,
  findImagemapProduct,
  findImagemapProducts,
} from './imagemap.queries.ts'
import { imagesOf, plainText } from './category.presenter.ts'

/** Product images per index page. */
export const IMAGEMAP_PAGE_SIZE = 48
/** Category images on the first index page, at most. */
const CATEGORY_LIMIT = 500

function image(media: CatalogMedia, fallbackAlt: string): ImagemapImage {
  return { file_location: media.file_location, alt: plainText(media.alt) || fallbackAlt }
}

function entry(
  kind: ImagemapEntry['kind'],
  row: { id: number; name: string; media: CatalogMedia[] },
  href: string,
): ImagemapEntry | null {
  const first = imagesOf(row.media)[0]
  const name = plainText(row.name) || 'Name Not Found'
  return first ? { kind, id: row.id, name, href, image: image(first, name) } : null
}

export async function imagemapRoutes(app: FastifyInstance) {
  app.get('/imagemap', async (request, reply) => {
    const site = request.site
    if (!site) return reply.callNotFound()
    const { db } = app
    const total = await countImagemapProducts(db, site.id)
    const query = (request.query ?? {}) as Record<string, unknown>
    const page = clampPage(parsePage(query.page), total, IMAGEMAP_PAGE_SIZE)
    const productRows = await findImagemapProducts(
      db,
      site.id,
      IMAGEMAP_PAGE_SIZE,
      pageOffset(page, IMAGEMAP_PAGE_SIZE),
    )
    const categoryRows = page === 1 ? await findImagemapCategories(db, site.id, CATEGORY_LIMIT) : []

    const props: ImagemapIndexProps = {
      categories: categoryRows.flatMap((r) => entry('category', r, r.url) ?? []),
      products: productRows.flatMap((r) => entry('product', r, `/imagemap/${r.id}`) ?? []),
      pagination: paginationMeta(page, total, IMAGEMAP_PAGE_SIZE),
    }
    return reply.inertia.render('Imagemap/Index', { ...props })
  })

  app.get('/imagemap/:id', async (request, reply) => {
    const site = request.site
    const raw = (request.params as { id: string }).id
    if (!site || !/^[1-9]\d{0,8}$/.test(raw)) return reply.callNotFound()
    const row = await findImagemapProduct(app.db, site.id, Number(raw))
    if (!row) return reply.callNotFound()
    const name = plainText(row.name) || 'Name Not Found'
    const images = imagesOf(row.media).map((m) => image(m, name))
    const props: ImagemapShowProps = {
      product: { id: row.id, name, url: row.url || '/' },
      image: images[0] ?? { file_location: '', alt: name },
      images,
    }
    return reply.inertia.render('Imagemap/Show', { ...props })
  })
}
