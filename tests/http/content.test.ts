import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contentStories, productGroups, sites } from '../../src/server/db/schema.ts'
import { bumpCacheVersion } from '../../src/server/modules/content/content.import.ts'
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

async function harbourId() {
  const [row] = await t.app.db.select({ id: sites.id }).from(sites).where(eq(sites.code, 'harbour'))
  return row!.id
}

async function setBody(slug: string, body: unknown[]) {
  const siteId = await harbourId()
  const [row] = await t.app.db
    .select()
    .from(contentStories)
    .where(and(eq(contentStories.siteId, siteId), eq(contentStories.fullSlug, slug)))
  const content = { ...row!.publishedContent!, body }
  await t.app.db
    .update(contentStories)
    .set({ publishedContent: content, draftContent: content })
    .where(eq(contentStories.id, row!.id))
  t.app.content.invalidate()
}

describe('content pages', () => {
  it('render a story as the Page component with its blocks, meta and canonical link', async () => {
    const page = (await visit('/delivery-information')).json()
    expect(page.component).toBe('Page')
    expect(page.props.title).toBe('Delivery Information')
    expect(page.props.canonical).toBe('http://localhost/delivery-information')
    expect(page.props.blocks.map((b: { component: string }) => b.component)).toEqual([
      'countdown',
      'text',
      'simple_table',
      'text',
      'complex_table',
      'accordion',
    ])
    // Rich text arrives as sanitised HTML.
    expect(page.props.blocks[1].text).toBe('<h2>Delivery charges</h2>')
  })

  it('serve the presented page from the cache until content is invalidated', async () => {
    const siteId = await harbourId()
    const [row] = await t.app.db
      .select()
      .from(contentStories)
      .where(and(eq(contentStories.siteId, siteId), eq(contentStories.fullSlug, 'terms-and-conditions')))
    expect((await visit('/terms-and-conditions')).json().props.title).toBe('Terms and Conditions')
    await t.app.db
      .update(contentStories)
      .set({ publishedContent: { ...row!.publishedContent!, title: 'Terms of Sale' } })
      .where(eq(contentStories.id, row!.id))
    expect((await visit('/terms-and-conditions')).json().props.title).toBe('Terms and Conditions')
    t.app.content.invalidate()
    expect((await visit('/terms-and-conditions')).json().props.title).toBe('Terms of Sale')
  })

  it('drop the cache when the cache version moves (an import from another process)', async () => {
    const siteId = await harbourId()
    const before = (await visit('/contact-us')).json().props.title
    expect(before).toBe('Contact Us')
    const [row] = await t.app.db
      .select()
      .from(contentStories)
      .where(and(eq(contentStories.siteId, siteId), eq(contentStories.fullSlug, 'contact-us')))
    await t.app.db
      .update(contentStories)
      .set({ publishedContent: { ...row!.publishedContent!, title: 'Talk to us' } })
      .where(eq(contentStories.id, row!.id))
    await bumpCacheVersion(t.app.db, siteId, new Date(Date.now() + 60_000))
    // The service checks the version at most every few seconds: force the next check.
    ;(t.app.content as unknown as { checkedAt: Map<number, { at: number; cv: number }> }).checkedAt.forEach(
      (v) => (v.at = 0),
    )
    expect((await visit('/contact-us')).json().props.title).toBe('Talk to us')
  })

  it('sanitise rich text, HTML and URLs before they reach the page', async () => {
    await setBody('privacy-policy', [
      {
        _uid: 'a',
        component: 'text',
        text: '<p onclick="x()">Hello</p><script>alert(1)</script><iframe src="https://x"></iframe>',
      },
      {
        _uid: 'b',
        component: 'text',
        text: {
          type: 'doc',
          content: [
            {
              type: 'paragraph',
              content: [
                { type: 'text', text: '<img src=x onerror=alert(1)>' },
                {
                  type: 'text',
                  text: 'link',
                  marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }],
                },
              ],
            },
          ],
        },
      },
      {
        _uid: 'c',
        component: 'image',
        image: { filename: 'javascript:alert(1)', alt: 'x' },
        link: ' java\tscript:alert(1)',
      },
    ])
    const page = (await visit('/privacy-policy')).json()
    expect(page.props.blocks[0].text).toBe('<p>Hello</p>')
    expect(page.props.blocks[1].text).toBe('<p>&lt;img src=x onerror=alert(1)&gt;<a>link</a></p>')
    expect(page.props.blocks[2].image.filename).toBe('')
    expect(page.props.blocks[2].link).toBe('')
    expect(page.props.noindex).toBe(true)
  })

  it('give each site its own stories for the same slug', async () => {
    expect((await visit('/about-us', '127.0.0.1')).json().props.title).toBe('About Northgate Workplace')
  })

  it('do not serve draft-only stories, settings or forms as pages', async () => {
    for (const path of ['/careers', '/settings/site', '/forms/contact', '/home', '/search/no-results']) {
      expect((await visit(path)).statusCode, path).toBe(404)
    }
  })

  it('treat slugs with odd characters as not found', async () => {
    for (const path of ['/..%2f..%2fetc%2fpasswd', "/about-us'--", '/ABOUT-US', '/about us']) {
      expect((await visit(path)).statusCode, path).toBe(404)
    }
  })

  it('give the search page optional content by slug', async () => {
    const siteId = await harbourId()
    const blocks = await t.app.content.optionalBlocks(siteId, 'search/no-results')
    expect(blocks?.[0]?.component).toBe('text')
    const after = await t.app.content.optionalBlocks(siteId, 'search/after-results')
    expect(after?.[0]?.text).toBe(
      '<p>Need a quantity we do not list? <a href="/contact-us">Contact us</a> for a quote.</p>',
    )
    expect(await t.app.content.optionalBlocks(siteId, 'search/before-results')).toBeNull()
  })
})

