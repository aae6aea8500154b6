/**
 * Every page builds its <title> here, so the format lives in one place:
 * "<page title> | <site name>", and the site name alone on the home page.
 * Titles are plain text; <Head> escapes them.
 */

export type TitleFor =
  | { page: 'home' }
  /** pageName is the category's page-name suffix from the content system */
  | { page: 'category'; name: string; pageName?: string | null }
  | { page: 'categoryPaginated'; name: string; pageName?: string | null; pageNumber?: number }
  | { page: 'product'; name: string }
  | { page: 'signBuilder' }
  /** The custom workwear builder (the spec names no title: ADR 0037) */
  | { page: 'workwearBuilder' }
  | { page: 'orderComplete' }
  | { page: 'myAccount' }
  | { page: 'baskets' }
  | { page: 'changePassword' }
  | { page: 'editDetails' }
  | { page: 'orders' }
  | { page: 'invoices' }
  | { page: 'marketingPreferences' }
  | { page: 'imagemapIndex' }
  | { page: 'imagemapShow'; name: string }
  /** Without a name this is the blog's own landing page */
  | { page: 'blogCategory'; name?: string | null }
  | { page: 'blogPost'; name: string }
  | { page: 'fastOrder' }
  | { page: 'notFound' }
  /** A content page (story) with its own title */
  | { page: 'story'; title: string }
  | { page: 'search'; query: string }
  | { page: 'sitemap' }
  | { page: 'cart'; cartName?: string | null }
  | { page: 'error'; status: number }
  | { page: 'siteSetup' }
  | { page: 'login' }
  | { page: 'register'; club?: boolean }
  | { page: 'forgotPassword' }
  | { page: 'resetPassword' }
  | { page: 'verifyEmail' }
  | { page: 'confirmPassword' }
  | { page: 'twoFactorChallenge' }
  | { page: 'twoFactorSettings' }

const SEPARATOR = ' | '

/** Titles of error pages by HTTP status; anything else is 'Error'. */
export const ERROR_TITLES: Readonly<Record<number, string>> = {
  403: 'Forbidden',
  404: 'Not Found',
  419: 'Page Expired',
  429: 'Too Many Requests',
  500: 'Server Error',
  503: 'Service Unavailable',
}

function clean(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim()
}

function withSuffix(name: string, suffix: string | null | undefined): string {
  const tail = clean(suffix)
  return tail ? `${clean(name)} - ${tail}` : clean(name)
}

/** The page's own part of the title, without the site name. */
export function pageHeading(target: TitleFor): string {
  switch (target.page) {
    case 'home':
      return ''
    case 'category':
      return withSuffix(target.name, target.pageName)
    case 'categoryPaginated': {
      const base = withSuffix(target.name, target.pageName)
      const n = target.pageNumber ?? 1
      return n > 1 ? `${base} - Page ${n}` : base
    }
    case 'product':
      return clean(target.name)
    case 'signBuilder':
      return 'Design A Sign'
    case 'workwearBuilder':
      return 'Build Your Workwear'
    case 'orderComplete':
      return 'Order Complete'
    case 'myAccount':
      return 'Your Account'
    case 'baskets':
      return 'Baskets'
    case 'changePassword':
      return 'Change Your Password'
    case 'editDetails':
      return 'Edit Details'
    case 'orders':
      return 'Your Orders'
    case 'invoices':
      return 'Your Invoices'
    case 'marketingPreferences':
      return 'Marketing Preferences'
    case 'imagemapIndex':
      return 'Image Maps'
    case 'imagemapShow':
      return clean(target.name)
    case 'blogCategory':
      return clean(target.name) || 'Blog'
    case 'blogPost':
      return clean(target.name)
    case 'fastOrder':
      return 'Fast Order'
    case 'notFound':
      return 'Not Found'
    case 'story':
      return clean(target.title)
    case 'search':
      return `Search for ${clean(target.query)}`
    case 'sitemap':
      return 'Sitemap'
    case 'cart':
      return clean(target.cartName) || 'Basket'
    case 'error':
      return ERROR_TITLES[target.status] ?? 'Error'
    case 'siteSetup':
      return 'Site not configured'
    case 'login':
      return 'Log In'
    case 'register':
      return target.club ? 'Club Registration' : 'Register'
    case 'forgotPassword':
      return 'Reset Password'
    case 'resetPassword':
      return 'Change Password'
    case 'verifyEmail':
      return 'Verify Your Email Address'
    case 'confirmPassword':
      return 'Confirm Password'
    case 'twoFactorChallenge':
      return 'Two-Factor Authentication'
    case 'twoFactorSettings':
      return 'Two-Factor Authentication'
  }
}

/**
 * The full document title. With no site (an unknown host) the page part stands alone.
 * An empty page part (home, or a story without a title) gives the site name alone.
 */
export function pageTitle(target: TitleFor, siteName?: string | null): string {
  const heading = pageHeading(target)
  const site = clean(siteName)
  if (!heading) return site
  if (!site) return heading
  return `${heading}${SEPARATOR}${site}`
}
