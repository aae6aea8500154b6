/** Image map pages: GET /imagemap (Imagemap/Index) and GET /imagemap/:id (Imagemap/Show). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CategoryRow, ProductGroupRow } from '../../src/server/modules/catalog/catalog.tables.ts'
import type { ImagemapEntry } from '../../src/shared/listing.ts'
import { buildTestApp, inertiaHeaders, type TestApp } from '../helpers/app.ts'
import { createCategory, createProductGroup, siteIdFor } from '../factories/catalog.ts'

let t: TestApp
let category: CategoryRow
let pictured: ProductGroupRow
let videoOnly: ProductGroupRow
let unpublished: ProductGroupRow
let usProduct: ProductGroupRow

const visit = (url: string, host = 'localhost') =>
  t.app.inject({ url, headers: { host, ...inertiaHeaders() } })

async function allIndexEntries(host = 'localhost') {
  const first = (await visit('/imagemap', host)).json()
  const products: ImagemapEntry[] = [...first.props.products]
  for (let p = 2; p <= first.props.pagination.total_pages; p++) {
    products.push(...(await visit(`/imagemap?page=${p}`, host)).json().props.products)
  }
  return { categories: first.props.categories as ImagemapEntry[], products, first }
}

beforeAll(async () => {
  t = await buildTestApp()
  const db = t.app.db
  const siteId = await siteIdFor(db)
  const usSiteId = await siteIdFor(db, '127.0.0.1')
  category = await createCategory(db, {
    siteId,
    name: 'Pictured Category',
    media: [{ file_location: '/media/test/pictured-category.png' }],
  })
  await createCategory(db, { siteId, name: 'Bare Category' })
  pictured = await createProductGroup(db, {
    siteId,
    categoryId: category.id,
    name: 'Pictured <b>Product</b>',
    media: [
      { file_location: 'https://video.example/clip.mp4', type: 'video' },
      { file_location: '/media/test/front.png', type: 'image', alt: 'Front view' },
      { file_location: '/media/test/back.svg' },
    ],
  })
  videoOnly = await createProductGroup(db, {
    siteId,
    categoryId: category.id,
    name: 'Video Only',
    media: [{ file_location: 'https://video.example/clip.mp4', type: 'video' }],
  })
  unpublished = await createProductGroup(db, { siteId, categoryId: category.id, published: false })
  const usCategory = await createCategory(db, { siteId: usSiteId, name: 'US Category' })
  usProduct = await createProductGroup(db, {
    siteId: usSiteId,
    categoryId: usCategory.id,
    name: 'US Product',
  })
})

afterAll(async () => {
  await t?.close()
})

describe('GET /imagemap', () => {
  it('lists category and product images with links to their detail pages', async () => {
    const { categories, products, first } = await allIndexEntries()
    expect(first.component).toBe('Imagemap/Index')
    expect(categories).toContainEqual({
      kind: 'category',
      id: category.id,
      name: 'Pictured Category',
      href: category.url,
      image: { file_location: '/media/test/pictured-category.png', alt: 'Pictured Category' },
    })
    expect(categories.map((c) => c.name)).not.toContain('Bare Category')
    expect(products).toContainEqual({
      kind: 'product',
      id: pictured.id,
      name: 'Pictured Product',
      href: `/imagemap/${pictured.id}`,
      image: { file_location: '/media/test/front.png', alt: 'Front view' },
    })
    const ids = products.map((p) => p.id)
    expect(ids).not.toContain(videoOnly.id)
    expect(ids).not.toContain(unpublished.id)
    expect(ids).not.toContain(usProduct.id)
  })

  it('pages the products and survives junk page numbers', async () => {
    for (const q of ['?page=abc', '?page=-1', '?page=999999', '?page[]=x']) {
      const res = await visit(`/imagemap${q}`)
      expect(res.statusCode, q).toBe(200)
      expect(res.json().props.pagination.page).toBeGreaterThanOrEqual(1)
    }
  })
})

describe('GET /imagemap/:id', () => {
  it('shows the first image with links to the product and every image', async () => {
    const res = await visit(`/imagemap/${pictured.id}`)
    expect(res.statusCode).toBe(200)
    const page = res.json()
    expect(page.component).toBe('Imagemap/Show')
    expect(page.props.product).toEqual({ id: pictured.id, name: 'Pictured Product', url: pictured.url })
    expect(page.props.image).toEqual({ file_location: '/media/test/front.png', alt: 'Front view' })
    expect(page.props.images).toEqual([
      { file_location: '/media/test/front.png', alt: 'Front view' },
      { file_location: '/media/test/back.svg', alt: 'Pictured Product' },
    ])
  })

  it('answers Not Found for unknown, unpublished, other-site and junk ids', async () => {
    for (const path of [
      `/imagemap/${unpublished.id}`,
      `/imagemap/${usProduct.id}`,
      '/imagemap/999999',
      '/imagemap/abc',
      '/imagemap/0',
      '/imagemap/1e3',
      '/imagemap/99999999999999999999',
    ]) {
      expect((await visit(path)).statusCode, path).toBe(404)
    }
    expect((await visit(`/imagemap/${usProduct.id}`, '127.0.0.1')).statusCode).toBe(200)
  })
})