describe('home page', () => {
  it('renders the home story blocks and the top-level categories', async () => {
    const page = (await visit('/')).json()
    expect(page.component).toBe('Home')
    expect(page.props.blocks.map((b: { component: string }) => b.component)).toEqual([
      'slider',
      'countdown',
      'text',
      'blog_post_grid',
      'newsletter',
    ])
    const grid = page.props.blocks[3]
    expect(grid.posts).toHaveLength(3)
    expect(grid.posts[0].url).toMatch(/^\/blog\//)
    expect(page.props.categories.length).toBeGreaterThan(0)
  })
})

describe('site settings from content', () => {
  it('feed the theme, contact details, cart name and header message', async () => {
    const site = (await visit('/')).json().props.site
    expect(site.theme.colours.primary).toBe('#12355b')
    expect(site.contactNumber).toBe('01632 960 123')
    expect(site.cartName).toBe('Basket')
    expect(site.headerMessage).toEqual({
      display: true,
      christmas_message: false,
      title: 'Free UK delivery on orders over £100',
      text: '<p>Order before 2pm for same-day despatch on stock items.</p>',
      show_more_text:
        '<p>Free delivery applies to mainland UK addresses. Highlands, islands and Northern Ireland are charged at cost.</p>',
    })
    const us = (await visit('/', '127.0.0.1')).json().props.site
    expect(us.cartName).toBe('Cart')
    expect(us.headerMessage.show_more_text).toBeNull()
  })

  it('feed the product page settings from the products settings story', async () => {
    const siteId = await harbourId()
    const [group] = await t.app.db
      .select({ url: productGroups.url })
      .from(productGroups)
      .where(and(eq(productGroups.siteId, siteId), eq(productGroups.published, true)))
      .limit(1)
    const page = (await visit(group!.url)).json()
    expect(page.component).toBe('Product')
    expect(page.props.settings).toEqual({
      titleColour: '#12355b',
      mediaHW: 260,
      showAlternatives: true,
      alternativesLimit: 4,
    })
  })

  it('skip a bad value from content and keep the default', async () => {
    const siteId = await harbourId()
    const [row] = await t.app.db
      .select()
      .from(contentStories)
      .where(and(eq(contentStories.siteId, siteId), eq(contentStories.fullSlug, 'settings/site')))
    const bad = { ...row!.publishedContent!, pageWidth: '1px;} body{display:none', cartName: 'Trolley' }
    await t.app.db.update(contentStories).set({ publishedContent: bad }).where(eq(contentStories.id, row!.id))
    t.app.content.invalidate()
    const site = (await visit('/')).json().props.site
    expect(site.theme.pageWidth).toBe('1280px')
    expect(site.cartName).toBe('Trolley')
    await t.app.db
      .update(contentStories)
      .set({ publishedContent: row!.publishedContent })
      .where(eq(contentStories.id, row!.id))
    t.app.content.invalidate()
  })

  it('hide the header message when the story says display is off', async () => {
    const siteId = await harbourId()
    const [row] = await t.app.db
      .select()
      .from(contentStories)
      .where(and(eq(contentStories.siteId, siteId), eq(contentStories.fullSlug, 'settings/header-message')))
    await t.app.db
      .update(contentStories)
      .set({ publishedContent: { ...row!.publishedContent!, display: false } })
      .where(eq(contentStories.id, row!.id))
    t.app.content.invalidate()
    expect((await visit('/')).json().props.site.headerMessage).toBeNull()
    await t.app.db
      .update(contentStories)
      .set({ publishedContent: row!.publishedContent })
      .where(eq(contentStories.id, row!.id))
    t.app.content.invalidate()
  })
})
