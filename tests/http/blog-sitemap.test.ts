import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bankHolidays } from '../../src/shared/bank-holidays.ts'
import { buildTestApp, inertiaHeaders, type TestApp } from '../helpers/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => {
  await t?.close()
})

const visit = (url: string, host = 'localhost') =>
  t.app.inject({ url, headers: { host, ...inertiaHeaders() } })

describe('Blog/Category', () => {
  it('lists every post at /blog with the canonical link to /blog', async () => {
    const page = (await visit('/blog')).json()
    expect(page.component).toBe('Blog/Category')
    expect(page.props.category).toBeNull()
    expect(page.props.posts).toHaveLength(6)
    expect(page.props.canonical).toBe('http://localhost/blog')
    expect(page.props.breadcrumbs).toEqual([{ name: 'Blog', url: null }])
  })

  it('lists a category’s posts with image, primary category, link and a 300-character preview', async () => {
    const page = (await visit('/blog/fire-safety')).json()
    expect(page.component).toBe('Blog/Category')
    expect(page.props.category.name).toBe('Fire Safety')
    expect(page.props.breadcrumbs).toEqual([
      { name: 'Blog', url: '/blog' },
      { name: 'Fire Safety', url: null },
    ])
    expect(page.props.canonical).toBe('http://localhost/blog/fire-safety')
    const [first] = page.props.posts
    expect(first.url).toBe('/blog/how-often-should-fire-extinguishers-be-serviced')
    expect(first.primary_category).toEqual({ name: 'Fire Safety', slug: 'fire-safety' })
    expect(first.image.filename).toBe('/media/content/blog-fire.jpg')
    expect(first.preview.length).toBeLessThanOrEqual(300)
    expect(first.preview).toMatch(/^Extinguishers need a basic check every month/)
    expect(first.preview).not.toMatch(/[<>]/)
    expect(first.preview).toContain('year. British Standard 5306-3')
  })

  it('shows a category tree with one level of children', async () => {
    const tree = (await visit('/blog')).json().props.tree
    expect(tree.map((c: { name: string }) => c.name)).toEqual([
      'Fire Safety',
      'First Aid',
      'Workplace Wellbeing',
    ])
    expect(tree[0].children).toEqual([
      expect.objectContaining({ name: 'Fire Extinguishers', url: '/blog/fire-extinguishers' }),
    ])
  })

  it('answers Not Found for an unknown category or a bad slug', async () => {
    expect((await visit('/blog/no-such-thing')).statusCode).toBe(404)
    expect((await visit('/blog/..%2fsettings')).statusCode).toBe(404)
  })
})

describe('Blog/Post', () => {
  it('renders the post with breadcrumbs, its first category highlighted, blocks and canonical', async () => {
    const page = (await visit('/blog/how-often-should-fire-extinguishers-be-serviced')).json()
    expect(page.component).toBe('Blog/Post')
    expect(page.props.post.name).toBe('How often should fire extinguishers be serviced?')
    expect(page.props.breadcrumbs).toEqual([
      { name: 'Blog', url: '/blog' },
      { name: 'Fire Safety', url: '/blog/fire-safety' },
      { name: 'How often should fire extinguishers be serviced?', url: null },
    ])
    const fireSafety = page.props.tree.find((c: { name: string }) => c.name === 'Fire Safety')
    expect(page.props.activeCategory).toBe(fireSafety.uuid)
    expect(page.props.canonical).toBe('http://localhost/blog/how-often-should-fire-extinguishers-be-serviced')
    expect(page.props.post.blocks.map((b: { component: string }) => b.component)).toEqual([
      'text',
      'accordion',
      'newsletter',
    ])
  })

  it('keeps each site’s blog apart', async () => {
    expect((await visit('/blog/fire-safety', '127.0.0.1')).statusCode).toBe(404)
    expect((await visit('/blog/mobility-tips', '127.0.0.1')).json().props.category.name).toBe('Mobility Tips')
  })
})

describe('Sitemap', () => {
  it('has sections keyed by name with linked names and a canonical link', async () => {
    const page = (await visit('/sitemap')).json()
    expect(page.component).toBe('Sitemap')
    expect(page.props.canonical).toBe('http://localhost/sitemap')
    const { sections } = page.props
    expect(Object.keys(sections)).toEqual(['categories', 'pages', 'blog categories', 'blog posts'])
    expect(sections.pages).toContainEqual({ name: 'Delivery Information', url: '/delivery-information' })
    // noindex pages, settings, forms and drafts stay out.
    const urls = sections.pages.map((l: { url: string }) => l.url)
    expect(urls).not.toContain('/privacy-policy')
    expect(urls).not.toContain('/careers')
    expect(urls.some((u: string) => u.startsWith('/settings') || u.startsWith('/forms'))).toBe(false)
    expect(sections.categories).toContainEqual({ name: 'Safety Signs', url: '/safety-signs' })
  })

  it('serves sitemap.xml with absolute URLs of pages, posts, categories and products', async () => {
    const res = await t.app.inject({ url: '/sitemap.xml', headers: { host: 'localhost' } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/application\/xml/)
    expect(res.body).toContain('<loc>http://localhost/delivery-information</loc>')
    expect(res.body).toContain('<loc>http://localhost/blog/fire-safety</loc>')
    expect(res.body).toContain('<loc>http://localhost/safety-signs</loc>')
    expect(res.body).not.toContain('privacy-policy')
    expect(res.body.match(/<url>/g)!.length).toBeGreaterThan(100)
  })

  it('serves robots.txt pointing at the sitemap, and shuts out unknown hosts', async () => {
    const res = await t.app.inject({ url: '/robots.txt', headers: { host: 'localhost' } })
    expect(res.body).toContain('Disallow: /checkout')
    expect(res.body).toContain('Sitemap: http://localhost/sitemap.xml')
    const unknown = await t.app.inject({ url: '/robots.txt', headers: { host: 'nowhere.example' } })
    expect(unknown.body).toBe('User-agent: *\nDisallow: /\n')
  })
})

describe('GET /bank-holidays', () => {
  it('answers a list of dates for England and Wales', async () => {
    const res = await t.app.inject({
      url: '/bank-holidays',
      headers: { host: 'localhost', accept: 'application/json' },
    })
    expect(res.statusCode).toBe(200)
    const list = res.json() as { date: string }[]
    const year = new Date().getUTCFullYear()
    expect(list).toEqual(expect.arrayContaining(bankHolidays(year).map((date) => ({ date }))))
    expect(list).toContainEqual({ date: bankHolidays(year + 1)[0] })
    expect(list.every((h) => /^\d{4}-\d{2}-\d{2}$/.test(h.date))).toBe(true)
    expect(list.length).toBeGreaterThanOrEqual(24)
  })
})
