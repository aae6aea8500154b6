import { afterEach, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { createTestApp, inertiaHeaders, pageFromHtml, TestClient } from '../../support/inertia-testing.ts'

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

const xhr = (extra: Parameters<typeof inertiaHeaders>[0] = {}) => inertiaHeaders({ version: '1', ...extra })

/** A session store that counts writes, to prove anonymous page views never create a session. */
class CountingStore {
  readonly data = new Map<string, unknown>()
  writes = 0
  set(id: string, session: unknown, cb: (err?: unknown) => void): void {
    this.writes++
    this.data.set(id, JSON.parse(JSON.stringify(session)))
    cb()
  }
  get(id: string, cb: (err: unknown, session?: unknown) => void): void {
    cb(null, this.data.get(id) ?? null)
  }
  destroy(id: string, cb: (err?: unknown) => void): void {
    this.data.delete(id)
    cb()
  }
}

function routes(a: FastifyInstance): void {
  a.get('/', (req, reply) => reply.inertia.render('Home'))
  a.get('/cart', (req, reply) => reply.inertia.render('Cart'))
  a.post('/cart', (req, reply) => {
    req.inertia.flash('success', 'Added to basket')
    return reply.inertia.redirect('/cart')
  })
  a.post('/hop', (req, reply) => {
    req.inertia.flash({ success: 'Hopped' })
    return reply.inertia.redirect('/hop-two')
  })
  a.get('/hop-two', (req, reply) => reply.inertia.redirect('/cart'))
  a.get('/now', (req, reply) => {
    req.inertia.flash('warning', 'Low stock').flash({ info: 'Ships tomorrow' })
    return reply.inertia.render('Now')
  })
  a.post('/logout', (req, reply) => {
    req.inertia.clearHistory()
    return reply.inertia.redirect('/')
  })
  a.post('/review', (req, reply) => {
    req.inertia.preserveFragment()
    return reply.inertia.redirect('/cart')
  })
  a.get('/account', (req, reply) => {
    req.inertia.encryptHistory()
    return reply.inertia.render('Account')
  })
  a.get('/broken', (req, reply) =>
    reply.inertia.render('Broken', {
      stock: () => {
        throw new Error('stock service down')
      },
    }),
  )
  a.get('/public', (req, reply) => {
    req.inertia.encryptHistory(false)
    return reply.inertia.render('Public')
  })
}

describe('flash data', () => {
  it('carries flash through a redirect to the next page only', async () => {
    app = await createTestApp({}, routes)
    const client = new TestClient(app)
    const post = await client.request({ method: 'POST', url: '/cart', headers: xhr() })
    expect(post.statusCode).toBe(303)
    const page = await client.get('/cart', xhr())
    expect(page.json().flash).toEqual({ success: 'Added to basket' })
    const later = await client.get('/cart', xhr())
    expect(later.json()).not.toHaveProperty('flash')
  })

  it('includes flash set while rendering and merges several flash calls', async () => {
    app = await createTestApp({}, routes)
    const res = await app.inject({ method: 'GET', url: '/now', headers: xhr() })
    expect(res.json().flash).toEqual({ warning: 'Low stock', info: 'Ships tomorrow' })
  })

  it('has no flash key without flash data', async () => {
    app = await createTestApp({}, routes)
    expect((await app.inject({ method: 'GET', url: '/', headers: xhr() })).json()).not.toHaveProperty('flash')
  })

  it('keeps flash across redirects of plain browser requests and chains of redirects', async () => {
    app = await createTestApp({}, routes)
    const client = new TestClient(app)
    expect((await client.request({ method: 'POST', url: '/hop' })).statusCode).toBe(303)
    expect((await client.get('/hop-two')).statusCode).toBe(302)
    const page = await client.get('/cart')
    expect(pageFromHtml(page.body)?.flash).toEqual({ success: 'Hopped' })
  })

  it('keeps flash across the version-mismatch 409', async () => {
    app = await createTestApp({}, routes)
    const client = new TestClient(app)
    await client.request({ method: 'POST', url: '/cart', headers: xhr() })
    expect((await client.get('/cart', inertiaHeaders({ version: 'stale' }))).statusCode).toBe(409)
    const reload = await client.get('/cart')
    expect(pageFromHtml(reload.body)?.flash).toEqual({ success: 'Added to basket' })
  })

  it('does not hand flash to a prefetch, leaving it for the real visit', async () => {
    app = await createTestApp({}, routes)
    const client = new TestClient(app)
    await client.request({ method: 'POST', url: '/cart', headers: xhr() })
    const prefetch = await client.get('/cart', xhr({ prefetch: true }))
    expect(prefetch.json()).not.toHaveProperty('flash')
    expect((await client.get('/cart', xhr())).json().flash).toEqual({ success: 'Added to basket' })
  })

  it('leaves flash for the next page when a HEAD request renders the page', async () => {
    app = await createTestApp({}, routes)
    const client = new TestClient(app)
    await client.request({ method: 'POST', url: '/cart', headers: xhr() })
    const head = await client.request({ method: 'HEAD', url: '/cart' })
    expect(head.statusCode).toBe(200)
    expect((await client.get('/cart', xhr())).json().flash).toEqual({ success: 'Added to basket' })
  })

  it('leaves flash for the next page when a prop fails and the page is never sent', async () => {
    app = await createTestApp({}, routes)
    const client = new TestClient(app)
    await client.request({ method: 'POST', url: '/cart', headers: xhr() })
    const broken = await client.get('/broken', xhr())
    expect(broken.statusCode).toBe(500)
    expect(broken.body).not.toContain('Added to basket')
    expect((await client.get('/cart', xhr())).json().flash).toEqual({ success: 'Added to basket' })
  })

  it('works without sessions: flash reaches a render in the same request only', async () => {
    app = await createTestApp({ withSession: false }, routes)
    expect((await app.inject({ method: 'GET', url: '/now', headers: xhr() })).json().flash).toEqual({
      warning: 'Low stock',
      info: 'Ships tomorrow',
    })
    expect((await app.inject({ method: 'POST', url: '/cart', headers: xhr() })).statusCode).toBe(303)
    expect((await app.inject({ method: 'GET', url: '/cart', headers: xhr() })).json()).not.toHaveProperty(
      'flash',
    )
  })
})

describe('session writes', () => {
  it('never writes a session for page views without flash or errors', async () => {
    const store = new CountingStore()
    app = await createTestApp({ sessionOptions: { store: store as never, rolling: false } }, routes)
    const client = new TestClient(app)
    const first = await client.get('/')
    const visit = await client.get('/cart', xhr())
    expect(first.headers['set-cookie']).toBeUndefined()
    expect(visit.headers['set-cookie']).toBeUndefined()
    expect(store.writes).toBe(0)
  })

  it('writes once to store flash and once to consume it, then stops writing', async () => {
    const store = new CountingStore()
    app = await createTestApp({ sessionOptions: { store: store as never, rolling: false } }, routes)
    const client = new TestClient(app)
    await client.request({ method: 'POST', url: '/cart', headers: xhr() })
    expect(store.writes).toBe(1)
    await client.get('/cart', xhr())
    expect(store.writes).toBe(2)
    await client.get('/cart', xhr())
    await client.get('/', xhr())
    expect(store.writes).toBe(2)
  })

  it('does not write when flash is set and consumed by the same render', async () => {
    const store = new CountingStore()
    app = await createTestApp({ sessionOptions: { store: store as never, rolling: false } }, routes)
    await app.inject({ method: 'GET', url: '/now', headers: xhr() })
    expect(store.writes).toBe(0)
  })
})

describe('history flags', () => {
  it('sends neither encryptHistory, clearHistory nor preserveFragment by default', async () => {
    app = await createTestApp({}, routes)
    const page = (await app.inject({ method: 'GET', url: '/', headers: xhr() })).json()
    expect(page).not.toHaveProperty('encryptHistory')
    expect(page).not.toHaveProperty('clearHistory')
    expect(page).not.toHaveProperty('preserveFragment')
  })

  it('encrypts history per request', async () => {
    app = await createTestApp({}, routes)
    expect((await app.inject({ method: 'GET', url: '/account', headers: xhr() })).json().encryptHistory).toBe(
      true,
    )
  })

  it('encrypts history globally with a per-request opt-out', async () => {
    app = await createTestApp({ encryptHistory: true }, routes)
    expect((await app.inject({ method: 'GET', url: '/', headers: xhr() })).json().encryptHistory).toBe(true)
    expect((await app.inject({ method: 'GET', url: '/public', headers: xhr() })).json()).not.toHaveProperty(
      'encryptHistory',
    )
  })

  it('clears history on the page after the redirect, once', async () => {
    app = await createTestApp({}, routes)
    const client = new TestClient(app)
    await client.request({ method: 'POST', url: '/logout', headers: xhr() })
    expect((await client.get('/', xhr())).json().clearHistory).toBe(true)
    expect((await client.get('/', xhr())).json()).not.toHaveProperty('clearHistory')
  })

  it('asks the client to preserve the fragment on the page after the redirect', async () => {
    app = await createTestApp({}, routes)
    const client = new TestClient(app)
    await client.request({ method: 'POST', url: '/review', headers: xhr() })
    expect((await client.get('/cart', xhr())).json().preserveFragment).toBe(true)
    expect((await client.get('/cart', xhr())).json()).not.toHaveProperty('preserveFragment')
  })
})
