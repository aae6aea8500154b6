import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import { date, integer, interval, jsonb, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPGlite, withoutTextParsers } from './embedded.ts'

const things = pgTable('things', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  at: timestamp('at', { withTimezone: true }).notNull(),
  day: date('day').notNull(),
  plain: timestamp('plain').notNull(),
  span: interval('span').notNull(),
  price: numeric('price').notNull(),
  data: jsonb('data').$type<{ n: number[] }>().notNull(),
})

const create = `create table things (id integer primary key, name text not null, at timestamptz not null,
  day date not null, plain timestamp not null, span interval not null, price numeric not null, data jsonb not null)`

describe('the embedded database', () => {
  let pg: PGlite
  beforeAll(async () => {
    pg = await openPGlite(undefined, {})
    await pg.waitReady
  })
  afterAll(() => pg.close())

  it('overrides PGlite hooks that the pinned PGlite still has, and BEGIN and COMMIT pass through the turn-taking one', async () => {
    // `_runExclusiveQuery` and `_initArrayTypes` are PGlite internals (ADR 0116), which is why
    // package.json pins PGlite exactly: an upgrade that renames them must fail here, not quietly
    // drop the event loop's turn or the text parsers.
    const proto = PGlite.prototype as unknown as Record<string, unknown>
    expect(typeof proto._runExclusiveQuery).toBe('function')
    expect(typeof proto._initArrayTypes).toBe('function')
    const seen: number[] = []
    const original = proto._runExclusiveQuery as (fn: () => Promise<unknown>) => Promise<unknown>
    proto._runExclusiveQuery = function (this: PGlite, fn: () => Promise<unknown>) {
      seen.push(1)
      return original.call(this, fn)
    }
    try {
      await pg.transaction(async (tx) => {
        await tx.query('select 1')
      })
    } finally {
      proto._runExclusiveQuery = original
    }
    // BEGIN, the statement and COMMIT: each one an exclusive query of its own.
    expect(seen.length).toBeGreaterThanOrEqual(3)
  })

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

  it('answers timestamps, dates, intervals and their arrays as text, as drizzle asks', async () => {
    const { rows } = await pg.query<Record<string, unknown>>(
      `select timestamptz '2026-01-02 03:04:05+00' as at, date '2026-01-02' as day, interval '1 day' as span,
        array[timestamp '2026-01-02 03:04:05'] as plains, array[1.5]::numeric[] as prices, 7 as n`,
    )
    expect(rows[0]).toEqual({
      at: '2026-01-02 03:04:05+00',
      day: '2026-01-02',
      span: '1 day',
      plains: '{"2026-01-02 03:04:05"}',
      prices: '{1.5}',
      n: 7,
    })
  })

  it('gives drizzle the same rows as PGlite with drizzle’s own parsers, in and out of a transaction', async () => {
    const plain = new PGlite()
    try {
      const row = {
        id: 1,
        name: 'Fire exit sign',
        at: new Date('2026-03-04T05:06:07.890Z'),
        day: '2026-03-04',
        plain: new Date('2026-03-04T05:06:07.000Z'),
        span: '2 days 03:00:00',
        price: '12.50',
        data: { n: [1, 2, 3] },
      }
      const answers = []
      for (const client of [plain, pg]) {
        await client.exec(create)
        const db = drizzle(client)
        await db.insert(things).values(row)
        const outside = await db.select().from(things)
        const inside = await db.transaction(async (tx) => tx.select().from(things).for('update'))
        const raw = await db.execute(sql`select at, day, span from things`)
        answers.push({ outside, inside, raw: raw.rows })
      }
      expect(answers[1]).toEqual(answers[0])
      expect(answers[1]!.outside).toEqual([row])
    } finally {
      await plain.close()
    }
    // A second database is started in the test (a few seconds of WebAssembly on a busy machine).
  }, 30_000)

  it('drops drizzle’s text parsers from a statement and refuses any other parser', () => {
    expect(withoutTextParsers({ rowMode: 'array', parsers: { 1114: (v) => v, 1182: (v) => v } })).toEqual({
      rowMode: 'array',
    })
    expect(withoutTextParsers(undefined)).toBeUndefined()
    expect(() => withoutTextParsers({ parsers: { 23: (v) => Number(v) } })).toThrow(/type 23/)
    expect(() => withoutTextParsers({ parsers: { 1114: (v) => new Date(v) } })).toThrow(/type 1114/)
  })

  it('refuses a statement that asks for another parser', async () => {
    await expect(pg.query('select 1', [], { parsers: { 23: (v) => Number(v) + 1 } })).rejects.toThrow(
      /type 23/,
    )
    await expect(
      pg.transaction((tx) => tx.query('select 1', [], { parsers: { 23: (v) => Number(v) + 1 } })),
    ).rejects.toThrow(/type 23/)
  })
})
