/**
 * A customer's sign-in from the integration API (issue 34: nothing only the back office can do):
 * disable, enable again and reset two-factor, through the back office's own service, audited with
 * the token's name; a repeat with the same Idempotency-Key answers the first answer; another
 * site's customer is 404; a change the account does not allow is 409; bad input is 4xx and
 * changes nothing. The customers feed shows each customer's standing.
 */
import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { generateSecret } from 'otplib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_SECRET_PREFIX } from '../../src/server/modules/auth/auth.crypto.ts'
import { customers, recoveryCodes, rememberTokens } from '../../src/server/modules/auth/auth.tables.ts'
import { AdminTokens } from '../../src/server/modules/admin/admin.tokens.ts'
import { executeAttentionCommand } from '../../src/server/modules/staff/cli.attention.ts'
import { DomainError } from '../../src/server/lib/domain-error.ts'
import { staffAudit } from '../../src/server/modules/staff/staff.tables.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { siteIdFor } from '../factories/product.ts'

let t: TestApp
let token: string
let siteId: number
let otherSiteId: number
let made = 0

beforeAll(async () => {
  t = await buildTestApp()
  ;({ token } = await new AdminTokens(t.app.db).create('localhost', 'erp-standing'))
  siteId = await siteIdFor(t.app.db)
  otherSiteId = await siteIdFor(t.app.db, '127.0.0.1')
})
afterAll(async () => {
  await t?.close()
})

async function makeCustomer(opts: { site?: number; twoFactor?: boolean; disabled?: boolean } = {}) {
  const n = ++made
  const [row] = await t.app.db
    .insert(customers)
    .values({
      siteId: opts.site ?? siteId,
      email: `standing${n}.${process.pid}@example.com`,
      firstName: 'Stan',
      lastName: `Ding${n}`,
      ...(opts.twoFactor
        ? { twoFactorSecret: `${DEMO_SECRET_PREFIX}${generateSecret()}`, twoFactorConfirmedAt: new Date() }
        : {}),
      ...(opts.disabled ? { disabledAt: new Date() } : {}),
    })
    .returning()
  return row!
}

