/** Columns: side by side from 768 px, stacked below; each column holds blocks. */
import type { PresentedBlok } from '../../../shared/content.ts'
import { list, type NestedBlocks } from './fields.ts'

const GRID: Record<number, string> = { 1: '', 2: 'md:grid-cols-2', 3: 'md:grid-cols-3', 4: 'md:grid-cols-4' }

export function ColumnsBlock({ blok, Blocks }: { blok: PresentedBlok; Blocks: NestedBlocks }) {
  const columns = list(blok.columns).slice(0, 4)
  return (
    <div className={`grid gap-6 ${GRID[columns.length] ?? ''}`}>
      {columns.map((c, i) => (
        <div key={c._uid ?? i}>
          <Blocks blocks={c.body} className="space-y-4" />
        </div>
      ))}
    </div>
  )
}
