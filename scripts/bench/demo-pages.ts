/**
 * The page types of both demo sites that the issue-18 budget covers (Lighthouse in the bench,
 * layout shift and axe-core in tests/e2e/page-budget.spec.ts): one list, so both check the same pages.
 */
export interface PageSpec {
  /** page type: home, category, listing, product (layout), search, basket */
  page: string
  path: string
  /** Products whose first option goes into this site's bench basket */
  basket?: boolean
}

/**
 * The demo seed's pages (src/server/db/seed): the two brands are told apart by host, localhost
 * (Harbour, GBP) and 127.0.0.1 (Northgate, USD). One product per layout the site uses, plus the
 * variants that render differently: a sign with a builder, an office chair with a four-column
 * option grid, a workwear product.
 */
export const DEMO_PAGES: { host: string; pages: PageSpec[] }[] = [
  {
    host: 'localhost',
    pages: [
      { page: 'home', path: '/' },
      { page: 'category', path: '/safety-signs' },
      { page: 'listing', path: '/safety-signs/fire-safety-signs/fire-exit-signs' },
      {
        page: 'product: sign (Default)',
        path: '/safety-signs/fire-safety-signs/fire-exit-signs/emergency-exit-sign-arrow-left',
        basket: true,
      },
      {
        page: 'product: sign with builder (DefaultPGUnderLD)',
        path: '/print-and-sign/custom-signs/custom-sign-reflective',
      },
      {
        page: 'product: office chair, option grid (MediaLeft)',
        path: '/furniture/office-chairs/ergo-fabric-task-chair',
        basket: true,
      },
      {
        page: 'product: shelter (SheltersLayout)',
        path: '/shelters/smoking-shelters/open-front-smoking-shelter-galvanised',
        basket: true,
      },
      { page: 'product: workwear (Default)', path: '/custom-hi-vis-vest' },
      { page: 'search', path: '/search?q=sign' },
      { page: 'basket (3 lines)', path: '/cart' },
    ],
  },
  {
    host: '127.0.0.1',
    pages: [
      { page: 'home', path: '/' },
      { page: 'category', path: '/mobility' },
      { page: 'listing', path: '/incontinence/adult-briefs' },
      {
        page: 'product (Default)',
        path: '/incontinence/adult-briefs/comfort-plus-adult-brief',
        basket: true,
      },
      {
        page: 'product (DefaultPGUnderLD)',
        path: '/incontinence/adult-briefs/comfort-plus-breathable-brief',
        basket: true,
      },
      {
        page: 'product: wheelchair, option grid (MediaLeft)',
        path: '/mobility/wheelchairs/self-propelled-wheelchairs/summit-self-propelled-wheelchair',
        basket: true,
      },
      { page: 'search', path: '/search?q=chair' },
      { page: 'basket (3 lines)', path: '/cart' },
    ],
  },
]
