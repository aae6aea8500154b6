/**
 * The only components that set inner HTML (ESLint forbids `dangerouslySetInnerHTML` anywhere else).
 * `HtmlContent` takes only `SafeHtml`, which only the sanitiser and the escaping helpers in
 * src/shared/safe-html.ts produce, so text typed by a visitor can never be rendered as markup.
 */
import type { HTMLAttributes, TdHTMLAttributes } from 'react'
import type { SafeHtml } from '../../shared/safe-html.ts'
import { safeStyleText } from '../lib/theme.ts'

type Tag = 'div' | 'span' | 'td' | 'th'

export type HtmlContentProps = {
  html: SafeHtml | null | undefined
  as?: Tag
  /** Render the element even when there is no HTML (e.g. a table cell) */
  keepEmpty?: boolean
} & Omit<HTMLAttributes<HTMLElement> & TdHTMLAttributes<HTMLElement>, 'children' | 'dangerouslySetInnerHTML'>

export function HtmlContent({ html, as = 'div', keepEmpty = false, ...rest }: HtmlContentProps) {
  if (!html && !keepEmpty) return null
  const Element = as
  return <Element {...rest} dangerouslySetInnerHTML={{ __html: html ?? '' }} />
}

/** Site or page CSS from the content system in a <style> element that it cannot close early. */
export function InlineStyle({
  css,
  ...rest
}: { css: string } & Omit<HTMLAttributes<HTMLStyleElement>, 'children'>) {
  return <style {...rest} dangerouslySetInnerHTML={{ __html: safeStyleText(css) }} />
}
