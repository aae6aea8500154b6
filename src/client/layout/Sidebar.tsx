/**
 * Optional left sidebar (site.showSidebar), hidden on small screens: 260 px, 1 px #DDD border.
 * It comes before the page's content, so its title is not a heading: the page's h1 is the first
 * heading (WCAG 1.3.1, 2.4.6); the title names the category navigation instead.
 */
import { Link } from '@inertiajs/react'
import { useId } from 'react'
import type { NavItem } from '../../shared/page-props.ts'

export function Sidebar({ items }: { items: readonly NavItem[] }) {
  const titleId = useId()
  return (
    <aside
      aria-label="Sidebar"
      className="hidden w-sidebar shrink-0 self-start border border-sidebar-border bg-white text-sidebar-text md:block"
    >
      <p id={titleId} className="bg-sidebar-heading px-3 py-2 text-base font-semibold">
        Shop by category
      </p>
      {items.length > 0 && (
        <nav aria-labelledby={titleId}>
          <ul className="divide-y divide-sidebar-border">
            {items.map((item) => (
              <li key={item.url + item.label}>
                <Link href={item.url} className="block px-3 py-2 hover:bg-gray-100">
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </aside>
  )
}
