import fp from 'fastify-plugin'
import { afterEach, describe, expect, it } from 'vitest'
import Fastify, { type FastifyInstance } from 'fastify'
import { inertiaPlugin, renderErrorPage } from '../../../src/server/inertia/plugin.ts'
import { createTestApp, inertiaHeaders, pageFromHtml, plainDocument } from '../../support/inertia-testing.ts'

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

const xhr = () => inertiaHeaders({ version: '1' })

/** Registered before the Inertia plugin: fails some requests before Inertia's own onRequest hook. */
const earlyGuard = fp(async (a: FastifyInstance) => {
  a.addHook('onRequest', async (req) => {
    if (req.url === '/limited') throw Object.assign(new Error('Too many requests'), { statusCode: 429 })
  })
})

async function errorApp(share?: (req: unknown) => Record<string, unknown>) {
  return createTestApp({ share: share ?? (() => ({ site: { name: 'Shop' } })) }, (a) => {
    a.get('/boom', async () => {
      throw new Error('database exploded')
    })
    a.post('/boom', async () => {
      throw new Error('database exploded')
    })
    a.get('/moved', async () => {
      throw Object.assign(new Error('moved'), { statusCode: 410 })
    })
    a.setErrorHandler((error, req, reply) => {
      const status = (error as { statusCode?: number }).statusCode ?? 500
      if (status === 410) return reply.redirect('/new-home')
      return reply.inertia.render('Error', { status }, { status })
    })
    a.setNotFoundHandler((req, reply) => renderErrorPage(reply, 'NotFound', { path: req.url }, 404))
  })
}

describe('error pages', () => {
  it('renders the error page as JSON with the original status for Inertia visits', async () => {
    app = await errorApp()
    for (const method of ['GET', 'POST'] as const) {
      const res = await app.inject({ method, url: '/boom', headers: xhr() })
      expect(res.statusCode).toBe(500)
      expect(res.headers['x-inertia']).toBe('true')
      expect(res.json()).toMatchObject({
        component: 'Error',
        props: { status: 500, site: { name: 'Shop' }, errors: {} },
      })
    }
  })

  it('renders the error page as HTML with the original status on first loads', async () => {
    app = await errorApp()
    const res = await app.inject({ method: 'GET', url: '/boom' })
    expect(res.statusCode).toBe(500)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(pageFromHtml(res.body)).toMatchObject({
      component: 'Error',
      props: { status: 500, site: { name: 'Shop' } },
    })
  })

  it('renders a not-found page with status 404', async () => {
    app = await errorApp()
    const html = await app.inject({ method: 'GET', url: '/missing?x=1' })
    expect(html.statusCode).toBe(404)
    expect(pageFromHtml(html.body)).toMatchObject({
      component: 'NotFound',
      props: { path: '/missing?x=1' },
      url: '/missing?x=1',
    })
    const json = await app.inject({ method: 'GET', url: '/missing', headers: xhr() })
    expect(json.statusCode).toBe(404)
    expect(json.json().component).toBe('NotFound')
  })

  it('still renders the error page when the shared-props provider throws', async () => {
    app = await errorApp(() => {
      throw new Error('site lookup failed')
    })
    const res = await app.inject({ method: 'GET', url: '/boom', headers: xhr() })
    expect(res.statusCode).toBe(500)
    expect(res.json()).toMatchObject({ component: 'Error', props: { status: 500, errors: {} } })
  })

  it('keeps the shared props that resolve and drops the ones that throw', async () => {
    app = await errorApp(() => ({
      site: { name: 'Shop' },
      cart: async () => {
        throw new Error('cart service down')
      },
    }))
    const res = await app.inject({ method: 'GET', url: '/boom', headers: xhr() })
    expect(res.statusCode).toBe(500)
    expect(res.json().props).toEqual({ site: { name: 'Shop' }, status: 500, errors: {} })
  })

  it('lets redirects from the error handler through', async () => {
    app = await errorApp()
    const res = await app.inject({ method: 'GET', url: '/moved', headers: xhr() })
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe('/new-home')
  })

  it('renders error pages for requests that failed before the Inertia plugin saw them', async () => {
    app = Fastify({ logger: false })
    await app.register(earlyGuard)
    await app.register(inertiaPlugin, { version: '1', document: plainDocument })
    app.get('/limited', async () => 'never')
    app.setErrorHandler((error, req, reply) =>
      reply.inertia.render('Error', { status: 429 }, { status: 429 }),
    )
    const res = await app.inject({ method: 'GET', url: '/limited', headers: xhr() })
    expect(res.statusCode).toBe(429)
    expect(res.headers.vary).toBe('X-Inertia')
    expect(res.json()).toMatchObject({ component: 'Error', props: { status: 429, errors: {} } })
  })
})
