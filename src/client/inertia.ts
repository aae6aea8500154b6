/** Options shared by the browser entry (app.tsx) and the SSR entry (ssr.tsx). */
import type { ComponentType } from 'react'
import type { FlashData } from '../shared/page-props.ts'
import AuthLayout from './layout/AuthLayout.tsx'
import SiteLayout from './layout/SiteLayout.tsx'

/*
 * NOTE: @inertiajs/core's .d.ts files re-export with extensionless relative paths, which
 * TypeScript's NodeNext resolution cannot follow, so its types (Page, ...) arrive as `any`.
 * These local types describe what our entries actually rely on.
 */

/** The Inertia page object as the server sends it (protocol v3). */
export interface InertiaPage {
  component: string
  props: Record<string, unknown>
  url: string
  version: string | number | null
  flash?: FlashData
  [key: string]: unknown
}

/** What the SSR entry returns to the server. */
export interface SsrResult {
  head: string[]
  body: string
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- page components take their own props
export type PageModule = { default: ComponentType<any> }

/** Inertia component name -> glob key, e.g. 'Customer/Orders' -> './pages/Customer/Orders.tsx'. */
export function pagePath(name: string): string {
  return `./pages/${name}.tsx`
}

export class PageNotFoundError extends Error {
  constructor(name: string) {
    super(`Page component not found: ${name}`)
    this.name = 'PageNotFoundError'
  }
}

/** Pages pass complete titles built by src/shared/titles.ts, so the title is used as is. */
export function title(text: string): string {
  return text
}

/** Every page gets the site layout (Auth/* pages the authentication layout) unless it sets its own `layout`. */
export function layout(name?: string): ComponentType {
  return (name?.startsWith('Auth/') ? AuthLayout : SiteLayout) as ComponentType
}

/** Default colour of the navigation progress bar when the site has no primary colour. */
export const PROGRESS_COLOUR = '#1f3a5f'
