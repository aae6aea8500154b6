/** The customer account links shown in the header's account menu and the mobile menu (spec §2). */

export interface AccountLink {
  href: string
  label: string
  /** Rendered but not shown (spec: "/orders (Buy Again, hidden)") */
  hidden?: boolean
}

export function accountLinks(cartName: string): AccountLink[] {
  return [
    { href: '/customer', label: 'Account Dashboard' },
    { href: '/customer/password/change', label: 'Change Your Password' },
    { href: '/customer/orders', label: 'View Order History/Reorder' },
    { href: '/customer/update', label: 'Edit Your Details' },
    { href: '/customer/invoices', label: 'Invoices' },
    { href: '/customer/marketing-preferences', label: 'Marketing Preferences' },
    { href: '/customer/carts', label: `Save & Load ${cartName || 'Basket'}` },
    { href: '/orders', label: 'Buy Again', hidden: true },
  ]
}

/** Pages a visitor signs in from that are not worth returning to after logging in. */
const NO_RETURN =
  /^\/(login|logout|register|forgot-password|reset-password|two-factor-challenge|email\/verify|user\/confirm-password)(\/|\?|$)/

/**
 * The Login link from the page at `url` (a path with its query): it names the page as the one to
 * return to after logging in (`?intended=`, which the server follows only for same-site paths),
 * so logging in from the basket or the checkout comes back to it. Sign-in pages and the home page
 * link to plain /login.
 */
export function loginHref(url: string | undefined): string {
  if (!url || !url.startsWith('/') || url.startsWith('//') || url === '/' || NO_RETURN.test(url))
    return '/login'
  return `/login?intended=${encodeURIComponent(url)}`
}
