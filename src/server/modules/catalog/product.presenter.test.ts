import { describe, expect, it } from 'vitest'
import type { ProductGroupRow, ProductRow } from './catalog.tables.ts'
import {
  PRODUCT_SETTINGS_DEFAULTS,
  buildPriceGrids,
  fileTypeLabel,
  presentGallery,
  presentProduct,
  productSettings,
  sanitiseCss,
  specificationValues,
  swatchGridHtml,
} from './product.presenter.ts'
import type { ProductRecord } from './product.queries.ts'
import { optionBrackets, optionCode, optionDescription, optionMinimum } from '../../../shared/product.ts'

let nextId = 100

function sku(over: Partial<ProductRow> = {}): ProductRow {
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

function group(over: Partial<ProductGroupRow> = {}): ProductGroupRow {
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

function record(over: Partial<ProductRecord> = {}): ProductRecord {
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

const ctx = {
  site: { name: 'Harbour', currency: 'GBP' as const, logo: '/brands/harbour.svg' },
  baseUrl: 'https://shop.example',
  settings: PRODUCT_SETTINGS_DEFAULTS,
}

describe('buildPriceGrids', () => {
  it('puts each SKU without a row key on its own row, in grid and position order', () => {
    const grids = buildPriceGrids([
      sku({ id: 3, position: 2 }),
      sku({ id: 4, position: 1 }),
      sku({ id: 5, grid: 2 }),
    ])
    expect(grids.map((g) => g.number)).toEqual([1, 2])
    expect(grids[0]!.rows.map((r) => r.options[0]!.productId)).toEqual([4, 3])
    expect(grids[0]!.rows[0]).toMatchObject({
      key: 'g1-p4',
      productCode: 'PC-4',
      description: 'Description 4',
    })
  })

  it('groups SKUs sharing a row key into one row of options keyed by product id', () => {
    const grids = buildPriceGrids([
      sku({ id: 6, rowKey: 'A', optionLabel: 'Red' }),
      sku({ id: 7, rowKey: 'A', optionLabel: 'Blue', position: 1 }),
      sku({ id: 8, position: 2 }),
    ])
    const [rowA, row8] = grids[0]!.rows
    expect(rowA!.options.map((o) => [o.productId, o.label])).toEqual([
      [6, 'Red'],
      [7, 'Blue'],
    ])
    expect(row8!.options).toHaveLength(1)
  })

  it('makes columns from the union of brackets, lowest first, with null where a SKU has none', () => {
    const grids = buildPriceGrids([
      sku({ id: 9, priceList: [{ lowerQty: 10, higherQty: null, price: 80, name: '10+' }] }),
      sku({
        id: 10,
        priceList: [
          { lowerQty: 1, higherQty: 9, price: 100, name: '1-9' },
          { lowerQty: 10, higherQty: null, price: 90, name: '10+' },
        ],
      }),
    ])
    const grid = grids[0]!
    expect(grid.columns).toEqual([
      { name: '1-9', lowerQty: 1, higherQty: 9 },
      { name: '10+', lowerQty: 10, higherQty: 9999 },
    ])
    expect(grid.rows[0]!.options[0]!.prices).toEqual([null, 80])
    expect(grid.rows[1]!.options[0]!.prices).toEqual([100, 90])
  })

  it("sends an option's price list only when the grid's columns and its prices do not already say it", () => {
    const grids = buildPriceGrids([
      sku({ id: 20, priceList: [{ lowerQty: 1, higherQty: 9, price: 100, name: '1-9' }] }),
      // Same name, other quantities: the column (from the first SKU) does not describe it.
      sku({ id: 21, position: 1, priceList: [{ lowerQty: 1, higherQty: 4, price: 90, name: '1-9' }] }),
    ])
    const [plain, odd] = grids[0]!.rows.map((r) => r.options[0]!)
    expect(plain).not.toHaveProperty('priceList')
    expect(optionBrackets(grids[0]!.columns, plain!)).toEqual([
      { lowerQty: 1, higherQty: 9, price: 100, name: '1-9' },
    ])
    expect(odd!.priceList).toEqual([{ lowerQty: 1, higherQty: 4, price: 90, name: '1-9' }])
    expect(optionBrackets(grids[0]!.columns, odd!)).toEqual(odd!.priceList)
  })

  it('takes headings from grid_descriptions, keeps was prices and defaults the minimum order to 1', () => {
    const grids = buildPriceGrids(
      [sku({ id: 11, wasPrice: 700, minimumOrder: 0 }), sku({ id: 12, grid: 3 })],
      {
        pricing: { grid_descriptions: { '1': 'Single <b>signs</b>' }, unit_of_measurement: 'sign' },
      },
    )
    expect(grids[0]!.description).toBe('Single signs')
    expect(grids[0]!.unitOfMeasurement).toBe('sign')
    expect(grids[1]!.description).toBeNull()
    const option = grids[0]!.rows[0]!.options[0]!
    expect(option.wasPrice).toBe(700)
    expect(optionMinimum(option)).toBe(1)
    expect(option).not.toHaveProperty('minimumOrder')
    expect(grids[1]!.rows[0]!.options[0]).not.toHaveProperty('wasPrice')
  })

  it('leaves out of each option what the page derives from its row, and keeps what differs', () => {
    const grids = buildPriceGrids([
      sku({ id: 30, rowKey: 'A', productCode: 'PC-A', description: 'Small, Red', optionLabel: 'Red' }),
      sku({
        id: 31,
        rowKey: 'A',
        productCode: 'PC-B',
        description: 'Small, Blue',
        optionLabel: 'Blue',
        position: 1,
      }),
      sku({
        id: 32,
        rowKey: 'A',
        productCode: 'PC-C',
        description: 'Odd one',
        optionLabel: 'Green',
        position: 2,
        minimumOrder: 5,
      }),
      sku({ id: 33, position: 3 }),
    ])
    const [row, single] = grids[0]!.rows
    expect(row!.description).toBe('Small')
    const [red, blue, green] = row!.options
    expect(red).toEqual({ productId: 30, sku: 'SKU-30', label: 'Red', prices: red!.prices })
    expect(blue).toMatchObject({ productCode: 'PC-B', label: 'Blue' })
    expect(blue).not.toHaveProperty('description')
    expect(green).toMatchObject({ description: 'Odd one', minimumOrder: 5 })
    expect(
      row!.options.map((o) => [optionCode(row!, o), optionDescription(row!, o), optionMinimum(o)]),
    ).toEqual([
      ['PC-A', 'Small, Red', 1],
      ['PC-B', 'Small, Blue', 1],
      ['PC-C', 'Odd one', 5],
    ])
    // A row of one option has no dropdown: no label, and the row's code and description.
    const lone = single!.options[0]!
    expect(lone).not.toHaveProperty('label')
    expect(lone).not.toHaveProperty('productCode')
    expect(lone).not.toHaveProperty('description')
    expect([optionCode(single!, lone), optionDescription(single!, lone)]).toEqual(['PC-33', 'Description 33'])
  })

  it('leaves out unpublished SKUs and puts grid numbers outside 1-3 in grid 1', () => {
    const grids = buildPriceGrids([sku({ id: 13, published: false }), sku({ id: 14, grid: 7 })])
    expect(grids).toHaveLength(1)
    expect(grids[0]!.rows.map((r) => r.options[0]!.productId)).toEqual([14])
  })
})

describe('presentProduct', () => {
  it('builds breadcrumbs, canonical, meta description and the As Low As price', () => {
    const p = presentProduct(record(), ctx)
    expect(p.breadcrumbs).toEqual([
      { name: 'Home', url: '/' },
      { name: 'Signs', url: '/signs' },
      { name: 'Fire <em>Safety</em>', url: '/signs/fire' },
      { name: 'Fire Door Sign', url: '/signs/fire-door-sign' },
    ])
    expect(p.canonical).toBe('https://shop.example/signs/fire-door-sign')
    expect(p.metaDescription).toBe('Keep shut & locked')
    expect(p.product.asLowAs).toBe(400)
    expect(p.category).toEqual({ id: 20, uuid: 'u20', name: 'Fire Safety', url: '/signs/fire' })
  })

  it('prefers the meta description attribute, tags stripped', () => {
    const p = presentProduct(
      record({ group: group({ attributes: { meta: { meta_description: '<p>Buy <i>now</i></p>' } } }) }),
      ctx,
    )
    expect(p.metaDescription).toBe('Buy now')
  })

  it('falls back to the Default layout for an unknown one', () => {
    expect(presentProduct(record({ group: group({ layout: 'Weird' as never }) }), ctx).product.layout).toBe(
      'Default',
    )
    expect(presentProduct(record({ group: group({ layout: 'MediaLeft' }) }), ctx).product.layout).toBe(
      'MediaLeft',
    )
  })

  it('fills the placeholders and blanks specifications when their data is bad', () => {
    const specs = {
      '1': { label: 'Size', value: '200 x 300 <mm>' },
      '2': { label: 'Material', value: 'Vinyl' },
    }
    const html = '<p>{SPEC1_label}: {spec1}; {spec2}; {spec3}; {logo} {as_low_as}</p><div>{swatches}</div>'
    const good = presentProduct(
      record({
        group: group({
          longDescription: html,
          attributes: { specifications: specs },
          colourSwatches: { Red: { Hex: '#f00' }, Bad: { Hex: 'url(x)' } },
        }),
      }),
      ctx,
    ).product.description.plain
    expect(good).toContain('Size: 200 x 300 &lt;mm&gt;; Vinyl; ;')
    expect(good).toContain('<img class="inline-block h-10 w-auto" src="/brands/harbour.svg" alt="Harbour">')
    expect(good).toContain('{as_low_as}')
    expect(good).toContain('background: #f00')
    expect(good).not.toContain('Bad')

    const bad = presentProduct(
      record({
        group: group({
          longDescription: html,
          attributes: { specifications: { '11': { label: 'x', value: 'y' } } as never },
        }),
      }),
      ctx,
    ).product.description.plain
    expect(bad).toContain('<p>: ; ; ;')
    expect(specificationValues([1, 2])).toBeNull()
    expect(specificationValues({ '1': { label: 'a' } })).toBeNull()
    expect(specificationValues(undefined)?.size).toBe(0)
  })

  it('sanitises structured descriptions and tab ids', () => {
    const p = presentProduct(
      record({
        group: group({
          longDescriptionStructured: {
            above: '<p>Above<script>x()</script></p>',
            tabs: [
              { id: 'Spec Sheet!', label: 'Specification', content: '<p onclick="x()">Tab</p>' },
              { id: '', label: '', content: 'dropped: no label' },
            ],
            long_description2: { content: '<p>Second</p>' },
          },
        }),
      }),
      ctx,
    )
    expect(p.product.description.above).toBe('<p>Above</p>')
    expect(p.product.description.tabs).toEqual([
      { id: 'spec-sheet', label: 'Specification', content: '<p>Tab</p>' },
    ])
    expect(p.product.longDescription2).toBe('<p>Second</p>')
  })

  it('takes the builder from the primary category and ignores a malformed one', () => {
    const builder = {
      selectors: [{ name: 'Size', items: [{ id: 1, name: 'A4', cost: 500, product_id: 1 }] }],
      options: [],
    }
    const trail = record().trail.map((c, i) => (i === 1 ? { ...c, builder } : c))
    expect(presentProduct(record({ trail }), ctx).product.builder).toEqual({
      ...builder,
      selectors: [{ name: 'Size', items: [{ ...builder.selectors[0]!.items[0], selected: true }] }],
    })
    const broken = record().trail.map((c, i) =>
      i === 1 ? { ...c, builder: { selectors: 'x' } as never } : c,
    )
    expect(presentProduct(record({ trail: broken }), ctx).product.builder).toBeNull()
  })

  it("offers only the page's own sizes of a builder shared by the category's products", () => {
    const builder = {
      selectors: [
        {
          name: 'Size',
          items: [
            { id: 1, name: 'A4', cost: 500, product_id: 99, selected: true },
            { id: 2, name: 'A4', cost: 600, product_id: 1 },
            { id: 3, name: 'A3', cost: 900, product_id: 2 },
          ],
        },
        { name: 'Material', items: [{ id: 4, name: 'PVC', cost: 0, product_id: null, selected: true }] },
      ],
      options: [],
    }
    const trail = record().trail.map((c, i) => (i === 1 ? { ...c, builder } : c))
    const shown = presentProduct(record({ trail }), ctx).product.builder!
    expect(shown.selectors[0]!.items.map((i) => [i.id, i.product_id, !!i.selected])).toEqual([
      [2, 1, true],
      [3, 2, false],
    ])
    expect(shown.selectors[1]!.items).toHaveLength(1)
    const elsewhere = record({ trail, skus: [sku({ id: 50 })] })
    expect(presentProduct(elsewhere, ctx).product.builder).toBeNull()
  })

  it('presents zone pricing, files and the audio sample', () => {
    const p = presentProduct(
      record({
        group: group({
          zonePricing: [
            {
              builder_customisation_type: { customer_label: 'Zone A' },
              prices: [{ quantity_break: '1-9', price: 1200 }],
            },
          ],
          files: [
            { id: 1, file_type: 'PDF', file_name: 'Data sheet.pdf', file_location: '/media/files/ds.pdf' },
            { id: 2, file_type: '', file_name: 'x.docx', file_location: 'javascript:alert(1)' },
          ],
          mp3Link: '/media/audio/sample.mp3',
        }),
      }),
      ctx,
    )
    expect(p.product.zonePricing).toEqual([
      { label: 'Zone A', prices: [{ quantityBreak: '1-9', price: 1200 }] },
    ])
    expect(p.product.files).toEqual([
      { id: 1, name: 'Data sheet.pdf', url: '/media/files/ds.pdf', label: 'pdf' },
    ])
    expect(p.product.mp3Link).toBe('/media/audio/sample.mp3')
  })

  it('emits schema.org Product data with one AggregateOffer over every SKU and price break', () => {
    const p = presentProduct(
      record({
        group: group({
          imageSku: 'IMG-1',
          attributes: { google: { product_brand: 'Harbour' } },
          media: [{ file_location: '/media/catalog/a.png', type: 'image' }],
        }),
      }),
      ctx,
    )
    const ld = p.jsonLd as Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'Fire Door Sign',
      sku: 'IMG-1',
      brand: { '@type': 'Brand', name: 'Harbour' },
      image: ['https://shop.example/img/media/catalog/a.png?w=300&h=300&q=50&fit=contain'],
      offers: {
        '@type': 'AggregateOffer',
        priceCurrency: 'GBP',
        lowPrice: '4.00',
        highPrice: '5.00',
        offerCount: 2,
        availability: 'https://schema.org/InStock',
      },
    })
    expect(ld.offers).not.toHaveProperty('offers')
    const bare = presentProduct(record({ skus: [] }), ctx).jsonLd
    expect(bare).not.toHaveProperty('offers')
    expect(bare).not.toHaveProperty('sku')
  })

  it('hides alternatives when the setting is off and limits them', () => {
    const alt = (id: number) => ({
      id,
      url: `/a${id}`,
      name: `Alt ${id}`,
      shortDescription: '',
      media: [],
      minPrice: 100,
      attributes: {},
      colourSwatches: null,
      nameOverride: null,
      descriptionOverride: null,
      imageOverride: null,
    })
    const alternatives = [1, 2, 3].map(alt)
    expect(
      presentProduct(record({ alternatives }), {
        ...ctx,
        settings: { ...ctx.settings, alternativesLimit: 2 },
      }).alternatives,
    ).toHaveLength(2)
    expect(
      presentProduct(record({ alternatives }), {
        ...ctx,
        settings: { ...ctx.settings, showAlternatives: false },
      }).alternatives,
    ).toEqual([])
  })
})

describe('gallery', () => {
  it('presents images by their file (the browser asks for each size) and videos with their poster and player link', () => {
    const items = presentGallery(
      [
        { file_location: '/media/a.jpg', alt: 'Front' },
        { file_location: '/media/b.mp4', type: 'video' },
        { file_location: '/media/v.svg', type: 'video', video_id: 'abc123', alt: 'Demo' },
        { file_location: '/media/c.mp3', type: 'audio' },
        { file_location: 'javascript:alert(1)' },
      ],
      'Sign',
      ['abc123', 'zzz999', 'bad id!'],
    )
    expect(items).toEqual([
      { kind: 'image', file: '/media/a.jpg', alt: 'Front' },
      {
        kind: 'video',
        src: '/media/b.mp4',
        thumb: null,
        alt: 'Sign video 2',
        poster: null,
        link: null,
      },
      {
        kind: 'video',
        src: '',
        thumb: '/media/v.svg',
        alt: 'Demo',
        poster: '/media/v.svg',
        link: 'https://fast.wistia.net/embed/iframe/abc123',
      },
      {
        kind: 'video',
        src: '',
        thumb: null,
        alt: 'Sign video 4',
        poster: null,
        link: 'https://fast.wistia.net/embed/iframe/zzz999',
      },
    ])
  })

  it('is null when the media feature is not a list', () => {
    expect(presentGallery({ file_location: '/a.png' }, 'x')).toBeNull()
    expect(presentGallery([], 'x')).toEqual([])
  })
})

describe('helpers', () => {
  it.each([
    ['pdf', '', 'pdf'],
    ['DOCX', '', 'doc'],
    ['doc', '', 'doc'],
    ['xlsx', '', 'xls'],
    ['jpeg', '', 'image'],
    ['gif', '', 'image'],
    ['mov', '', 'video'],
    ['avi', '', 'video'],
    ['dwg', '', 'dwg'],
    ['', 'plan.PNG', 'image'],
    ['', 'noext', 'file'],
  ])('labels file type %s (%s) as %s', (type, name, label) => {
    expect(fileTypeLabel(type, name)).toBe(label)
  })

  it('sanitises page CSS', () => {
    expect(sanitiseCss('.a { color: red } </style><script>x</script>')).toBe('.a { color: red } x')
    expect(sanitiseCss('@import url(https://evil); .b{background:url(javascript:x)}')).toBe(
      '.b{background:none}',
    )
    expect(sanitiseCss(".c{background:url('/media/a.png')}")).toBe(".c{background:url('/media/a.png')}")
    expect(sanitiseCss('.d{width:expression(alert(1))}')).toBe('.d{width:(alert(1))}')
    expect(sanitiseCss('x'.repeat(20_001))).toBe('')
  })

  it('reads product settings when present and valid, else the defaults', () => {
    expect(productSettings({})).toEqual(PRODUCT_SETTINGS_DEFAULTS)
    expect(
      productSettings({
        products: { mediaHW: 320, alternativesLimit: 6, showAlternatives: false, titleColour: '#123' },
      }),
    ).toEqual({
      mediaHW: 320,
      alternativesLimit: 6,
      showAlternatives: false,
      titleColour: '#123',
    })
    expect(productSettings({ products: { mediaHW: 'x', titleColour: 'red;}' } })).toEqual(
      PRODUCT_SETTINGS_DEFAULTS,
    )
  })
})

describe('layout and colour (spec §2, §3)', () => {
  const withSetting = (pageLayout: string) => ({
    ...ctx,
    settings: productSettings({ products: { pageLayout } }),
  })

  it('takes the layout from the products story setting when the product has none of its own', () => {
    expect(presentProduct(record(), withSetting('SheltersLayout')).product.layout).toBe('SheltersLayout')
    expect(presentProduct(record(), withSetting('Nonsense')).product.layout).toBe('Default')
    expect(presentProduct(record(), ctx).product.layout).toBe('Default')
  })

  it("lets the product's page_layout attribute (or its own layout) override the site's", () => {
    const own = record({ group: group({ attributes: { story_blok: { page_layout: 'MediaLeft' } } }) })
    expect(presentProduct(own, withSetting('SheltersLayout')).product.layout).toBe('MediaLeft')
    const column = record({ group: group({ layout: 'DefaultPGUnderLD' }) })
    expect(presentProduct(column, withSetting('SheltersLayout')).product.layout).toBe('DefaultPGUnderLD')
    const unknown = record({ group: group({ attributes: { story_blok: { page_layout: 'Weird' } } }) })
    expect(presentProduct(unknown, withSetting('MediaLeft')).product.layout).toBe('MediaLeft')
  })

  it('shows master_colour_key as the colour, as plain text, and in the structured data', () => {
    const p = presentProduct(
      record({ group: group({ attributes: { master_colour_key: 'Hi-Vis <b>Yellow</b>' } }) }),
      ctx,
    )
    expect(p.product.colour).toBe('Hi-Vis Yellow')
    expect(p.jsonLd).toMatchObject({ color: 'Hi-Vis Yellow' })
    const none = presentProduct(record(), ctx)
    expect(none.product.colour).toBeNull()
    expect(none.jsonLd).not.toHaveProperty('color')
  })
})

describe('swatchGridHtml', () => {
  const swatches = { Navy: { Hex: '#1F2A44' }, Red: { Hex: '#CC0605' } } as never

  it("labels the swatch list 'Colors' on a US site and 'Colours' on a UK one", () => {
    expect(String(swatchGridHtml(swatches, 'en-US'))).toContain('aria-label="Colors"')
    expect(String(swatchGridHtml(swatches, 'en-GB'))).toContain('aria-label="Colours"')
  })
})
