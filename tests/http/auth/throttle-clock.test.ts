import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts'
import { RULES, Throttle } from '../../../src/server/modules/auth/throttle.ts'

describe('throttle (fake clock)', () => {
  let db: TestDatabase
  let now = Date.parse('2026-01-01T00:00:00Z')
  let throttle: Throttle
  beforeAll(async () => {
    db = await createTestDatabase()
    throttle = new Throttle(db.database.db, () => now)
  })
  afterAll(() => db?.dispose())

  it('locks an account and address after 5 failures with a pause doubling from 30 seconds', async () => {
    for (let i = 1; i <= 4; i++)
      expect((await throttle.fail('k1', RULES.loginPerAccountAndIp)).lockedFor).toBe(0)
    expect((await throttle.fail('k1', RULES.loginPerAccountAndIp)).lockedFor).toBe(30)
    expect(await throttle.lockedFor('k1')).toBe(30)
    now += 31_000
    expect(await throttle.lockedFor('k1')).toBe(0)
    expect((await throttle.fail('k1', RULES.loginPerAccountAndIp)).lockedFor).toBe(60)
  })

  it('starts counting again after the window', async () => {
    for (let i = 0; i < 4; i++) await throttle.fail('k2', RULES.loginPerAccountAndIp)
    now += 16 * 60_000
    expect((await throttle.fail('k2', RULES.loginPerAccountAndIp)).failures).toBe(1)
  })

  it('allows 10 failed two-factor codes a day, then a day of cooldown', async () => {
    for (let i = 1; i < 10; i++)
      expect((await throttle.fail('2fa', RULES.twoFactorPerAccount)).lockedFor).toBe(0)
    expect((await throttle.fail('2fa', RULES.twoFactorPerAccount)).lockedFor).toBe(24 * 3600)
    now += 23 * 3600_000
    expect(await throttle.lockedFor('2fa')).toBeGreaterThan(0)
    await throttle.clear('2fa')
    expect(await throttle.lockedFor('2fa')).toBe(0)
  })
})
