import { describe, expect, it } from 'vitest'
import { parseRequestInfo } from './request-info.ts'

describe('parseRequestInfo', () => {
  it('reads a plain browser request as a non-Inertia first load', () => {
    expect(parseRequestInfo({ accept: 'text/html' })).toEqual({
      isInertia: false,
      version: '',
      partialComponent: null,
      only: null,
      except: null,
      reset: [],
      errorBag: null,
      exceptOnceProps: [],
      mergeIntent: 'append',
      isPrefetch: false,
      isPrecognition: false,
    })
  })

  it('parses every Inertia header, trimming comma lists', () => {
    const info = parseRequestInfo({
      'x-inertia': 'true',
      'x-inertia-version': 'abc',
      'x-inertia-partial-component': 'Products/Index',
      'x-inertia-partial-data': 'products, filters ,',
      'x-inertia-partial-except': 'auth.user',
      'x-inertia-reset': 'products',
      'x-inertia-error-bag': '0',
      'x-inertia-except-once-props': 'plans,countries',
      'x-inertia-infinite-scroll-merge-intent': 'prepend',
      purpose: 'prefetch',
    })
    expect(info).toMatchObject({
      isInertia: true,
      version: 'abc',
      partialComponent: 'Products/Index',
      only: ['products', 'filters'],
      except: ['auth.user'],
      reset: ['products'],
      errorBag: '0',
      exceptOnceProps: ['plans', 'countries'],
      mergeIntent: 'prepend',
      isPrefetch: true,
    })
  })

  it('treats empty partial headers as absent', () => {
    const info = parseRequestInfo({
      'x-inertia': 'true',
      'x-inertia-partial-data': ' , ',
      'x-inertia-error-bag': '',
    })
    expect(info.only).toBeNull()
    expect(info.errorBag).toBeNull()
  })

  it('ignores partial headers on requests that are not Inertia visits', () => {
    const info = parseRequestInfo({ 'x-inertia-partial-component': 'A', 'x-inertia-partial-data': 'a' })
    expect(info.partialComponent).toBeNull()
    expect(info.only).toBeNull()
  })
})
