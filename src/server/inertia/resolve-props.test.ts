import { describe, expect, it, vi } from 'vitest'
import { always, deepMerge, defer, merge, once, optional, scroll } from './props.ts'
import { resolveProps, type PropsRequestInfo } from './resolve-props.ts'

const NOW = 1_700_000_000_000

function fullVisit(overrides: Partial<PropsRequestInfo> = {}): PropsRequestInfo {
  return {
    isInertia: true,
    partialComponent: null,
    only: null,
    except: null,
    reset: [],
    exceptOnceProps: [],
    mergeIntent: 'append',
    ...overrides,
  }
}

function partial(
  component: string,
  only: string[] | null,
  except: string[] | null = null,
  overrides: Partial<PropsRequestInfo> = {},
): PropsRequestInfo {
  return fullVisit({ partialComponent: component, only, except, ...overrides })
}

const firstLoad: PropsRequestInfo = fullVisit({ isInertia: false })

describe('resolveProps: regular and lazy props', () => {
  it('includes every regular prop and always adds an empty errors object', async () => {
    const { props, metadata } = await resolveProps({}, { a: 1, b: 'x' }, firstLoad, 'Home', NOW)
    expect(props).toEqual({ a: 1, b: 'x', errors: {} })
    expect(metadata).toEqual({})
  })

  it('evaluates functions, awaits promises and resolves nested functions and promises', async () => {
    const { props } = await resolveProps(
      {},
      {
        sync: () => 1,
        async: async () => 2,
        promise: Promise.resolve(3),
        nested: { deep: () => ({ deeper: async () => 'yes' }), list: [() => 'a', Promise.resolve('b')] },
      },
      firstLoad,
      'Home',
      NOW,
    )
    expect(props).toMatchObject({
      sync: 1,
      async: 2,
      promise: 3,
      nested: { deep: { deeper: 'yes' }, list: ['a', 'b'] },
    })
  })

  it('leaves class instances alone so JSON.stringify uses their toJSON', async () => {
    const date = new Date('2024-01-02T03:04:05.000Z')
    const custom = { toJSON: () => 'serialised' }
    const { props } = await resolveProps({}, { date, custom }, firstLoad, 'Home', NOW)
    expect(JSON.parse(JSON.stringify(props))).toMatchObject({
      date: '2024-01-02T03:04:05.000Z',
      custom: 'serialised',
    })
  })

  it('evaluates lazy props concurrently', async () => {
    let running = 0
    let peak = 0
    const slow = async (): Promise<number> => {
      running++
      peak = Math.max(peak, running)
      await new Promise((r) => setTimeout(r, 10))
      running--
      return 1
    }
    await resolveProps({}, { a: slow, b: slow, c: slow }, firstLoad, 'Home', NOW)
    expect(peak).toBe(3)
  })
})

