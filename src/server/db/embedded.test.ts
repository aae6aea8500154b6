import type { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPGlite } from './embedded.ts'

describe('the embedded database', () => {
  let pg: PGlite
  beforeAll(async () => {
    pg = await openPGlite(undefined, {})
    await pg.waitReady
  })
  afterAll(() => pg.close())

  it('lets work that is waiting on the event loop run before each statement of a transaction', async () => {
    const order: string[] = []
    await pg.transaction(async (tx) => {
      await tx.query('select 1')
      // A request that arrived during the first statement is read before the second one runs.
      setImmediate(() => order.push('event loop'))
      await tx.query('select 2')
      order.push('second statement')
    })
    expect(order).toEqual(['event loop', 'second statement'])
  })

  it('lets the event loop run before a statement outside a transaction', async () => {
    const order: string[] = []
    setImmediate(() => order.push('event loop'))
    await pg.query('select 1')
    order.push('statement')
    expect(order).toEqual(['event loop', 'statement'])
  })

  it('still answers statements and rolls back a failed transaction', async () => {
    await pg.exec('create table t (n integer primary key)')
    await expect(
      pg.transaction(async (tx) => {
        await tx.query('insert into t values (1)')
        await tx.query('insert into t values (1)')
      }),
    ).rejects.toThrow(/duplicate key/)
    expect((await pg.query<{ count: number }>('select count(*)::int as count from t')).rows).toEqual([
      { count: 0 },
    ])
  })
})
