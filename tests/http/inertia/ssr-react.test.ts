/**
 * SSR with the real @inertiajs/react 3.7 + React 19 in-process, through createModuleSsrRenderer:
 * the head reaches <head>, the server-rendered markup replaces the shell, and the page embedded by
 * the client library is the page the adapter built.
 */
import { createInertiaApp, Head, usePage } from '@inertiajs/react'
import { createElement, type ComponentType } from 'react'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import type { Page } from '../../../src/server/inertia/page.ts'
import { createModuleSsrRenderer, type SsrResult } from '../../../src/server/inertia/ssr.ts'
import { createTestApp, pageFromHtml } from '../../support/inertia-testing.ts'

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

function ProductShow({ name }: { name: string }) {
  const page = usePage<{ site: { name: string } }>()
  return createElement(
    'main',
    null,
    createElement(Head, { title: name }),
    createElement('h1', null, name),
    createElement('p', null, page.props.site.name),
  )
}

const pages: Record<string, ComponentType<never>> = { 'Products/Show': ProductShow as ComponentType<never> }

/** What src/client/ssr.tsx looks like (shape A in inertia.md §3.2). */
const ssrModule = {
  default: (page: Page) =>
    createInertiaApp({
      page: page as never,
      render: renderToString,
      resolve: (name: string) => pages[name] as never,
      title: (t: string) => (t ? `${t} - Shop` : 'Shop'),
      setup: ({ App, props }) => createElement(App, props),
    }) as unknown as Promise<SsrResult>,
}

describe('SSR with @inertiajs/react', () => {
  it('renders the page on the server and embeds the same page object', async () => {
    app = await createTestApp(
      {
        ssr: createModuleSsrRenderer(async () => ssrModule),
        share: () => ({ site: { name: 'Acme </script>' } }),
      },
      (a) => {
        a.get('/products/7', (req, reply) => reply.inertia.render('Products/Show', { name: 'Mug <b>' }))
      },
    )
    const res = await app.inject({ method: 'GET', url: '/products/7' })
    expect(res.statusCode).toBe(200)
    expect(res.body).toMatch(
      /<head><title>Test<\/title><title data-inertia="">Mug &lt;b&gt; - Shop<\/title><\/head>/,
    )
    expect(res.body).toContain('<div data-server-rendered="true" id="app">')
    expect(res.body).toContain('<h1>Mug &lt;b&gt;</h1>')
    expect(pageFromHtml(res.body)).toEqual({
      component: 'Products/Show',
      props: { site: { name: 'Acme </script>' }, name: 'Mug <b>', errors: {} },
      url: '/products/7',
      version: '1',
      sharedProps: ['site', 'errors'],
    })
  })
})
