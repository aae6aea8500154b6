import { describe, expect, it } from 'vitest'
import { pageTitle, type TitleFor } from './titles.ts'

const SITE = 'Safety Shop'

describe('pageTitle', () => {
  it('uses the site name alone on the home page', () => {
    expect(pageTitle({ page: 'home' }, SITE)).toBe('Safety Shop')
  })

  it('titles a category page with its name plus the page-name suffix', () => {
    expect(pageTitle({ page: 'category', name: 'First Aid', pageName: 'Workplace Kits' }, SITE)).toBe(
      'First Aid - Workplace Kits | Safety Shop',
    )
  })

  it('titles a category without a page-name suffix with its name alone', () => {
    expect(pageTitle({ page: 'category', name: 'First Aid', pageName: null }, SITE)).toBe(
      'First Aid | Safety Shop',
    )
  })

  it('titles a product page with the product name', () => {
    expect(pageTitle({ page: 'product', name: 'Fire Blanket 1m x 1m' }, SITE)).toBe(
      'Fire Blanket 1m x 1m | Safety Shop',
    )
  })

  it('titles a paginated category like a category and adds the page number after page 1', () => {
    expect(pageTitle({ page: 'categoryPaginated', name: 'Signs', pageName: 'All Signs' }, SITE)).toBe(
      'Signs - All Signs | Safety Shop',
    )
    expect(pageTitle({ page: 'categoryPaginated', name: 'Signs', pageNumber: 3 }, SITE)).toBe(
      'Signs - Page 3 | Safety Shop',
    )
  })

  const fixed: [TitleFor, string][] = [
    [{ page: 'signBuilder' }, 'Design A Sign | Safety Shop'],
    [{ page: 'workwearBuilder' }, 'Build Your Workwear | Safety Shop'],
    [{ page: 'orderComplete' }, 'Order Complete | Safety Shop'],
    [{ page: 'myAccount' }, 'Your Account | Safety Shop'],
    [{ page: 'baskets' }, 'Baskets | Safety Shop'],
    [{ page: 'changePassword' }, 'Change Your Password | Safety Shop'],
    [{ page: 'editDetails' }, 'Edit Details | Safety Shop'],
    [{ page: 'orders' }, 'Your Orders | Safety Shop'],
    [{ page: 'invoices' }, 'Your Invoices | Safety Shop'],
    [{ page: 'marketingPreferences' }, 'Marketing Preferences | Safety Shop'],
    [{ page: 'imagemapIndex' }, 'Image Maps | Safety Shop'],
    [{ page: 'fastOrder' }, 'Fast Order | Safety Shop'],
    [{ page: 'notFound' }, 'Not Found | Safety Shop'],
    [{ page: 'sitemap' }, 'Sitemap | Safety Shop'],
  ]
  it.each(fixed)('gives %j the fixed title %s', (target, expected) => {
    expect(pageTitle(target, SITE)).toBe(expected)
  })

  it('titles an image map detail page with the image map name', () => {
    expect(pageTitle({ page: 'imagemapShow', name: 'Warehouse' }, SITE)).toBe('Warehouse | Safety Shop')
  })

  it('titles a blog category with its name, and the blog home as Blog', () => {
    expect(pageTitle({ page: 'blogCategory', name: 'News' }, SITE)).toBe('News | Safety Shop')
    expect(pageTitle({ page: 'blogCategory' }, SITE)).toBe('Blog | Safety Shop')
  })

  it('titles a blog post with the post name', () => {
    expect(pageTitle({ page: 'blogPost', name: 'Winter Safety Tips' }, SITE)).toBe(
      'Winter Safety Tips | Safety Shop',
    )
  })

  it('titles a content story page with its own title, or the site name when it has none', () => {
    expect(pageTitle({ page: 'story', title: 'Delivery Information' }, SITE)).toBe(
      'Delivery Information | Safety Shop',
    )
    expect(pageTitle({ page: 'story', title: '  ' }, SITE)).toBe('Safety Shop')
  })

  it("titles the search page 'Search for {q}'", () => {
    expect(pageTitle({ page: 'search', query: 'gloves' }, SITE)).toBe('Search for gloves | Safety Shop')
  })

  it('titles the basket with the configured cart name, default Basket', () => {
    expect(pageTitle({ page: 'cart', cartName: 'Trolley' }, SITE)).toBe('Trolley | Safety Shop')
    expect(pageTitle({ page: 'cart' }, SITE)).toBe('Basket | Safety Shop')
  })

  it('titles error pages by status and falls back to Error', () => {
    expect(pageTitle({ page: 'error', status: 419 }, SITE)).toBe('Page Expired | Safety Shop')
    expect(pageTitle({ page: 'error', status: 500 }, SITE)).toBe('Server Error | Safety Shop')
    expect(pageTitle({ page: 'error', status: 418 }, SITE)).toBe('Error | Safety Shop')
  })

  it('leaves out the site name when there is no site', () => {
    expect(pageTitle({ page: 'siteSetup' }, null)).toBe('Site not configured')
    expect(pageTitle({ page: 'notFound' })).toBe('Not Found')
  })

  it('collapses stray whitespace in names', () => {
    expect(pageTitle({ page: 'product', name: '  Hi-Vis   Vest ' }, ' Safety Shop ')).toBe(
      'Hi-Vis Vest | Safety Shop',
    )
  })
})
