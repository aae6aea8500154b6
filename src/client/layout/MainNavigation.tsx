/** Desktop navigation bar (md and up): default height 42 px, text size 18 px; children fly out. */
import { Link } from '@inertiajs/react'
import type { NavItem } from '../../shared/page-props.ts'
import { ChevronDownIcon } from './icons.tsx'

export function MainNavigation({ items }: { items: readonly NavItem[] }) {
  if (items.length === 0) return null
  return (
    <nav aria-label="Main" className="focus-on-primary nav-main">
      <ul className="nav-list">
        {items.map((item) => (
          <li key={item.url + item.label}>
            <Link href={item.url}>
              {item.label}
              {item.children?.length ? <ChevronDownIcon className="text-sm opacity-80" /> : null}
            </Link>
            {item.children?.length ? (
              <ul className="focus-on-page nav-sub">
                {item.children.map((child) => (
                  <li key={child.url + child.label}>
                    <Link href={child.url} className="nav-sublink">
                      {child.label}
                    </Link>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </nav>
  )
}
