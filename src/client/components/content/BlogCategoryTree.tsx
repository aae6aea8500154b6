/** The blog's category tree (one level of children), hidden on small screens. */
import { Link } from '@inertiajs/react'
import type { BlogCategoryLink } from '../../../shared/content.ts'

export function BlogCategoryTree({ tree, active }: { tree: BlogCategoryLink[]; active: string | null }) {
  if (tree.length === 0) return null
  const linkClass = (uuid: string) =>
    `block rounded px-2 py-1 hover:bg-gray-100 ${uuid === active ? 'font-semibold text-primary' : ''}`
  return (
    <nav aria-label="Blog categories" className="hidden md:block" data-testid="blog-tree">
      <h2 className="mb-2 text-sm font-semibold uppercase tracking-wide text-gray-600">Categories</h2>
      <ul className="space-y-1">
        {tree.map((c) => (
          <li key={c.uuid}>
            <Link
              href={c.url}
              className={linkClass(c.uuid)}
              aria-current={c.uuid === active ? 'page' : undefined}
            >
              {c.name}
            </Link>
            {c.children.length > 0 && (
              <ul className="ml-4 space-y-1">
                {c.children.map((k) => (
                  <li key={k.uuid}>
                    <Link
                      href={k.url}
                      className={linkClass(k.uuid)}
                      aria-current={k.uuid === active ? 'page' : undefined}
                    >
                      {k.name}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </nav>
  )
}
