import { afterEach, describe, expect, it, vi } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { always, deepMerge, defer, merge, once, optional, scroll } from '../../../src/server/inertia/props.ts'
import { createTestApp, inertiaHeaders, pageFromHtml } from '../../support/inertia-testing.ts'

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

const xhr = (extra: Parameters<typeof inertiaHeaders>[0] = {}) => inertiaHeaders({ version: '1', ...extra })

describe('props over HTTP', () => {
  it('evaluates lazy props, awaits promises and serialises toJSON objects', async () => {
    app = await createTestApp({}, (a) => {
      a.get('/', (req, reply) =>
        reply.inertia.render('Home', {
          lazy: () => 'l',
          asyncLazy: async () => ({ nested: () => 'n' }),
          promise: Promise.resolve(3),
          when: new Date('2024-05-06T00:00:00.000Z'),
        }),
      )
    })
    const res = await app.inject({ method: 'GET', url: '/', headers: xhr() })
    expect(res.json().props).toEqual({
      lazy: 'l',
      asyncLazy: { nested: 'n' },
      promise: 3,
      when: '2024-05-06T00:00:00.000Z',
      errors: {},
    })
  })

  it('serves partial reloads with only, except and dot paths, ignoring them for another component', async () => {
    const expensive = vi.fn(() => 'x')
    app = await createTestApp(
      { share: () => ({ auth: { user: { id: 1, name: 'Ann' }, notifications: () => ['n'] } }) },
      (a) => {
        a.get('/', (req, reply) => reply.inertia.render('Home', { a: 1, b: expensive, c: 3 }))
      },
    )
    const only = await app.inject({
      method: 'GET',
      url: '/',
      headers: xhr({ partial: { component: 'Home', only: ['a', 'auth.notifications'] } }),
    })
    expect(only.json().props).toEqual({ auth: { notifications: ['n'] }, a: 1, errors: {} })
    expect(expensive).not.toHaveBeenCalled()
    const except = await app.inject({
      method: 'GET',
      url: '/',
      headers: xhr({ partial: { component: 'Home', except: ['b', 'auth.user'] } }),
    })
    expect(except.json().props).toEqual({ auth: { notifications: ['n'] }, a: 1, c: 3, errors: {} })
    const both = await app.inject({
      method: 'GET',
      url: '/',
      headers: xhr({ partial: { component: 'Home', only: ['a', 'c'], except: ['c'] } }),
    })
    expect(both.json().props).toEqual({ a: 1, errors: {} })
    const other = await app.inject({
      method: 'GET',
      url: '/',
      headers: xhr({ partial: { component: 'Login', only: ['a'] } }),
    })
    expect(Object.keys(other.json().props)).toEqual(['auth', 'errors', 'a', 'b', 'c'])
  })

  it('does not evaluate optional props unless requested, and always sends always props', async () => {
    const resolver = vi.fn(() => ['r'])
    app = await createTestApp({}, (a) => {
      a.get('/', (req, reply) =>
        reply.inertia.render('Home', { a: 1, reviews: optional(resolver), stamp: always(() => 's') }),
      )
    })
    const full = await app.inject({ method: 'GET', url: '/' })
    expect(pageFromHtml(full.body)?.props).toEqual({ a: 1, stamp: 's', errors: {} })
    expect(resolver).not.toHaveBeenCalled()
    const partial = await app.inject({
      method: 'GET',
      url: '/',
      headers: xhr({ partial: { component: 'Home', only: ['reviews'], except: ['stamp'] } }),
    })
    expect(partial.json().props).toEqual({ reviews: ['r'], stamp: 's', errors: {} })
    expect(resolver).toHaveBeenCalledOnce()
  })

  it('defers props by group, loads them on the partial reload and rescues failures', async () => {
    app = await createTestApp({}, (a) => {
      a.get('/product', (req, reply) =>
        reply.inertia.render('Product', {
          name: 'Mug',
          reviews: defer(() => ['great']),
          related: defer(() => ['cup'], 'sidebar'),
          stock: defer(() => Promise.reject(new Error('stock service down')), { rescue: true }),
        }),
      )
    })
    const full = await app.inject({ method: 'GET', url: '/product', headers: xhr() })
    expect(full.json()).toMatchObject({
      props: { name: 'Mug', errors: {} },
      deferredProps: { default: ['reviews', 'stock'], sidebar: ['related'] },
    })
    expect(full.json().props).not.toHaveProperty('reviews')
    const load = await app.inject({
      method: 'GET',
      url: '/product',
      headers: xhr({ partial: { component: 'Product', only: ['reviews', 'stock'] } }),
    })
    expect(load.statusCode).toBe(200)
    expect(load.json().props).toEqual({ reviews: ['great'], errors: {} })
    expect(load.json().rescuedProps).toEqual(['stock'])
    expect(load.json()).not.toHaveProperty('deferredProps')
  })

  it('announces merge, prepend, deep-merge and match-on props and honours the reset header', async () => {
    app = await createTestApp({}, (a) => {
      a.get('/feed', (req, reply) =>
        reply.inertia.render('Feed', {
          posts: merge([{ id: 1 }]).matchOn('id'),
          alerts: merge(['a']).prepend(),
          settings: deepMerge({ a: { b: 1 } }),
        }),
      )
    })
    const full = await app.inject({ method: 'GET', url: '/feed', headers: xhr() })
    expect(full.json()).toMatchObject({
      mergeProps: ['posts'],
      prependProps: ['alerts'],
      deepMergeProps: ['settings'],
      matchPropsOn: ['posts.id'],
    })
    const reset = await app.inject({
      method: 'GET',
      url: '/feed',
      headers: xhr({ partial: { component: 'Feed', reset: ['posts'] } }),
    })
    expect(reset.json().props).toEqual({ posts: [{ id: 1 }], errors: {} })
    expect(reset.json()).not.toHaveProperty('mergeProps')
    expect(reset.json()).not.toHaveProperty('matchPropsOn')
  })

  it('skips once props the client holds, keeping their metadata', async () => {
    const plans = vi.fn(() => ['basic', 'pro'])
    app = await createTestApp({}, (a) => {
      a.get('/pricing', (req, reply) =>
        reply.inertia.render('Pricing', { plans: once(plans, { expiresIn: '1h' }) }),
      )
    })
    const first = await app.inject({ method: 'GET', url: '/pricing', headers: xhr() })
    expect(first.json().props.plans).toEqual(['basic', 'pro'])
    const expiresAt = first.json().onceProps.plans.expiresAt as number
    expect(expiresAt).toBeGreaterThan(Date.now() + 3_500_000)
    const again = await app.inject({
      method: 'GET',
      url: '/pricing',
      headers: xhr({ exceptOnce: ['plans'] }),
    })
    expect(again.json().props).not.toHaveProperty('plans')
    expect(again.json().onceProps.plans.prop).toBe('plans')
    expect(plans).toHaveBeenCalledOnce()
  })

  it('serves infinite scroll pages with scrollProps and the merge intent', async () => {
    app = await createTestApp({}, (a) => {
      a.get('/products', (req, reply) => {
        const page = Number((req.query as { page?: string }).page ?? 1)
        return reply.inertia.render('Products', {
          products: scroll(() => ({ data: [{ id: page }], meta: { currentPage: page, lastPage: 3 } })),
        })
      })
    })
    const next = await app.inject({
      method: 'GET',
      url: '/products?page=2',
      headers: xhr({ partial: { component: 'Products', only: ['products'] }, mergeIntent: 'append' }),
    })
    expect(next.json()).toMatchObject({
      props: { products: { data: [{ id: 2 }] } },
      mergeProps: ['products.data'],
      scrollProps: {
        products: { pageName: 'page', currentPage: 2, nextPage: 3, previousPage: 1, reset: false },
      },
    })
    const previous = await app.inject({
      method: 'GET',
      url: '/products?page=1',
      headers: xhr({ partial: { component: 'Products', only: ['products'] }, mergeIntent: 'prepend' }),
    })
    expect(previous.json().prependProps).toEqual(['products.data'])
  })
})

