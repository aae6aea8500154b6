/**
 * Tables from content. Simple: Storyblok's table field (thead values, tbody rows of values), all
 * text. Complex: rows of cells, each a th or td with colspan and text_align; cell content is
 * sanitised HTML.
 */
import { HtmlContent } from '../SafeHtml.tsx'
import { presentedBlockHtml } from '../../../shared/safe-html.ts'
import type { PresentedBlok } from '../../../shared/content.ts'
import { list, num, str } from './fields.ts'

const tableClass =
  'w-full border-collapse text-left text-sm [&_td]:border [&_td]:border-gray-200 [&_td]:p-2 [&_th]:border [&_th]:border-gray-200 [&_th]:bg-gray-50 [&_th]:p-2'

export function SimpleTable({ blok }: { blok: PresentedBlok }) {
  const table = (blok.table ?? {}) as { thead?: unknown; tbody?: unknown }
  const head = list(table.thead)
  const rows = list(table.tbody)
  const caption = str(blok.caption)
  return (
    <div className="overflow-x-auto">
      <table className={tableClass}>
        {caption ? <caption className="mb-2 text-left font-semibold">{caption}</caption> : null}
        {head.length > 0 && (
          <thead>
            <tr>
              {head.map((h, i) => (
                <th key={h._uid ?? i} scope="col">
                  {str(h.value)}
                </th>
              ))}
            </tr>
          </thead>
        )}
        <tbody>
          {rows.map((r, i) => (
            <tr key={r._uid ?? i}>
              {list(r.body).map((c, j) => (
                <td key={c._uid ?? j}>{str(c.value)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

const ALIGN: Record<string, string> = { left: 'text-left', center: 'text-center', right: 'text-right' }

export function ComplexTable({ blok }: { blok: PresentedBlok }) {
  const caption = str(blok.caption)
  return (
    <div className="overflow-x-auto">
      <table className={tableClass}>
        {caption ? <caption className="mb-2 text-left font-semibold">{caption}</caption> : null}
        <tbody>
          {list(blok.rows).map((row, i) => (
            <tr key={row._uid ?? i}>
              {list(row.cells).map((cell, j) => {
                const Tag = cell.type === 'th' ? 'th' : 'td'
                const colSpan = Math.min(20, Math.max(1, Math.floor(num(cell.colspan, 1))))
                return (
                  <HtmlContent
                    as={Tag}
                    keepEmpty
                    key={cell._uid ?? j}
                    colSpan={colSpan > 1 ? colSpan : undefined}
                    scope={Tag === 'th' ? (i === 0 ? 'col' : 'row') : undefined}
                    className={ALIGN[str(cell.text_align)] ?? ''}
                    html={presentedBlockHtml(cell.content)}
                  />
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
