/**
 * The back office's own layout (ADR 0261): no brand, no basket, no shop navigation. A skip link,
 * a header with the sections the signed-in role may use (the same permission table as the
 * server's checks) and sign-out, and one main landmark, whose heading takes the focus after a
 * visit to another page.
 */
import { Link, usePage } from '@inertiajs/react'
import type { ReactNode } from 'react'
import { useFocusOnVisit } from '../lib/focus-on-visit.ts'
import { adminProps, csrfHeaders } from './admin-props.ts'

const SECTIONS = [
  { href: '/admin/orders', label: 'Orders', permission: 'orders.view' },
  { href: '/admin/payments', label: 'Payments to check', permission: 'payments.view' },
  { href: '/admin/customers', label: 'Customers', permission: 'customers.view' },
  { href: '/admin/catalogue', label: 'Catalogue', permission: 'catalogue.view' },
  { href: '/admin/promotions', label: 'Promotions', permission: 'promotions.view' },
  { href: '/admin/delivery', label: 'Delivery rates', permission: 'delivery.view' },
  { href: '/admin/content', label: 'Content', permission: 'content.view' },
  { href: '/admin/search', label: 'Search', permission: 'search.view' },
  { href: '/admin/tokens', label: 'API tokens', permission: 'tokens.manage' },
  { href: '/admin/webhooks', label: 'Webhooks', permission: 'webhooks.manage' },
  { href: '/admin/staff', label: 'Staff', permission: 'staff.manage' },
  { href: '/admin/audit', label: 'Audit log', permission: 'audit.read' },
] as const

export default function AdminLayout({ children }: { children?: ReactNode }) {
  const page = usePage()
  const { admin } = adminProps(page.props)
  // After going to another section, the keyboard starts from its heading, as on the shop.
  useFocusOnVisit('main')
  const path = page.url.split('?')[0] ?? ''
  return (
    <div className="min-h-screen bg-gray-50 text-gray-900">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <header className="bg-primary text-on-primary">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-1 px-4 py-2 sm:gap-y-2 sm:py-3">
          <p className="font-semibold">Shop back office</p>
          {admin.user ? (
            <nav
              aria-label="Back office"
              className="focus-on-primary flex flex-wrap gap-x-4 gap-y-1 text-sm sm:text-base"
            >
              {SECTIONS.filter((s) => admin.permissions.includes(s.permission)).map((s) => (
                <Link
                  key={s.href}
                  href={s.href}
                  aria-current={path.startsWith(s.href) ? 'page' : undefined}
                  className="inline-block py-0.5 underline-offset-4 hover:underline aria-[current=page]:underline"
                >
                  {s.label}
                </Link>
              ))}
            </nav>
          ) : null}
          {admin.user ? (
            <div className="focus-on-primary ml-auto flex items-center gap-3 text-sm">
              <span>
                {admin.user.name} ({admin.user.role})
              </span>
              <Link
                href="/admin/logout"
                method="post"
                as="button"
                headers={csrfHeaders(admin)}
                className="rounded border border-current px-2 py-1"
              >
                Sign out
              </Link>
            </div>
          ) : null}
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto max-w-6xl px-4 py-6 focus:outline-none">
        {children}
      </main>
    </div>
  )
}
