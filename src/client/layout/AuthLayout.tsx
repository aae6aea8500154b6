/**
 * The authentication layout (spec: "shows a logo linking to the root path"). The sign-in pages
 * keep the shop around them: the header with the site's logo linking home (drawn for the
 * header's own colours, so the brand name stays readable), the search, the Login link and the
 * basket summary, and the footer; the form sits in a narrow card.
 */
import type { ReactNode } from 'react'
import { ShopLayout } from './SiteLayout.tsx'

export default function AuthLayout({ children }: { children?: ReactNode }) {
  return <ShopLayout auth>{children}</ShopLayout>
}
