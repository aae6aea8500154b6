/**
 * The Inertia contract: props every page receives (shared props) and the flash shape.
 * Imported by the server (to build them) and the browser (to read them). No runtime code here.
 */

import type { SafeHtml } from './safe-html.ts'

export type Currency = 'GBP' | 'USD'

/** Theme values from the site settings; they reach the page as CSS custom properties. */
export interface SiteTheme {
  /** e.g. '1280px' */
  pageWidth: string
  fontFamily: string
  fontWeight: string
  /** e.g. '1rem' */
  padding: string
  colours: {
    primary: string
    secondary: string
    accent: string
    text: string
    background: string
    headerBackground: string
    headerText: string
    /** Cart count badge; default red */
    badge: string
    /** Add-to-cart buttons; default #7cad0a */
    addToCart: string
  }
}

export interface NavItem {
  label: string
  url: string
  children?: NavItem[]
}

export interface HeaderMessage {
  display: boolean
  christmas_message?: boolean
  title: string
  text: SafeHtml
  show_more_text?: SafeHtml | null
}

export interface SiteTax {
  name: string
  rate: number
  /** Prices are shown with tax by default */
  pricesIncludeTax: boolean
}

export interface SiteProps {
  id: number
  name: string
  host: string
  logo: string | null
  currency: Currency
  /** Intl locale used for money and dates: 'en-GB' or 'en-US' */
  locale: 'en-GB' | 'en-US'
  cartName: string
  /** The site's sales tax (site setting): name, standard rate in percent (0 = none charged) */
  tax: SiteTax
  /** The company behind the shop (site setting), for the footer; empty fields are left out */
  company: { name: string; number: string; registeredAddress: string; vatNumber: string }
  /** Holiday calendar of the despatch countdown and delivery dates */
  calendar: 'england-and-wales' | 'us-federal'
  /** Fire the ad pixel on add to basket (site setting) */
  adPixel: boolean
  /** Show the tree-planting notice on the basket (site setting, off by default) */
  treePlanting?: boolean
  contactNumber: string
  contactEmail: string
  theme: SiteTheme
  /** Raw CSS set by the shop owner in the content system */
  globalCSS: string
  headerMessage: HeaderMessage | null
  guarantees: string[]
  navigation: NavItem[]
  /** Scroll offset in px after which the header becomes sticky */
  stickyHeaderOffset: number
  /** Whether the layout shows the left sidebar (hidden on small screens anyway) */
  showSidebar: boolean
  /** Base URL of the site, e.g. http://localhost:3000 */
  baseUrl: string
}

export interface CustomerSummary {
  id: number
  firstName: string
  lastName: string
  email: string
}

export interface CartSummary {
  /** Number of items in the basket */
  count: number
  /** Basket total in minor units (pence or cents) */
  total: number
}

/** Top-level `page.flash` (Inertia v3 first-class flash data). */
export interface FlashData {
  error?: string
  warning?: string
  success?: string
  /** Auth pages: a status message (red with a type, green without), or a status code such as 'verification-link-sent' */
  status?: string | { message: string; type?: 'error' }
  /** Two-factor set-up: the new recovery codes, shown once */
  recoveryCodes?: string[]
}

export interface Breadcrumb {
  /** Sanitised HTML with only strong, b, em, i and br (escapeHtml for plain text) */
  name: SafeHtml
  url: string | null
}