describe('resolveProps: partial reloads', () => {
  const props = () => ({
    a: vi.fn(() => 'A'),
    b: vi.fn(() => 'B'),
    c: 'C',
  })

  it('returns only the requested props (plus errors) and does not evaluate the others', async () => {
    const p = props()
    const { props: out } = await resolveProps({}, p, partial('Page', ['a']), 'Page', NOW)
    expect(out).toEqual({ a: 'A', errors: {} })
    expect(p.b).not.toHaveBeenCalled()
  })

  it('leaves out excepted props', async () => {
    const { props: out } = await resolveProps({}, props(), partial('Page', null, ['a']), 'Page', NOW)
    expect(out).toEqual({ b: 'B', c: 'C', errors: {} })
  })

  it('lets except win over only', async () => {
    const { props: out } = await resolveProps({}, props(), partial('Page', ['a', 'b'], ['b']), 'Page', NOW)
    expect(out).toEqual({ a: 'A', errors: {} })
  })

  it('treats a partial reload for another component as a full visit', async () => {
    const { props: out } = await resolveProps({}, props(), partial('Other', ['a']), 'Page', NOW)
    expect(out).toEqual({ a: 'A', b: 'B', c: 'C', errors: {} })
  })

  it('narrows a prop to the dot path requested in only, without evaluating unselected nested lazies', async () => {
    const notifications = vi.fn(() => ['n1'])
    const settings = vi.fn(() => ({ theme: 'dark' }))
    const shared = { auth: { user: { id: 1, name: 'Ann' }, notifications, settings } }
    const { props: out } = await resolveProps(
      shared,
      { other: 1 },
      partial('Page', ['auth.notifications']),
      'Page',
      NOW,
    )
    expect(out).toEqual({ auth: { notifications: ['n1'] }, errors: {} })
    expect(settings).not.toHaveBeenCalled()
  })

  it('selects deeper dot paths and excludes dot paths', async () => {
    const shared = { auth: { user: { id: 1, name: 'Ann', email: 'a@x' }, token: 't' } }
    const only = await resolveProps(shared, {}, partial('Page', ['auth.user.name']), 'Page', NOW)
    expect(only.props).toEqual({ auth: { user: { name: 'Ann' } }, errors: {} })
    const except = await resolveProps(shared, {}, partial('Page', null, ['auth.user']), 'Page', NOW)
    expect(except.props).toEqual({ auth: { token: 't' }, errors: {} })
  })

  it('returns the whole prop when both the prop and one of its paths are requested', async () => {
    const shared = { auth: { user: 1, token: 't' } }
    const { props: out } = await resolveProps(shared, {}, partial('Page', ['auth', 'auth.user']), 'Page', NOW)
    expect(out).toEqual({ auth: { user: 1, token: 't' }, errors: {} })
  })

  it('resolves every prop, optional and deferred ones included, for a matching partial without only/except', async () => {
    const { props: out } = await resolveProps(
      {},
      { a: 1, o: optional(() => 'o'), d: defer(() => 'd') },
      partial('Page', null, null, { reset: ['a'] }),
      'Page',
      NOW,
    )
    expect(out).toEqual({ a: 1, o: 'o', d: 'd', errors: {} })
  })
})

describe('resolveProps: optional and always', () => {
  it('skips optional props on full visits without evaluating or announcing them', async () => {
    const fn = vi.fn(() => 'x')
    const { props, metadata } = await resolveProps({}, { o: optional(fn) }, firstLoad, 'Page', NOW)
    expect(props).toEqual({ errors: {} })
    expect(metadata).toEqual({})
    expect(fn).not.toHaveBeenCalled()
  })

  it('evaluates an optional prop when a partial reload asks for it', async () => {
    const { props } = await resolveProps(
      {},
      { o: optional(async () => 'x') },
      partial('Page', ['o']),
      'Page',
      NOW,
    )
    expect(props).toEqual({ o: 'x', errors: {} })
  })

  it('includes always props on partial reloads that did not ask for them or excepted them', async () => {
    const info = partial('Page', ['a'], ['keep'])
    const { props } = await resolveProps({}, { a: 1, b: 2, keep: always(() => 'k') }, info, 'Page', NOW)
    expect(props).toEqual({ a: 1, keep: 'k', errors: {} })
  })

  it('keeps errors on partial reloads even when excepted', async () => {
    const { props } = await resolveProps(
      { errors: always({ name: 'Required' }) },
      { a: 1 },
      partial('Page', ['a'], ['errors']),
      'Page',
      NOW,
    )
    expect(props).toEqual({ errors: { name: 'Required' }, a: 1 })
  })
})