describe('shared props', () => {
  it('merges shared props under page props and lists the shared keys', async () => {
    app = await createTestApp(
      {
        share: (req) => ({ site: { host: req.hostname }, cart: async () => ({ count: 2 }) }),
      },
      (a) => {
        a.addHook('preHandler', async (req) => {
          req.inertia.share('auth.user', { id: 5 }).share({ locale: 'en-GB' })
        })
        a.get('/', (req, reply) => reply.inertia.render('Home', { site: { host: 'page wins' } }))
      },
    )
    const res = await app.inject({ method: 'GET', url: '/', headers: xhr() })
    expect(res.json().props).toEqual({
      site: { host: 'page wins' },
      cart: { count: 2 },
      auth: { user: { id: 5 } },
      locale: 'en-GB',
      errors: {},
    })
    expect(res.json().sharedProps).toEqual(['site', 'cart', 'auth', 'locale', 'errors'])
  })

  it('can leave out the sharedProps metadata', async () => {
    app = await createTestApp({ exposeSharedPropKeys: false, share: () => ({ site: 1 }) }, (a) => {
      a.get('/', (req, reply) => reply.inertia.render('Home'))
    })
    expect((await app.inject({ method: 'GET', url: '/', headers: xhr() })).json()).not.toHaveProperty(
      'sharedProps',
    )
  })

  it('keeps shared state per request when two requests interleave', async () => {
    let releaseFirst: () => void = () => {}
    const firstMayFinish = new Promise<void>((resolve) => {
      releaseFirst = resolve
    })
    app = await createTestApp({}, (a) => {
      a.get('/who/:name', async (req, reply) => {
        const { name } = req.params as { name: string }
        req.inertia.share('user', name).flash('hello', name)
        if (name === 'first') await firstMayFinish
        if (name === 'second') req.inertia.encryptHistory()
        return reply.inertia.render('Who', { name })
      })
    })
    const first = app.inject({ method: 'GET', url: '/who/first', headers: xhr() })
    await new Promise((r) => setTimeout(r, 20))
    const second = await app.inject({ method: 'GET', url: '/who/second', headers: xhr() })
    releaseFirst()
    const firstPage = (await first).json()
    const secondPage = second.json()
    expect(secondPage).toMatchObject({
      props: { user: 'second', name: 'second' },
      flash: { hello: 'second' },
      encryptHistory: true,
    })
    expect(firstPage).toMatchObject({ props: { user: 'first', name: 'first' }, flash: { hello: 'first' } })
    expect(firstPage).not.toHaveProperty('encryptHistory')
  })
})
