/** Downloadable files ('data sheets') with their file type label. */
import type { DataSheet } from '../../../shared/product.ts'

export function DataSheets({ files }: { files: DataSheet[] }) {
  if (files.length === 0) return null
  return (
    <section aria-labelledby="data-sheets-heading" className="mt-4" data-testid="data-sheets">
      <h2 id="data-sheets-heading" className="text-base font-semibold">
        Data sheets
      </h2>
      <ul className="mt-2 space-y-1">
        {files.map((file) => (
          <li key={`${file.id}-${file.url}`}>
            <a
              href={file.url}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-2 text-primary underline-offset-2 hover:underline"
            >
              <span
                className="rounded bg-gray-700 px-1.5 py-0.5 text-xs font-bold text-white uppercase"
                data-file-type={file.label}
              >
                {file.label}
              </span>
              <span>{file.name}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  )
}