const post = (path: string, key: string | null = randomUUID(), payload?: unknown) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/v1${path}`,
    headers: {
      host: 'localhost',
      authorization: `Bearer ${token}`,
      ...(key === null ? {} : { 'idempotency-key': key }),
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  })

const audits = (id: number) =>
  t.app.db
    .select()
    .from(staffAudit)
    .where(and(eq(staffAudit.targetType, 'customer'), eq(staffAudit.targetId, String(id))))
    .orderBy(staffAudit.id)

const rowOf = async (id: number) => (await t.app.db.select().from(customers).where(eq(customers.id, id)))[0]!

describe("a customer's sign-in from the integration API", () => {
  it('disables an account, ends its remember-me logins, and audits the change with the token’s name', async () => {
    const c = await makeCustomer()
    await t.app.db.insert(rememberTokens).values({
      customerId: c.id,
      selector: randomUUID(),
      validatorHash: 'x',
      expiresAt: new Date(Date.now() + 1e9),
    })
    const res = await post(`/customers/${c.id}/disable`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({
      id: c.id,
      email: c.email,
      standing: { disabled: true, twoFactor: false, twoFactorResetPending: false },
      message: 'The account was disabled: their sessions ended and they cannot sign in.',
    })
    expect((await rowOf(c.id)).disabledAt).not.toBeNull()
    expect(await t.app.db.select().from(rememberTokens).where(eq(rememberTokens.customerId, c.id))).toEqual(
      [],
    )
    const [audit] = await audits(c.id)
    expect(audit).toMatchObject({
      action: 'customer.disable',
      actorId: null,
      actorEmail: 'token:erp-standing',
      before: { disabled: false },
      after: { disabled: true },
    })
  })

  it('enables a disabled account again, and refuses to enable one that is not disabled with 409', async () => {
    const c = await makeCustomer({ disabled: true })
    const res = await post(`/customers/${c.id}/enable`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().standing.disabled).toBe(false)
    expect((await rowOf(c.id)).disabledAt).toBeNull()
    const again = await post(`/customers/${c.id}/enable`)
    expect(again.statusCode).toBe(409)
    expect(again.json().message).toBe('This account is not disabled.')
    expect((await audits(c.id)).map((a) => a.action)).toEqual(['customer.enable'])
  })

  it('resets two-factor: the secret and recovery codes go, and the next sign-in sets it up again', async () => {
    const c = await makeCustomer({ twoFactor: true })
    await t.app.db.insert(recoveryCodes).values({ customerId: c.id, codeHash: 'h' })
    const res = await post(`/customers/${c.id}/reset-two-factor`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().standing).toEqual({ disabled: false, twoFactor: false, twoFactorResetPending: true })
    const row = await rowOf(c.id)
    expect(row).toMatchObject({ twoFactorSecret: null, twoFactorConfirmedAt: null })
    expect(await t.app.db.select().from(recoveryCodes).where(eq(recoveryCodes.customerId, c.id))).toEqual([])
    // Nothing left to reset: refused, and nothing written.
    const again = await post(`/customers/${c.id}/reset-two-factor`)
    expect(again.statusCode).toBe(409)
    expect(again.json().message).toMatch(/has not set up two-factor/)
    expect((await audits(c.id)).map((a) => a.action)).toEqual(['customer.two_factor.reset'])
  })

  it('answers a repeat with the same Idempotency-Key with the first answer, changing nothing again', async () => {
    const c = await makeCustomer()
    const key = randomUUID()
    const first = await post(`/customers/${c.id}/disable`, key)
    expect(first.statusCode).toBe(200)
    const generation = (await rowOf(c.id)).sessionGeneration
    const replay = await post(`/customers/${c.id}/disable`, key)
    expect(replay.statusCode).toBe(200)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json()).toEqual(first.json())
    expect((await rowOf(c.id)).sessionGeneration).toBe(generation)
    expect(await audits(c.id)).toHaveLength(1)
    // The same key on another customer is another request: refused.
    const other = await makeCustomer()
    expect((await post(`/customers/${other.id}/disable`, key)).statusCode).toBe(422)
    expect((await rowOf(other.id)).disabledAt).toBeNull()
  })

  it("refuses another site's customer and an unknown one with 404, changing nothing", async () => {
    const theirs = await makeCustomer({ site: otherSiteId })
    const res = await post(`/customers/${theirs.id}/disable`)
    expect(res.statusCode).toBe(404)
    expect(res.json().message).toBe('There is no customer with this number.')
    expect((await rowOf(theirs.id)).disabledAt).toBeNull()
    expect(await audits(theirs.id)).toEqual([])
    expect((await post('/customers/2147483647/enable')).statusCode).toBe(404)
  })

  it('refuses a write without an Idempotency-Key or a token, and a bad customer id, changing nothing', async () => {
    const c = await makeCustomer()
    const noKey = await post(`/customers/${c.id}/disable`, null)
    expect(noKey.statusCode).toBe(400)
    expect(noKey.json().message).toMatch(/Idempotency-Key/)
    for (const id of ['abc', '0', '-1', '1.5', '2147483648']) {
      const res = await post(`/customers/${id}/disable`)
      expect(res.statusCode, id).toBe(422)
      expect(res.json().errors[0]).toMatchObject({ field: 'id', message: 'must be a customer id' })
    }
    const unauthorised = await t.app.inject({
      method: 'POST',
      url: `/api/admin/v1/customers/${c.id}/disable`,
      headers: { host: 'localhost', 'idempotency-key': randomUUID() },
    })
    expect(unauthorised.statusCode).toBe(401)
    expect((await rowOf(c.id)).disabledAt).toBeNull()
    expect(await audits(c.id)).toEqual([])
  })

  it("shows each customer's standing in the customers feed, and the customer again after a change", async () => {
    type Served = { id: number; standing: Record<string, boolean> }
    /**
     * The feed from `after` on until it serves the customer. On PostgreSQL the feed serves a row
     * only once every older transaction has ended (ADR 0220), and other databases' transactions
     * on the same server count: ask again until it is served, for at most ten seconds.
     */
    const servedFrom = async (after: string | null, id: number) => {
      let cursor = after
      for (const started = Date.now(); Date.now() - started < 10_000;) {
        const res = await t.app.inject({
          url: `/api/admin/v1/customers?limit=200${cursor ? `&after=${cursor}` : ''}`,
          headers: { host: 'localhost', authorization: `Bearer ${token}` },
        })
        expect(res.statusCode, res.body).toBe(200)
        const page = res.json() as { customers: Served[]; next_cursor: string | null; has_more: boolean }
        cursor = page.next_cursor
        const found = page.customers.find((x) => x.id === id)
        if (found) return { found, cursor }
        if (!page.has_more) await new Promise((r) => setTimeout(r, 50))
      }
      throw new Error(`customer ${id} was not served`)
    }
    const c = await makeCustomer({ twoFactor: true })
    const first = await servedFrom(null, c.id)
    expect(first.found.standing).toEqual({ disabled: false, twoFactor: true, twoFactorResetPending: false })
    expect((await post(`/customers/${c.id}/disable`)).statusCode).toBe(200)
    const again = await servedFrom(first.cursor, c.id)
    expect(again.found.standing).toEqual({ disabled: true, twoFactor: true, twoFactorResetPending: false })
  })
})

describe("a customer's sign-in from the CLI (npm run admin -- customers …)", () => {
  const run = async (cmd: Parameters<typeof executeAttentionCommand>[1]) => {
    const lines: string[] = []
    const actor = { id: null, email: 'cli:tester', ip: '' }
    const ok = await executeAttentionCommand({ app: t.app, actor, out: (l) => lines.push(l) }, cmd)
    return { ok, lines }
  }

  it('disables a customer found by e-mail on the named site, audited as the CLI user', async () => {
    const c = await makeCustomer()
    const done = await run({
      kind: 'standing',
      change: 'disable',
      customer: { email: c.email },
      site: 'localhost',
    })
    expect(done).toEqual({
      ok: true,
      lines: [
        'The account was disabled: their sessions ended and they cannot sign in.',
        `customer ${c.id} (${c.email}): disabled, two-factor off`,
      ],
    })
    expect((await rowOf(c.id)).disabledAt).not.toBeNull()
    expect(await audits(c.id)).toMatchObject([{ action: 'customer.disable', actorEmail: 'cli:tester' }])
  })

  it("refuses a change the standing does not allow, and another site's customer, changing nothing", async () => {
    const c = await makeCustomer()
    await expect(run({ kind: 'standing', change: 'enable', customer: { id: c.id } })).rejects.toThrow(
      'This account is not disabled.',
    )
    await expect(
      run({ kind: 'standing', change: 'disable', customer: { email: c.email }, site: '127.0.0.1' }),
    ).rejects.toBeInstanceOf(DomainError)
    expect((await rowOf(c.id)).disabledAt).toBeNull()
    expect(await audits(c.id)).toEqual([])
  })
})
