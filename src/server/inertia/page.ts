/**
 * The page object (inertia.md §1.5) and its embedding in HTML (§1.6).
 */
import type { PropsMetadata } from './resolve-props.ts'
import { escapeHtml as escapeAttribute } from '../../shared/safe-html.ts'

/** The page object sent to the client, as `@inertiajs/core` 3.7 reads it (internal fields left out). */
export interface Page<Props extends Record<string, unknown> = Record<string, unknown>> extends PropsMetadata {
  component: string
  props: Props & { errors: unknown }
  url: string
  version: string | null
  clearHistory?: boolean
  encryptHistory?: boolean
  flash?: Record<string, unknown>
  preserveFragment?: boolean
}

export interface PageInput {
  component: string
  props: Record<string, unknown> & { errors: unknown }
  url: string
  version: string | null
  metadata: PropsMetadata
  flash?: Record<string, unknown> | null
  clearHistory?: boolean
  encryptHistory?: boolean
  preserveFragment?: boolean
}

/**
 * Builds the page object with the field order Laravel v3 uses. Metadata that is empty, flash that
 * is empty and history flags that are false are left out (v3 sends them only when set).
 */
export function buildPage(input: PageInput): Page {
  const { metadata } = input
  const page: Page = {
    component: input.component,
    props: input.props,
    url: input.url,
    version: input.version,
  }
  if (metadata.sharedProps) page.sharedProps = metadata.sharedProps
  if (metadata.mergeProps) page.mergeProps = metadata.mergeProps
  if (metadata.prependProps) page.prependProps = metadata.prependProps
  if (metadata.deepMergeProps) page.deepMergeProps = metadata.deepMergeProps
  if (metadata.matchPropsOn) page.matchPropsOn = metadata.matchPropsOn
  if (metadata.deferredProps) page.deferredProps = metadata.deferredProps
  if (metadata.rescuedProps) page.rescuedProps = metadata.rescuedProps
  if (metadata.scrollProps) page.scrollProps = metadata.scrollProps
  if (metadata.onceProps) page.onceProps = metadata.onceProps
  if (input.clearHistory) page.clearHistory = true
  if (input.encryptHistory) page.encryptHistory = true
  if (input.flash && Object.keys(input.flash).length > 0) page.flash = input.flash
  if (input.preserveFragment) page.preserveFragment = true
  return page
}

/**
 * JSON for the `<script type="application/json">` element: every `<` becomes `\u003c`, a valid
 * JSON escape, so `JSON.parse` in the browser gives back the same object and no `</script` or
 * `<!--` can appear. Slashes stay as they are: without a `<` before it a `/` ends nothing
 * (`@inertiajs/core` also writes `\/`, a byte for each of a page's ~90 paths; issue 18).
 * No HTML entities: the browser does not decode entities inside a script element.
 */
export function serializePageForHtml(page: Page): string {
  return JSON.stringify(page).replace(/</g, '\\u003c')
}

/** The client-side-rendering body: the page script followed by the empty mount element. */
export function clientSideBody(page: Page, id = 'app'): string {
  const safeId = escapeAttribute(id)
  return (
    `<script data-page="${safeId}" type="application/json">${serializePageForHtml(page)}</script>` +
    `<div id="${safeId}"></div>`
  )
}