describe('resolveProps: deferred props', () => {
  it('announces deferred props by group on full visits without evaluating them', async () => {
    const fn = vi.fn(() => 'x')
    const { props, metadata } = await resolveProps(
      {},
      { a: 1, comments: defer(fn), related: defer(fn, 'sidebar'), reviews: defer(fn, { group: 'sidebar' }) },
      firstLoad,
      'Page',
      NOW,
    )
    expect(props).toEqual({ a: 1, errors: {} })
    expect(metadata.deferredProps).toEqual({ default: ['comments'], sidebar: ['related', 'reviews'] })
    expect(fn).not.toHaveBeenCalled()
  })

  it('resolves a deferred group on the partial reload and sends no deferredProps then', async () => {
    const { props, metadata } = await resolveProps(
      {},
      { a: 1, comments: defer(async () => ['c']), related: defer(() => ['r'], 'sidebar') },
      partial('Page', ['comments']),
      'Page',
      NOW,
    )
    expect(props).toEqual({ comments: ['c'], errors: {} })
    expect(metadata.deferredProps).toBeUndefined()
  })

  it('omits a rescued deferred prop that throws, lists it in rescuedProps and reports the error', async () => {
    const onRescue = vi.fn()
    const boom = new Error('boom')
    const { props, metadata } = await resolveProps(
      {},
      {
        broken: defer(
          () => {
            throw boom
          },
          { rescue: true },
        ),
        fine: defer(() => 'ok', { rescue: true }),
      },
      partial('Page', ['broken', 'fine']),
      'Page',
      NOW,
      { onRescue },
    )
    expect(props).toEqual({ fine: 'ok', errors: {} })
    expect(metadata.rescuedProps).toEqual(['broken'])
    expect(onRescue).toHaveBeenCalledWith('broken', boom)
  })

  it('propagates the error of a deferred prop without rescue', async () => {
    const info = partial('Page', ['broken'])
    const props = { broken: defer(() => Promise.reject(new Error('boom'))) }
    await expect(resolveProps({}, props, info, 'Page', NOW)).rejects.toThrow('boom')
  })

  it('keeps the merge label of a rescued merge prop', async () => {
    const { metadata } = await resolveProps(
      {},
      { feed: defer(() => Promise.reject(new Error('x')), { rescue: true }).merge() },
      partial('Page', ['feed']),
      'Page',
      NOW,
    )
    expect(metadata).toMatchObject({ rescuedProps: ['feed'], mergeProps: ['feed'] })
  })

  it('gives a deferred merge prop both deferred and merge metadata', async () => {
    const { metadata } = await resolveProps({}, { feed: defer(() => [1]).merge() }, firstLoad, 'Page', NOW)
    expect(metadata).toEqual({ deferredProps: { default: ['feed'] }, mergeProps: ['feed'] })
  })
})

describe('resolveProps: merge props', () => {
  it('labels merge, prepend, deep-merge and match-on props', async () => {
    const { metadata } = await resolveProps(
      {},
      {
        a: merge([1]),
        b: merge([1]).prepend(),
        c: deepMerge({ x: 1 }),
        d: merge([{ id: 1 }]).matchOn('id'),
        e: deepMerge({ items: [] }).matchOn('items.id'),
      },
      firstLoad,
      'Page',
      NOW,
    )
    expect(metadata).toEqual({
      mergeProps: ['a', 'd'],
      prependProps: ['b'],
      deepMergeProps: ['c', 'e'],
      matchPropsOn: ['d.id', 'e.items.id'],
    })
  })

  it('labels nested append and prepend paths', async () => {
    const { metadata } = await resolveProps(
      {},
      {
        users: merge({ data: [], meta: {} }).append('data', 'id'),
        feed: merge({ items: [], pinned: [] }).append('items').prepend('pinned'),
      },
      firstLoad,
      'Page',
      NOW,
    )
    expect(metadata).toEqual({
      mergeProps: ['users.data', 'feed.items'],
      prependProps: ['feed.pinned'],
      matchPropsOn: ['users.data.id'],
    })
  })

  it('drops merge labels for props named in the reset header but still returns their value', async () => {
    const info = partial('Page', ['a', 'b'], null, { reset: ['a'] })
    const { props, metadata } = await resolveProps(
      {},
      { a: merge([1]).matchOn('id'), b: merge([2]) },
      info,
      'Page',
      NOW,
    )
    expect(props).toEqual({ a: [1], b: [2], errors: {} })
    expect(metadata).toEqual({ mergeProps: ['b'] })
  })

  it('leaves out merge metadata for props filtered out by only or except', async () => {
    const props = { a: merge([1]), b: merge([2]).prepend() }
    const only = await resolveProps({}, props, partial('Page', ['a']), 'Page', NOW)
    expect(only.metadata).toEqual({ mergeProps: ['a'] })
    const except = await resolveProps({}, props, partial('Page', null, ['a']), 'Page', NOW)
    expect(except.metadata).toEqual({ prependProps: ['b'] })
  })

  it('does not change the original wrapper when a modifier is applied', async () => {
    const base = merge([1])
    base.prepend()
    const { metadata } = await resolveProps({}, { a: base }, firstLoad, 'Page', NOW)
    expect(metadata).toEqual({ mergeProps: ['a'] })
  })
})

