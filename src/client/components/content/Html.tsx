import { presentedBlockHtml } from '../../../shared/safe-html.ts'
import { HtmlContent } from '../SafeHtml.tsx'

/**
 * A rich-text field of a presented content block (the content presenter sanitised it), or safe
 * HTML from elsewhere.
 */
export function Html({ html, className }: { html: unknown; className?: string }) {
  return <HtmlContent html={presentedBlockHtml(html)} className={`prose-content ${className ?? ''}`} />
}
