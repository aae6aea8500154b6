/** Product records for the presenter's tests: a SKU, a group, a whole record, a context. */
import type { ProductGroupRow, ProductRow } from './catalog.tables.ts'
import { PRODUCT_SETTINGS_DEFAULTS } from './product.presenter.ts'
import type { ProductRecord } from './product.queries.ts'

let nextId = 100

export function sku(over: Partial<ProductRow> = {}): ProductRow {
  const id = over.id ?? nextId++
  return {
    id,
    siteId: 1,
    groupId: 1,
    sku: `SKU-${id}`,
    productCode: `PC-${id}`,
    name: `Sku ${id}`,
    description: `Description ${id}`,
    grid: 1,
    rowKey: null,
    optionLabel: null,
    qty: 10,
    minimumOrder: 1,
    priceList: [
      { lowerQty: 1, higherQty: 9, price: 500, name: '1-9' },
      { lowerQty: 10, higherQty: null, price: 400, name: '10+' },
    ],
    wasPrice: null,
    position: 0,
    published: true,
    ...over,
  }
}

export function group(over: Partial<ProductGroupRow> = {}): ProductGroupRow {
  return {
    id: 1,
    siteId: 1,
    uuid: '00000000-0000-4000-8000-000000000001',
    categoryId: 20,
    slug: 'fire-door-sign',
    url: '/signs/fire-door-sign',
    name: 'Fire Door Sign',
    shortDescription: '<p>Keep <b>shut</b> &amp; locked</p>',
    longDescription: '<p>Long</p>',
    longDescription2: '',
    longDescriptionStructured: null,
    attributes: {},
    media: [],
    files: [],
    colourSwatches: null,
    zonePricing: null,
    layout: 'Default',
    brand: null,
    mp3Link: null,
    imageSku: null,
    minPrice: 0,
    vatReliefEligible: false,
    vatReliefKind: null,
    published: true,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...over,
  }
}

export function record(over: Partial<ProductRecord> = {}): ProductRecord {
  return {
    group: group(),
    trail: [
      { id: 10, uuid: 'u10', parentId: null, name: 'Signs', url: '/signs', published: true, builder: null },
      {
        id: 20,
        uuid: 'u20',
        parentId: 10,
        name: 'Fire <em>Safety</em>',
        url: '/signs/fire',
        published: true,
        builder: null,
      },
    ],
    skus: [sku({ id: 1 }), sku({ id: 2, position: 1 })],
    alternatives: [],
    ...over,
  }
}

export const ctx = {
  site: { name: 'Harbour', currency: 'GBP' as const, logo: '/brands/harbour.svg' },
  baseUrl: 'https://shop.example',
  settings: PRODUCT_SETTINGS_DEFAULTS,
}
