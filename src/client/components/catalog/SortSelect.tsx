/**
 * The 'Sort by' select of a listing. Choosing an option visits the listing address with the new
 * `sort` and without `page`. Without JavaScript it is a plain GET form (the other query
 * parameters, such as a search term, travel as hidden fields).
 */
import { router, usePage } from '@inertiajs/react'
import { useId } from 'react'
import { sortHref } from '../../../shared/pagination.ts'
import { SORT_OPTIONS, type SortKey } from '../../../shared/sorting.ts'

function splitUrl(url: string): { path: string; params: [string, string][] } {
  const [path = '/', query = ''] = url.split('#', 1)[0]!.split('?', 2)
  return { path, params: [...new URLSearchParams(query)] }
}

export function SortSelect({ value, className = '' }: { value: SortKey; className?: string }) {
  const { url } = usePage()
  const id = useId()
  const { path, params } = splitUrl(url)
  const kept = params.filter(([k]) => k !== 'sort' && k !== 'page')
  return (
    <form
      method="get"
      action={path}
      className={`flex items-center gap-2 ${className}`}
      onSubmit={(e) => {
        e.preventDefault()
        const select = e.currentTarget.elements.namedItem('sort') as HTMLSelectElement | null
        router.visit(sortHref(url, select?.value ?? ''), { preserveScroll: true })
      }}
    >
      {kept.map(([k, v], i) => (
        <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
      ))}
      <label htmlFor={id} className="text-sm font-medium whitespace-nowrap text-gray-800">
        Sort by
      </label>
      <select
        // Remounted when the page answers with another sort, so it always shows the current one.
        key={value}
        id={id}
        name="sort"
        defaultValue={value}
        onChange={(e) => router.visit(sortHref(url, e.target.value), { preserveScroll: true })}
        className="rounded-md border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 shadow-sm focus:border-primary"
        data-testid="sort-select"
      >
        {SORT_OPTIONS.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </form>
  )
}
