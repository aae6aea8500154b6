import { afterEach, describe, expect, it, vi } from 'vitest'
import type { FastifyInstance } from 'fastify'
import type { Page } from '../../../src/server/inertia/page.ts'
import { createModuleSsrRenderer, type SsrRenderer } from '../../../src/server/inertia/ssr.ts'
import { createTestApp, inertiaHeaders, pageFromHtml } from '../../support/inertia-testing.ts'

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

function fakeSsr(): SsrRenderer & { calls: Page[] } {
  const calls: Page[] = []
  const renderer = async (page: Page) => {
    calls.push(page)
    return {
      head: [
        '<title data-inertia="">Mug - Shop</title>',
        '<meta name="description" content="x" data-inertia="description">',
      ],
      body: `<script data-page="app" type="application/json">{}</script><div data-server-rendered="true" id="app"><h1>${page.component}</h1></div>`,
    }
  }
  return Object.assign(renderer, { calls })
}

function routes(a: FastifyInstance): void {
  a.get('/products/7', (req, reply) => reply.inertia.render('Products/Show', { name: 'Mug' }))
  a.get('/account', (req, reply) => reply.inertia.render('Account'))
}

describe('server-side rendering', () => {
  it('sends the client-side shell when SSR is off', async () => {
    app = await createTestApp({ ssr: null }, routes)
    const res = await app.inject({ method: 'GET', url: '/products/7' })
    expect(
      res.body.startsWith(
        '<!doctype html><html><head><title>Test</title></head><body><script data-page="app"',
      ),
    ).toBe(true)
    expect(pageFromHtml(res.body)?.component).toBe('Products/Show')
    expect(res.body).toContain('<div id="app"></div>')
  })

  it('prints the SSR head in the head and the SSR body instead of the shell', async () => {
    const ssr = fakeSsr()
    app = await createTestApp({ ssr }, routes)
    const res = await app.inject({ method: 'GET', url: '/products/7' })
    expect(res.body).toContain(
      '<head><title>Test</title><title data-inertia="">Mug - Shop</title>\n<meta name="description" content="x" data-inertia="description"></head>',
    )
    expect(res.body).toContain('<div data-server-rendered="true" id="app"><h1>Products/Show</h1></div>')
    expect(res.body).not.toContain('<div id="app"></div>')
    expect(ssr.calls).toHaveLength(1)
    expect(ssr.calls[0]).toMatchObject({
      component: 'Products/Show',
      props: { name: 'Mug' },
      url: '/products/7',
    })
  })

  it('never renders on the server for Inertia visits', async () => {
    const ssr = fakeSsr()
    app = await createTestApp({ ssr }, routes)
    const res = await app.inject({
      method: 'GET',
      url: '/products/7',
      headers: inertiaHeaders({ version: '1' }),
    })
    expect(res.json().component).toBe('Products/Show')
    expect(ssr.calls).toHaveLength(0)
  })

  it('skips SSR for excluded routes', async () => {
    const ssr = fakeSsr()
    app = await createTestApp({ ssr, ssrExcept: (req) => req.url.startsWith('/account') }, routes)
    const res = await app.inject({ method: 'GET', url: '/account' })
    expect(res.body).toContain('<div id="app"></div>')
    expect(ssr.calls).toHaveLength(0)
  })

  it('falls back to client-side rendering and logs when the render throws', async () => {
    const render = vi.fn(async () => {
      throw new ReferenceError('window is not defined')
    })
    const logged: unknown[] = []
    app = await createTestApp({ ssr: createModuleSsrRenderer(async () => ({ default: render })) }, (a) => {
      a.addHook('onRequest', async (req) => {
        req.log.error = ((obj: unknown) => logged.push(obj)) as typeof req.log.error
      })
      routes(a)
    })
    const res = await app.inject({ method: 'GET', url: '/products/7' })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('<div id="app"></div>')
    expect(pageFromHtml(res.body)?.component).toBe('Products/Show')
    expect(render).toHaveBeenCalledOnce()
    expect(logged).toHaveLength(1)
  })

  it('falls back when a custom renderer rejects or returns null', async () => {
    app = await createTestApp({ ssr: async () => Promise.reject(new Error('boom')) }, routes)
    expect((await app.inject({ method: 'GET', url: '/products/7' })).body).toContain('<div id="app"></div>')
    await app.close()
    app = await createTestApp({ ssr: async () => null }, routes)
    expect((await app.inject({ method: 'GET', url: '/products/7' })).body).toContain('<div id="app"></div>')
  })

  it('renders on the server at most once per request, even when the error page renders after a failure', async () => {
    const ssr = fakeSsr()
    app = await createTestApp(
      {
        ssr,
        document: ({ page, head, body }) => {
          if (page.component === 'Broken') throw new Error('template failed')
          return `<html><head>${head}</head><body>${body}</body></html>`
        },
      },
      (a) => {
        a.get('/broken', (req, reply) => reply.inertia.render('Broken'))
        a.setErrorHandler((error, req, reply) =>
          reply.inertia.render('Error', { status: 500 }, { status: 500 }),
        )
      },
    )
    const res = await app.inject({ method: 'GET', url: '/broken' })
    expect(res.statusCode).toBe(500)
    expect(pageFromHtml(res.body)?.component).toBe('Error')
    expect(ssr.calls.map((p) => p.component)).toEqual(['Broken'])
  })
})