describe('resolveProps: once props', () => {
  it('resolves a once prop on the first load and announces it with no expiry', async () => {
    const { props, metadata } = await resolveProps({}, { plans: once(() => ['p']) }, firstLoad, 'Page', NOW)
    expect(props).toEqual({ plans: ['p'], errors: {} })
    expect(metadata.onceProps).toEqual({ plans: { prop: 'plans', expiresAt: null } })
  })

  it('skips a once prop the client already holds but keeps its metadata', async () => {
    const fn = vi.fn(() => ['p'])
    const info = fullVisit({ exceptOnceProps: ['plans'] })
    const { props, metadata } = await resolveProps({}, { plans: once(fn) }, info, 'Page', NOW)
    expect(props).toEqual({ errors: {} })
    expect(metadata.onceProps).toEqual({ plans: { prop: 'plans', expiresAt: null } })
    expect(fn).not.toHaveBeenCalled()
  })

  it('resolves a once prop when the except-once header does not list it', async () => {
    const info = fullVisit({ exceptOnceProps: ['other'] })
    const { props } = await resolveProps({}, { plans: once(() => 1) }, info, 'Page', NOW)
    expect(props).toEqual({ plans: 1, errors: {} })
  })

  it('ignores the except-once header on first loads (non-Inertia requests)', async () => {
    const info = fullVisit({ isInertia: false, exceptOnceProps: ['plans'] })
    const { props } = await resolveProps({}, { plans: once(() => 1) }, info, 'Page', NOW)
    expect(props).toEqual({ plans: 1, errors: {} })
  })

  it('uses a custom key and an expiry in epoch milliseconds', async () => {
    const { metadata } = await resolveProps(
      {},
      {
        a: once(() => 1, { key: 'shared-a', expiresIn: 60_000 }),
        b: once(() => 1, { expiresIn: '2h' }),
        c: once(() => 1, { expiresAt: new Date(NOW + 5000), expiresIn: 1 }),
        d: once(() => 1, { expiresAt: NOW + 7 }),
      },
      firstLoad,
      'Page',
      NOW,
    )
    expect(metadata.onceProps).toEqual({
      'shared-a': { prop: 'a', expiresAt: NOW + 60_000 },
      b: { prop: 'b', expiresAt: NOW + 7_200_000 },
      c: { prop: 'c', expiresAt: NOW + 5000 },
      d: { prop: 'd', expiresAt: NOW + 7 },
    })
  })

  it('resolves a fresh once prop even when the client holds it', async () => {
    const info = fullVisit({ exceptOnceProps: ['plans'] })
    const { props } = await resolveProps({}, { plans: once(() => 1, { fresh: true }) }, info, 'Page', NOW)
    expect(props).toEqual({ plans: 1, errors: {} })
  })

  it('resolves a once prop requested by a partial reload even when listed as held', async () => {
    const info = partial('Page', ['plans'], null, { exceptOnceProps: ['plans'] })
    const { props, metadata } = await resolveProps({}, { plans: once(() => 1), x: 2 }, info, 'Page', NOW)
    expect(props).toEqual({ plans: 1, errors: {} })
    expect(metadata.onceProps).toEqual({ plans: { prop: 'plans', expiresAt: null } })
  })

  it('does not resolve or announce a once prop excluded by a partial reload', async () => {
    const fn = vi.fn(() => 1)
    const info = partial('Page', null, ['plans'])
    const { props, metadata } = await resolveProps({}, { plans: once(fn), x: 2 }, info, 'Page', NOW)
    expect(props).toEqual({ x: 2, errors: {} })
    expect(metadata.onceProps).toBeUndefined()
    expect(fn).not.toHaveBeenCalled()
  })

  it('suppresses the deferred announcement of a deferred once prop the client holds', async () => {
    const held = await resolveProps(
      {},
      { stats: defer(() => 1).once() },
      fullVisit({ exceptOnceProps: ['stats'] }),
      'Page',
      NOW,
    )
    expect(held.props).toEqual({ errors: {} })
    expect(held.metadata).toEqual({ onceProps: { stats: { prop: 'stats', expiresAt: null } } })
    const fresh = await resolveProps({}, { stats: defer(() => 1).once() }, fullVisit(), 'Page', NOW)
    expect(fresh.metadata).toEqual({
      deferredProps: { default: ['stats'] },
      onceProps: { stats: { prop: 'stats', expiresAt: null } },
    })
    const requested = await resolveProps(
      {},
      { stats: defer(() => 1).once() },
      partial('Page', ['stats'], null, { exceptOnceProps: ['stats'] }),
      'Page',
      NOW,
    )
    expect(requested.props).toEqual({ stats: 1, errors: {} })
  })

  it('supports once props in shared props', async () => {
    const { props, metadata } = await resolveProps(
      { countries: once(() => ['UK']) },
      {},
      firstLoad,
      'Page',
      NOW,
    )
    expect(props).toEqual({ countries: ['UK'], errors: {} })
    expect(metadata.onceProps).toEqual({ countries: { prop: 'countries', expiresAt: null } })
  })

  it('lets the last prop win when two once props share a key', async () => {
    const { metadata } = await resolveProps(
      {},
      { a: once(() => 1, { key: 'k' }), b: once(() => 2, { key: 'k' }) },
      firstLoad,
      'Page',
      NOW,
    )
    expect(metadata.onceProps).toEqual({ k: { prop: 'b', expiresAt: null } })
  })
})

