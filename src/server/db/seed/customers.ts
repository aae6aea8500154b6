/**
 * Demo customers (credentials documented in the README). Idempotent: matched on site + e-mail
 * and brought back to their seeded state, password and two-factor included.
 */
import { eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { sites } from '../../modules/sites/sites.tables.ts'
import { customers, recoveryCodes } from '../../modules/auth/auth.tables.ts'
import { customerAddresses, customerContacts } from '../../modules/customers/customers.tables.ts'
import { DEMO_SECRET_PREFIX, hashPassword } from '../../modules/auth/auth.crypto.ts'

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
    phone: '01632 960 555',
    address: {
      address1: '12 Quay Street',
      town: 'Bristol',
      county: 'Avon',
      postcode: 'BS1 4DJ',
      country: 'GB',
    },
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
    phone: '01632 960 556',
    address: { address1: '3 Dock Road', town: 'Cardiff', county: '', postcode: 'CF10 5AL', country: 'GB' },
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
    phone: '312-555-0198',
    address: {
      address1: '400 Lake Shore Drive',
      town: 'Chicago',
      county: 'IL',
      postcode: '60611',
      country: 'US',
    },
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
      username: demo.email,
      firstName: demo.firstName,
      lastName: demo.lastName,
      company: demo.company,
      emailVerifiedAt: new Date('2026-01-01T00:00:00Z'),
      registerDate: new Date('2026-01-01T00:00:00Z'),
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
    // The address book back to its seeded state: one primary contact, shipping and billing address.
    await db.delete(customerContacts).where(eq(customerContacts.customerId, row.id))
    await db.delete(customerAddresses).where(eq(customerAddresses.customerId, row.id))
    await db.insert(customerContacts).values({
      customerId: row.id,
      firstName: demo.firstName,
      lastName: demo.lastName,
      email: demo.email,
      phone: demo.phone,
      company: demo.company ?? '',
      primary: true,
    })
    for (const type of ['shipping', 'billing'] as const) {
      await db
        .insert(customerAddresses)
        .values({ customerId: row.id, type, company: demo.company ?? '', ...demo.address, primary: true })
    }
    await db.delete(recoveryCodes).where(inArray(recoveryCodes.customerId, [row.id]))
    for (const code of demo.recoveryCodes) {
      await db.insert(recoveryCodes).values({ customerId: row.id, codeHash: await hashPassword(code) })
    }
  }
}
