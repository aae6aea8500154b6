/**
 * Demo customers (credentials documented in the README). Idempotent: matched on site + e-mail
 * and brought back to their seeded state, password and two-factor included.
 */
import { inArray, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { sites } from '../sites/sites.tables.ts'
import { customers, recoveryCodes } from './auth.tables.ts'
import { DEMO_SECRET_PREFIX, hashPassword } from './auth.crypto.ts'

export const DEMO_CUSTOMERS = [
  {
    siteCode: 'harbour',
    email: 'demo@harbour-safety.example',
    password: 'Harbour-demo-2026',
    firstName: 'Dana',
    lastName: 'Demo',
    company: 'Demo Works Ltd',
    twoFactorSecret: null as string | null,
    recoveryCodes: [] as string[],
  },
  {
    siteCode: 'harbour',
    email: 'twofactor@harbour-safety.example',
    password: 'Harbour-2fa-2026!',
    firstName: 'Tariq',
    lastName: 'Twofactor',
    company: null,
    /** Base32 TOTP secret, public on purpose: add it to an authenticator app to log in. */
    twoFactorSecret: 'KVKFKRCPNZQUYMLXOVYDSQKJKZDTSRLD',
    recoveryCodes: ['harbr-demo2-recv1', 'harbr-demo2-recv2'],
  },
  {
    siteCode: 'northgate',
    email: 'demo@northgate-workplace.example',
    password: 'Northgate-demo-2026',
    firstName: 'Jordan',
    lastName: 'Demo',
    company: null,
    twoFactorSecret: null,
    recoveryCodes: [],
  },
]

export async function seedCustomers(db: Db): Promise<void> {
  const siteRows = await db.select({ id: sites.id, code: sites.code }).from(sites)
  const siteIds = new Map(siteRows.map((s) => [s.code, s.id]))
  for (const demo of DEMO_CUSTOMERS) {
    const siteId = siteIds.get(demo.siteCode)
    if (siteId === undefined) continue
    const values = {
      siteId,
      email: demo.email,
      passwordHash: await hashPassword(demo.password),
      firstName: demo.firstName,
      lastName: demo.lastName,
      company: demo.company,
      emailVerifiedAt: new Date('2026-01-01T00:00:00Z'),
      twoFactorSecret: demo.twoFactorSecret ? `${DEMO_SECRET_PREFIX}${demo.twoFactorSecret}` : null,
      twoFactorConfirmedAt: demo.twoFactorSecret ? new Date('2026-01-01T00:00:00Z') : null,
      twoFactorLastStep: null,
    }
    const [row] = await db
      .insert(customers)
      .values(values)
      .onConflictDoUpdate({
        target: [customers.siteId, customers.email],
        set: { ...values, updatedAt: sql`now()` },
      })
      .returning({ id: customers.id })
    if (!row) continue
    await db.delete(recoveryCodes).where(inArray(recoveryCodes.customerId, [row.id]))
    for (const code of demo.recoveryCodes) {
      await db.insert(recoveryCodes).values({ customerId: row.id, codeHash: await hashPassword(code) })
    }
  }
}
