/** HTML that the server rendered from rich text and sanitised (see content.presenter.ts). */
export function Html({ html, className }: { html: unknown; className?: string }) {
  if (typeof html !== 'string' || html === '') return null
  return <div className={`prose-content ${className ?? ''}`} dangerouslySetInnerHTML={{ __html: html }} />
}