describe('resolveProps: scroll props', () => {
  const paginated = (page: number) => ({ data: [{ id: page }], meta: { currentPage: page, lastPage: 3 } })

  it('announces scrollProps and merges the wrapped items', async () => {
    const { props, metadata } = await resolveProps(
      {},
      { products: scroll(paginated(2)) },
      firstLoad,
      'Page',
      NOW,
    )
    expect(props.products).toEqual(paginated(2))
    expect(metadata).toEqual({
      mergeProps: ['products.data'],
      scrollProps: {
        products: { pageName: 'page', previousPage: 1, nextPage: 3, currentPage: 2, reset: false },
      },
    })
  })

  it('prepends when the client scrolls backwards', async () => {
    const info = partial('Page', ['products'], null, { mergeIntent: 'prepend' })
    const { metadata } = await resolveProps({}, { products: scroll(paginated(1)) }, info, 'Page', NOW)
    expect(metadata).toEqual({
      prependProps: ['products.data'],
      scrollProps: {
        products: { pageName: 'page', previousPage: null, nextPage: 2, currentPage: 1, reset: false },
      },
    })
  })

  it('marks a reset scroll prop and drops its merge label', async () => {
    const info = partial('Page', ['products'], null, { reset: ['products'] })
    const { metadata } = await resolveProps({}, { products: scroll(paginated(3)) }, info, 'Page', NOW)
    expect(metadata).toEqual({
      scrollProps: {
        products: { pageName: 'page', previousPage: 2, nextPage: null, currentPage: 3, reset: true },
      },
    })
  })

  it('supports a custom wrapper, page name, metadata and match key', async () => {
    const value = { items: [{ sku: 'a' }], cursor: 'n2' }
    const { metadata } = await resolveProps(
      {},
      {
        feed: scroll(value, {
          wrapper: 'items',
          pageName: 'cursor',
          metadata: (v) => ({ currentPage: 'n1', nextPage: v.cursor, previousPage: null }),
        }).matchOn('sku'),
      },
      firstLoad,
      'Page',
      NOW,
    )
    expect(metadata).toEqual({
      mergeProps: ['feed.items'],
      matchPropsOn: ['feed.items.sku'],
      scrollProps: {
        feed: { pageName: 'cursor', previousPage: null, nextPage: 'n2', currentPage: 'n1', reset: false },
      },
    })
  })

  it('excludes a deferred scroll prop on the first load and resolves it once on the partial reload', async () => {
    const fn = vi.fn(() => paginated(1))
    const first = await resolveProps({}, { products: scroll(fn).defer() }, firstLoad, 'Page', NOW)
    expect(first.props).toEqual({ errors: {} })
    expect(first.metadata.deferredProps).toEqual({ default: ['products'] })
    expect(fn).not.toHaveBeenCalled()
    const second = await resolveProps(
      {},
      { products: scroll(fn).defer() },
      partial('Page', ['products']),
      'Page',
      NOW,
    )
    expect(second.props.products).toEqual(paginated(1))
    expect(second.metadata.scrollProps?.products?.nextPage).toBe(2)
    expect(fn).toHaveBeenCalledTimes(1)
  })
})

