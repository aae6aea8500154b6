/**
 * SSR entry, imported in-process by the server (dist/ssr/ssr.js in production, through Vite in
 * development): `render(page)` returns the head tags and the body HTML for a first load.
 *
 * createInertiaApp() in its server "auto" shape is called once and returns a render function that
 * builds a fresh React tree and head collection per call, so nothing is shared between requests.
 */
import { createInertiaApp } from '@inertiajs/react'
import { renderToString } from 'react-dom/server'
import {
  PageNotFoundError,
  layout,
  pagePath,
  title,
  type InertiaPage,
  type PageModule,
  type SsrResult,
} from './inertia.ts'

const pages = import.meta.glob<PageModule>('./pages/**/*.tsx', { eager: true })

type RenderPage = (page: InertiaPage, render: typeof renderToString) => Promise<SsrResult>

let renderer: Promise<RenderPage> | undefined

function getRenderer(): Promise<RenderPage> {
  renderer ??= createInertiaApp({
    resolve: (name: string) => {
      const module = pages[pagePath(name)]
      if (!module) throw new PageNotFoundError(name)
      return module
    },
    title,
    layout,
  }) as unknown as Promise<RenderPage>
  return renderer
}

export default async function render(page: InertiaPage): Promise<SsrResult> {
  const renderPage = await getRenderer()
  return renderPage(page, renderToString)
}
