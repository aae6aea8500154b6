/**
 * The Algolia adapter on its own: a full rebuild against the stand-in is atomic, as Algolia
 * recommends (a temporary copy filled, then moved over the live index), so shoppers never search
 * an empty index while a rebuild pushes its records; no reachable host is a 503, never a 500.
 */
import { describe, expect, it } from 'vitest'
import { AlgoliaSearchEngine } from '../../src/server/modules/search/algolia.engine.ts'
import type { IndexRecord } from '../../src/server/modules/search/engine.ts'
import { loadConfig } from '../../src/server/config.ts'
import { buildTestApp, cookieHeader, cookiesFrom, inertiaHeaders } from '../helpers/app.ts'
import { AlgoliaStandIn } from '../support/algolia-standin.ts'

describe('the Algolia adapter', () => {
  it('keeps the old records searchable while a full rebuild pushes the new ones, then swaps them in', async () => {
    const own = await new AlgoliaStandIn().start()
    try {
      const engine = new AlgoliaSearchEngine({
        appId: own.appId,
        apiKey: own.apiKey,
        indexPrefix: 'swap_',
        hosts: [{ url: '127.0.0.1', port: Number(new URL(own.url).port), protocol: 'http' }],
        insightsHost: null,
      })
      const record = (id: string, name: string) =>
        ({ objectID: id, name, type: 'product', status: 'published' }) as unknown as IndexRecord
      await engine.replaceAll(1, 'products', [record('product-1', 'Numbat Sign')])
      const seenMidRebuild: string[][] = []
      own.beforeBatch = () => void seenMidRebuild.push(own.peek('swap_site1_products', 'numbat'))
      await engine.replaceAll(1, 'products', [record('product-2', 'Numbat Banner')])
      expect(seenMidRebuild).toEqual([['product-1']])
      expect(own.peek('swap_site1_products', 'numbat')).toEqual(['product-2'])
      // The replicas (sorted views) follow the swapped records.
      expect(own.peek('swap_site1_products_price_asc', 'numbat')).toEqual(['product-2'])
    } finally {
      await own.stop()
    }
  })

  it('answers 503, never 500, when no Algolia host can be reached', async () => {
    const base = loadConfig({ NODE_ENV: 'test' })
    const down = await buildTestApp({
      search: {
        ...base.search,
        engine: 'algolia',
        algolia: {
          appId: 'APP',
          apiKey: 'key',
          indexPrefix: 'down_',
          hosts: [{ url: '127.0.0.1', port: 9, protocol: 'http' }],
          insightsHost: null,
        },
      },
    })
    try {
      const h = {
        ...(await (async () => {
          const first = await down.app.inject({
            url: '/',
            headers: { host: 'localhost', accept: 'text/html' },
          })
          const cookies = cookiesFrom(first)
          return {
            host: 'localhost',
            cookie: cookieHeader(cookies),
            'x-xsrf-token': decodeURIComponent(cookies['XSRF-TOKEN']!),
            accept: 'application/json',
            'content-type': 'application/json',
          }
        })()),
      }
      const res = await down.app.inject({
        method: 'POST',
        url: '/search/1/indexes/*/queries',
        headers: h,
        payload: JSON.stringify({ requests: [{ indexName: 'products', query: 'sign' }] }),
      })
      expect(res.statusCode, res.body).toBe(503)
      expect(res.json()).toEqual({
        status: 503,
        message: 'Search is unavailable at the moment. Please try again shortly.',
      })
      const page = await down.app.inject({
        url: '/search?q=sign',
        headers: { host: 'localhost', ...inertiaHeaders() },
      })
      expect(page.statusCode).toBe(503)
    } finally {
      await down.close()
    }
  })
})
