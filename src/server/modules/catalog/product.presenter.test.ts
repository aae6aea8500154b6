import { describe, expect, it } from 'vitest'
import { specificationValues } from './product.placeholders.ts'
import {
  PRODUCT_SETTINGS_DEFAULTS,
  presentProduct,
  productSettings,
  sanitiseCss,
} from './product.presenter.ts'
import { ctx, group, record, sku } from './product.test-records.ts'
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

describe('helpers', () => {
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
