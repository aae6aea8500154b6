/** Desktop navigation bar (md and up): default height 42 px, text size 18 px; children fly out. */
import { Link } from '@inertiajs/react'
import type { NavItem } from '../../shared/page-props.ts'
import { ChevronDownIcon } from './icons.tsx'

export function MainNavigation({ items }: { items: readonly NavItem[] }) {
  if (items.length === 0) return null
  return (
    <nav aria-label="Main" className="focus-on-primary hidden bg-primary text-on-primary md:block">
      <ul className="mx-auto flex min-h-nav max-w-page flex-wrap items-stretch px-4 text-nav">
        {items.map((item) => (
          <li key={item.url + item.label} className="group relative flex">
            <Link
              href={item.url}
              className="flex items-center gap-1 px-3 py-1 hover:bg-black/15 focus-visible:bg-black/15"
            >
              {item.label}
              {item.children?.length ? <ChevronDownIcon className="text-sm opacity-80" /> : null}
            </Link>
            {item.children?.length ? (
              <ul className="focus-on-page invisible absolute top-full left-0 z-50 min-w-56 rounded-b-md border border-gray-200 bg-white py-1 text-base text-gray-900 shadow-lg group-focus-within:visible group-hover:visible">
                {item.children.map((child) => (
                  <li key={child.url + child.label}>
                    <Link href={child.url} className="block px-4 py-2 hover:bg-gray-100">
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