describe('resolveProps: shared props', () => {
  it('lists shared top-level keys, reducing dot keys to their first segment', async () => {
    const { props, metadata } = await resolveProps(
      { 'auth.user': { id: 1 }, 'auth.can': ['x'], site: 's' },
      { page: 1 },
      firstLoad,
      'Page',
      NOW,
    )
    expect(props).toEqual({ auth: { user: { id: 1 }, can: ['x'] }, site: 's', page: 1, errors: {} })
    expect(metadata.sharedProps).toEqual(['auth', 'site'])
  })

  it('lets page props override shared props while still listing the key as shared', async () => {
    const { props, metadata } = await resolveProps(
      { site: 'shared' },
      { site: 'page' },
      firstLoad,
      'Page',
      NOW,
    )
    expect(props.site).toBe('page')
    expect(metadata.sharedProps).toEqual(['site'])
  })

  it('keeps sharedProps unaffected by only/except', async () => {
    const { metadata } = await resolveProps(
      { site: 's', auth: 'a' },
      { x: 1 },
      partial('Page', ['x']),
      'Page',
      NOW,
    )
    expect(metadata.sharedProps).toEqual(['site', 'auth'])
  })

  it('can leave out sharedProps', async () => {
    const { metadata } = await resolveProps({ site: 's' }, {}, firstLoad, 'Page', NOW, {
      exposeSharedPropKeys: false,
    })
    expect(metadata.sharedProps).toBeUndefined()
  })

  it('omits a failing shared prop when onSharedError is given, and fails otherwise', async () => {
    const shared = { good: () => 'g', bad: () => Promise.reject(new Error('db down')) }
    const onSharedError = vi.fn()
    const { props } = await resolveProps(shared, { x: 1 }, firstLoad, 'Error', NOW, { onSharedError })
    expect(props).toEqual({ good: 'g', x: 1, errors: {} })
    expect(onSharedError).toHaveBeenCalledWith('bad', expect.any(Error))
    await expect(resolveProps(shared, {}, firstLoad, 'Error', NOW)).rejects.toThrow('db down')
  })
})
