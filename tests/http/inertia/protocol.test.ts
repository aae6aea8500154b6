import { Readable } from 'node:stream'
import fp from 'fastify-plugin'
import { afterEach, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { createTestApp, inertiaHeaders, pageFromHtml } from '../../support/inertia-testing.ts'

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

const xhr = (version = '1') => inertiaHeaders({ version })

describe('first loads and Inertia visits', () => {
  it('answers a first load with an HTML document embedding the page', async () => {
    app = await createTestApp({}, (a) => {
      a.get('/products/:id', (req, reply) => reply.inertia.render('Products/Show', { id: 7 }))
    })
    const res = await app.inject({ method: 'GET', url: '/products/7?ref=home' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['x-inertia']).toBeUndefined()
    expect(res.headers.vary).toBe('X-Inertia')
    expect(res.body).toContain('<script data-page="app" type="application/json">')
    expect(res.body).toContain('<div id="app"></div>')
    expect(pageFromHtml(res.body)).toEqual({
      component: 'Products/Show',
      props: { id: 7, errors: {} },
      url: '/products/7?ref=home',
      version: '1',
      sharedProps: ['errors'],
    })
  })

  it('answers an Inertia visit with the JSON page object and X-Inertia', async () => {
    app = await createTestApp({}, (a) => {
      a.get('/', (req, reply) => reply.inertia.render('Home', { greeting: 'hi' }))
    })
    const res = await app.inject({ method: 'GET', url: '/?a[]=1&b=2', headers: xhr() })
    expect(res.statusCode).toBe(200)
    expect(res.headers['x-inertia']).toBe('true')
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.headers.vary).toBe('X-Inertia')
    expect(res.json()).toEqual({
      component: 'Home',
      props: { greeting: 'hi', errors: {} },
      url: '/?a[]=1&b=2',
      version: '1',
      sharedProps: ['errors'],
    })
  })

  it('keeps a trailing slash in the page url and lets a custom resolver change it', async () => {
    app = await createTestApp({ resolveUrl: (req) => `/shop${req.url}` }, (a) => {
      a.get('/about/', (req, reply) => reply.inertia.render('About'))
    })
    const res = await app.inject({ method: 'GET', url: '/about/?x=1', headers: xhr() })
    expect(res.json().url).toBe('/shop/about/?x=1')
  })

  it('renders with a per-response status and document template and a custom mount id', async () => {
    app = await createTestApp({ rootId: 'shop' }, (a) => {
      a.get('/special', (req, reply) =>
        reply.inertia.render('Special', {}, { status: 201, document: ({ body }) => `<main>${body}</main>` }),
      )
    })
    const res = await app.inject({ method: 'GET', url: '/special' })
    expect(res.statusCode).toBe(201)
    expect(res.body.startsWith('<main><script data-page="shop" type="application/json">')).toBe(true)
    expect(res.body).toContain('<div id="shop"></div></main>')
  })

  it('never sets X-Inertia on responses that are not pages, even for Inertia requests', async () => {
    app = await createTestApp({}, (a) => {
      a.get('/api/cart', async () => ({ count: 1 }))
    })
    const res = await app.inject({ method: 'GET', url: '/api/cart', headers: { accept: 'application/json' } })
    expect(res.headers['x-inertia']).toBeUndefined()
    expect(res.json()).toEqual({ count: 1 })
  })
})

describe('asset versioning', () => {
  function versionApp(version: InertiaVersion) {
    let handled = 0
    return {
      handled: () => handled,
      build: () =>
        createTestApp({ version }, (a) => {
          const handler = (req: unknown, reply: { inertia: { render: (c: string) => unknown } }) => {
            handled++
            return reply.inertia.render('Home')
          }
          a.get('/', handler as never)
          a.post('/', handler as never)
          a.put('/', handler as never)
        }),
    }
  }
  type InertiaVersion = string | number | (() => string | number)

  it('accepts a visit without version header when the server has no version', async () => {
    app = await versionApp('').build()
    const res = await app.inject({ method: 'GET', url: '/', headers: inertiaHeaders() })
    expect(res.statusCode).toBe(200)
    expect(res.json().version).toBe('')
  })

  it('compares a numeric or computed version as a string', async () => {
    app = await versionApp(1).build()
    expect((await app.inject({ method: 'GET', url: '/', headers: xhr('1') })).statusCode).toBe(200)
    await app.close()
    app = await versionApp(() => 'abc').build()
    expect((await app.inject({ method: 'GET', url: '/', headers: xhr('abc') })).statusCode).toBe(200)
  })

  it('answers a stale asset version on a GET visit with 409 and the current URL', async () => {
    const v = versionApp('new')
    app = await v.build()
    const res = await app.inject({ method: 'GET', url: '/?page=2&q=mug', headers: xhr('old') })
    expect(res.statusCode).toBe(409)
    expect(res.headers['x-inertia-location']).toBe('http://localhost:80/?page=2&q=mug')
    expect(res.headers['x-inertia-version']).toBe('new')
    expect(res.headers.vary).toBe('X-Inertia')
    expect(res.headers['x-inertia']).toBeUndefined()
    expect(res.body).toBe('')
    expect(v.handled()).toBe(0)
  })

  it('treats a missing version header as an empty version', async () => {
    app = await versionApp('1').build()
    const res = await app.inject({ method: 'GET', url: '/', headers: inertiaHeaders() })
    expect(res.statusCode).toBe(409)
  })

  it('does not check the version on POST and PUT visits or on first loads', async () => {
    const v = versionApp('new')
    app = await v.build()
    expect((await app.inject({ method: 'POST', url: '/', headers: xhr('old') })).statusCode).toBe(200)
    expect((await app.inject({ method: 'PUT', url: '/', headers: xhr('old') })).statusCode).toBe(200)
    const first = await app.inject({ method: 'GET', url: '/', headers: { 'x-inertia-version': 'old' } })
    expect(first.statusCode).toBe(200)
    expect(v.handled()).toBe(3)
  })
})

describe('Vary header', () => {
  it('adds X-Inertia to non-Inertia responses while keeping existing values', async () => {
    app = await createTestApp({}, (a) => {
      a.get('/plain', (req, reply) => reply.header('vary', 'Accept-Encoding').send({ ok: true }))
      a.get('/twice', (req, reply) => reply.header('vary', 'accept, x-inertia').send('x'))
    })
    expect((await app.inject({ method: 'GET', url: '/plain' })).headers.vary).toBe(
      'Accept-Encoding, X-Inertia',
    )
    expect((await app.inject({ method: 'GET', url: '/twice' })).headers.vary).toBe('accept, x-inertia')
  })

  it('sets Vary on 404 responses too', async () => {
    app = await createTestApp()
    expect((await app.inject({ method: 'GET', url: '/nowhere' })).headers.vary).toBe('X-Inertia')
  })
})

describe('redirects', () => {
  const otherPlugin = fp(async (a: FastifyInstance) => {
    a.addHook('preHandler', async (req, reply) => {
      if (req.url.startsWith('/guarded')) return reply.redirect('/login')
    })
  })

  async function redirectApp() {
    return createTestApp({}, async (a) => {
      await a.register(otherPlugin)
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        a.route({ method, url: '/item', handler: (req, reply) => reply.redirect('/items', 302) })
        a.route({ method, url: '/guarded', handler: (req, reply) => reply.send('never') })
      }
      a.get('/item', (req, reply) => reply.redirect('/items', 302))
      a.get('/frag', (req, reply) => reply.inertia.redirect('/products/1#reviews'))
      a.post('/frag', (req, reply) => reply.inertia.redirect('/products/1#reviews'))
    })
  }

  it('turns 302 into 303 after PUT, PATCH and DELETE Inertia visits, also for redirects from other plugins', async () => {
    app = await redirectApp()
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const res = await app.inject({ method, url: '/item', headers: xhr() })
      expect(res.statusCode).toBe(303)
      expect(res.headers.location).toBe('/items')
      const guarded = await app.inject({ method, url: '/guarded', headers: xhr() })
      expect(guarded.statusCode).toBe(303)
      expect(guarded.headers.location).toBe('/login')
    }
  })

  it('keeps 302 for POST visits, GET visits and requests that are not Inertia visits', async () => {
    app = await redirectApp()
    expect((await app.inject({ method: 'POST', url: '/item', headers: xhr() })).statusCode).toBe(302)
    expect((await app.inject({ method: 'GET', url: '/item', headers: xhr() })).statusCode).toBe(302)
    expect((await app.inject({ method: 'PUT', url: '/item' })).statusCode).toBe(302)
  })

  it('answers a redirect with a fragment with 409 X-Inertia-Redirect for GET and POST visits', async () => {
    app = await redirectApp()
    for (const method of ['GET', 'POST'] as const) {
      const res = await app.inject({ method, url: '/frag', headers: xhr() })
      expect(res.statusCode).toBe(409)
      expect(res.headers['x-inertia-redirect']).toBe('/products/1#reviews')
      expect(res.headers.location).toBeUndefined()
      expect(res.headers['x-inertia']).toBeUndefined()
      expect(res.body).toBe('')
    }
  })

  it('leaves fragment redirects alone for prefetches and requests that are not Inertia visits', async () => {
    app = await redirectApp()
    const prefetch = await app.inject({
      method: 'GET',
      url: '/frag',
      headers: inertiaHeaders({ version: '1', prefetch: true }),
    })
    expect(prefetch.statusCode).toBe(302)
    expect(prefetch.headers.location).toBe('/products/1#reviews')
    const plain = await app.inject({ method: 'POST', url: '/frag' })
    expect(plain.statusCode).toBe(303)
    expect(plain.headers.location).toBe('/products/1#reviews')
  })

  it('redirects back to a same-origin Referer and falls back otherwise', async () => {
    app = await createTestApp({}, (a) => {
      a.post('/back', (req, reply) => reply.inertia.back())
      a.post('/back-or-cart', (req, reply) => reply.inertia.back('/cart'))
    })
    const same = await app.inject({
      method: 'POST',
      url: '/back',
      headers: { referer: 'http://localhost:80/products?page=2' },
    })
    expect(same.statusCode).toBe(303)
    expect(same.headers.location).toBe('/products?page=2')
    const foreign = await app.inject({
      method: 'POST',
      url: '/back-or-cart',
      headers: { referer: 'https://evil.test/x' },
    })
    expect(foreign.headers.location).toBe('/cart')
    const none = await app.inject({ method: 'POST', url: '/back' })
    expect(none.headers.location).toBe('/')
  })

  it('answers location() with 409 X-Inertia-Location for Inertia visits and a 302 otherwise', async () => {
    app = await createTestApp({}, (a) => {
      a.post('/pay', (req, reply) => reply.inertia.location('https://checkout.example/session/1'))
    })
    const visit = await app.inject({ method: 'POST', url: '/pay', headers: xhr() })
    expect(visit.statusCode).toBe(409)
    expect(visit.headers['x-inertia-location']).toBe('https://checkout.example/session/1')
    expect(visit.headers['x-inertia']).toBeUndefined()
    expect(visit.body).toBe('')
    const plain = await app.inject({ method: 'POST', url: '/pay' })
    expect(plain.statusCode).toBe(302)
    expect(plain.headers.location).toBe('https://checkout.example/session/1')
  })
})

