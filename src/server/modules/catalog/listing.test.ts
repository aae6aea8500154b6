import { PgDialect } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { SORT_OPTIONS } from '../../../shared/sorting.ts'
import { listingOrder, parseListingQuery } from './listing.ts'

const dialect = new PgDialect()
const orderBy = (sort: Parameters<typeof listingOrder>[0]) =>
  dialect.sqlToQuery(sql.join(listingOrder(sort), sql`, `)).sql

describe('parseListingQuery', () => {
  it('reads sort, page and limit', () => {
    expect(parseListingQuery({ sort: 'new', page: '3', limit: '24' })).toEqual({
      sort: 'new',
      page: 3,
      limit: 24,
    })
  })

  it('falls back to the defaults for junk and missing values', () => {
    expect(parseListingQuery(undefined)).toEqual({ sort: '', page: 1, limit: 10 })
    expect(parseListingQuery({ sort: 'cheapest', page: 'two', limit: 'all' })).toEqual({
      sort: '',
      page: 1,
      limit: 10,
    })
    expect(parseListingQuery({ sort: { $ne: 1 }, page: ['-1'], limit: '5000' })).toEqual({
      sort: '',
      page: 1,
      limit: 100,
    })
  })
})

describe('listingOrder', () => {
  it('orders "Most Relevant" by the position in the category', () => {
    expect(orderBy('')).toMatch(/^"category_products"\."position" asc/)
  })

  it('orders the price keys the way their labels read', () => {
    // 'price-high_low' is labelled 'Price (Low to High)': cheapest first, unpriced last
    expect(orderBy('price-high_low')).toMatch(
      /^\("product_groups"\."min_price" = 0\) asc, "product_groups"\."min_price" asc/,
    )
    expect(orderBy('price-low_high')).toMatch(
      /^\("product_groups"\."min_price" = 0\) asc, "product_groups"\."min_price" desc/,
    )
  })

  it('orders names case-insensitively and newest by creation time', () => {
    expect(orderBy('name-asc')).toMatch(/^lower\("product_groups"\."name"\) asc/)
    expect(orderBy('name-desc')).toMatch(/^lower\("product_groups"\."name"\) desc/)
    expect(orderBy('new')).toMatch(/^"product_groups"\."created_at" desc/)
  })

  it('ends every order on the id so pages never overlap', () => {
    for (const { value } of SORT_OPTIONS) expect(orderBy(value)).toMatch(/"product_groups"\."id" (asc|desc)$/)
  })
})
