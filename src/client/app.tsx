/**
 * Browser entry. Hydrates the server-rendered page (or renders it when SSR was skipped):
 * without `setup`, createInertiaApp calls hydrateRoot when the mount element has
 * data-server-rendered. The XSRF-TOKEN cookie set by the server is sent back as
 * X-XSRF-TOKEN by Inertia's HTTP client.
 */
import './app.css'
import { getInitialPageFromDOM } from '@inertiajs/core'
import { createInertiaApp } from '@inertiajs/react'
import type { SiteProps } from '../shared/page-props.ts'
import {
  PROGRESS_COLOUR,
  PageNotFoundError,
  layout,
  pagePath,
  title,
  type InertiaPage,
  type PageModule,
} from './inertia.ts'

const pages = import.meta.glob<PageModule>('./pages/**/*.tsx')

const initialSite = getInitialPageFromDOM<InertiaPage>('app')?.props.site as SiteProps | undefined

void createInertiaApp({
  resolve: async (name: string) => {
    const load = pages[pagePath(name)]
    if (!load) throw new PageNotFoundError(name)
    return (await load()).default
  },
  title,
  layout,
  progress: {
    delay: 250,
    color: initialSite?.theme.colours.primary || PROGRESS_COLOUR,
  },
})
