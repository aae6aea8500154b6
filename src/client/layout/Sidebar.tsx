/** Optional left sidebar (site.showSidebar), hidden on small screens: 260 px, 1 px #DDD border. */
import { Link } from '@inertiajs/react'
import type { NavItem } from '../../shared/page-props.ts'

export function Sidebar({ items }: { items: readonly NavItem[] }) {
  return (
    <aside
      aria-label="Sidebar"
      className="hidden w-sidebar shrink-0 self-start border border-sidebar-border bg-white text-sidebar-text md:block"
    >
      <h2 className="bg-sidebar-heading px-3 py-2 text-base font-semibold">Shop by category</h2>
      {items.length > 0 && (
        <nav aria-label="Categories">
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
