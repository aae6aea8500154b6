import { sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RemoteDatabaseError, startEmbeddedDatabase, type RemotePGlite } from './pglite-remote.ts'

describe('the embedded database in its own thread', () => {
  let client: RemotePGlite

  beforeAll(async () => {
    client = startEmbeddedDatabase(null)
    await client.waitReady
    await client.exec(`
      create table items (id serial primary key, code text not null unique, made timestamp not null default now());
      insert into items (code, made) values ('a', '2026-01-02 03:04:05');
    `)
  }, 60_000)

  afterAll(async () => {
    await client.close()
  })

  it('answers a query with objects or arrays, keeping the types the caller keeps as text', async () => {
    const objects = await client.query<{ code: string; made: string }>(
      'select code, made from items where code = $1',
      ['a'],
      { parsers: { 1114: (value: string) => value } },
    )
    expect(objects.rows).toEqual([{ code: 'a', made: '2026-01-02 03:04:05' }])
    const arrays = await client.query('select code, made from items', [], { rowMode: 'array' })
    expect(arrays.rows).toEqual([['a', new Date('2026-01-02T03:04:05')]])
  })

  it('commits a transaction whose callback returns, and gives back its result', async () => {
    const result = await client.transaction(async (tx) => {
      await tx.query(`insert into items (code) values ('b')`)
      return 'done'
    })
    expect(result).toBe('done')
    expect((await client.query(`select 1 from items where code = 'b'`)).rows).toHaveLength(1)
  })

  it('rolls back a transaction whose callback throws, and throws its error', async () => {
    const failure = new Error('changed my mind')
    await expect(
      client.transaction(async (tx) => {
        await tx.query(`insert into items (code) values ('c')`)
        throw failure
      }),
    ).rejects.toBe(failure)
    expect((await client.query(`select 1 from items where code = 'c'`)).rows).toHaveLength(0)
  })

  it('runs a statement sent during a transaction after the transaction has ended', async () => {
    const order: string[] = []
    let outside: Promise<unknown> = Promise.resolve()
    await client.transaction(async (tx) => {
      await tx.query(`insert into items (code) values ('d')`)
      outside = client
        .query<{ n: number }>(`select count(*)::int as n from items where code = 'd'`)
        .then((res) => order.push(`outside saw ${res.rows[0]!.n}`))
      await new Promise((resolve) => setTimeout(resolve, 30))
      order.push('transaction ends')
    })
    await outside
    expect(order).toEqual(['transaction ends', 'outside saw 1'])
  })

  it("gives a statement's error PostgreSQL's code and constraint", async () => {
    const err = await client.query(`insert into items (code) values ('a')`).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RemoteDatabaseError)
    expect(err).toMatchObject({ code: '23505', constraint: 'items_code_key' })
  })

  it('throws from COMMIT when a statement in the transaction failed and its error was caught', async () => {
    await expect(
      client.transaction(async (tx) => {
        await tx.query(`insert into items (code) values ('a')`).catch(() => {})
      }),
    ).rejects.toThrow()
    expect((await client.query(`select count(*)::int as n from items`)).rows).toEqual([{ n: 3 }])
  })

  it("keeps Drizzle's transactions and savepoints: an inner rollback leaves the outer work", async () => {
    const db = drizzle(client as never)
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into items (code) values ('outer')`)
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`insert into items (code) values ('inner')`)
          inner.rollback()
        })
        .catch(() => {})
    })
    const rows = await db.execute<{ code: string }>(sql`select code from items where code in ('outer', 'inner')`)
    expect(rows.rows.map((r) => r.code)).toEqual(['outer'])
  })
})

describe('a closed embedded database', () => {
  it('fails a statement sent after close with a clear error', async () => {
    const client = startEmbeddedDatabase(null)
    await client.waitReady
    await client.close()
    await expect(client.query('select 1')).rejects.toThrow('the embedded database is closed')
  }, 60_000)
})
