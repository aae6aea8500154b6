import { PgDialect } from 'drizzle-orm/pg-core'
import type { Query, SQL } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { searchPlan } from './order-search.ts'

const dialect = new PgDialect()
const render = (s: SQL) => dialect.sqlToQuery(s)
/** Each part of a plan as SQL text and its parameters. */
function plan(
  q: string,
  kind: Parameters<typeof searchPlan>[1] = 'auto',
): { ordered?: Query; indexed?: Query; walk?: Query } {
  const p = searchPlan(q, kind)
  return 'ordered' in p
    ? { ordered: render(p.ordered) }
    : { indexed: render(p.indexed), walk: render(p.walk) }
}

describe('how an order search finds its rows', () => {
  it('reads a whole postcode by its index in date order, whatever its spaces and case', () => {
    const p = plan('bs1 4dj')
    expect(p.ordered?.sql).toContain(
      `upper(replace("orders"."shipping_address" ->> 'postcode', ' ', '')) = $1`,
    )
    expect(p.ordered?.params).toEqual(['BS14DJ'])
  })

  it('reads an outward code as that district, and a sector within it', () => {
    expect(plan('BS1').ordered?.params).toEqual(['BS1'])
    expect(plan('BS1').ordered?.sql).toContain(`, -3) = $1`)
    const sector = plan('sw1a 1', 'postcode').ordered
    expect(sector?.params).toEqual(['SW1A', 'SW1A1%'])
  })

  it('searches anything else given as a postcode by its start, with % and _ as plain characters', () => {
    expect(plan('10_0', 'postcode').ordered?.params).toEqual(['10\\_0%'])
  })

  it('searches an e-mail or PO number by its start, for the planner to read by either index', () => {
    expect(plan('Amy.H', 'email').ordered?.params).toEqual(['amy.h%'])
    expect(plan('po-12', 'po').ordered?.params).toEqual(['PO-12%'])
  })

  it('gives a name fragment an indexed test and the same test for the date walk', () => {
    const name = plan('Harb%', 'name')
    expect(name.indexed?.params).toEqual(['%harb\\%%'])
    expect(name.walk?.sql).toMatch(/strpos\(.*\) > 0$/)
    expect(name.walk?.params).toEqual(['harb%'])
  })

  it('finds an order number exactly, and nothing for a number that cannot be one', () => {
    expect(plan('100000042').ordered?.params).toEqual([100000042])
    expect(plan('abc', 'number').ordered?.sql).toBe('false')
  })
})