describe('empty responses', () => {
  async function emptyApp(options = {}) {
    return createTestApp(options, (a) => {
      a.put('/empty', (req, reply) => reply.send())
      a.post('/empty-string', (req, reply) => reply.send(''))
      a.post('/zero', (req, reply) => reply.type('text/plain').send('0'))
      a.post('/stream', (req, reply) => reply.type('text/plain').send(Readable.from([''])))
    })
  }
  const back = { referer: 'http://localhost:80/cart' }

  it('redirects an empty answer to an Inertia visit back to the previous page', async () => {
    app = await emptyApp()
    const put = await app.inject({ method: 'PUT', url: '/empty', headers: { ...xhr(), ...back } })
    expect(put.statusCode).toBe(303)
    expect(put.headers.location).toBe('/cart')
    const post = await app.inject({ method: 'POST', url: '/empty-string', headers: { ...xhr(), ...back } })
    expect(post.statusCode).toBe(302)
  })

  it('leaves "0", streams and requests that are not Inertia visits alone', async () => {
    app = await emptyApp()
    expect((await app.inject({ method: 'POST', url: '/zero', headers: xhr() })).statusCode).toBe(200)
    expect((await app.inject({ method: 'POST', url: '/stream', headers: xhr() })).statusCode).toBe(200)
    expect((await app.inject({ method: 'PUT', url: '/empty', headers: back })).statusCode).toBe(200)
  })

  it('can be switched off', async () => {
    app = await emptyApp({ redirectEmptyResponses: false })
    expect((await app.inject({ method: 'PUT', url: '/empty', headers: xhr() })).statusCode).toBe(200)
  })
})
