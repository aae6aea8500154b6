/**
 * What the demo shop's back office has to show beyond its orders (README, 'The back office'): a
 * customer who lost the phone with their authenticator (two-factor on: try 'Reset two-factor'),
 * and a card payment taken for a basket that never became an order and that the provider could
 * not void, handed to a person (it is on 'Payments to check'). Idempotent: `npm run db:seed` puts
 * both back as they were. The TOTP secret is public on purpose, as the demo customers' is.
 */
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { DEMO_SECRET_PREFIX, hashPassword } from '../auth/auth.crypto.ts'
import { customers } from '../auth/auth.tables.ts'
import { customerAddresses, customerContacts } from '../customers/customers.tables.ts'
import { paymentAttempts } from '../payments/payments.tables.ts'
import { sites } from '../sites/sites.tables.ts'

export const DEMO_LOCKED_OUT = {
  email: 'lost.phone@harbour-safety.example',
  password: 'Harbour-lost-2026!',
  firstName: 'Lee',
  lastName: 'Lostphone',
  totpSecret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
} as const

/** The stuck payment's fixed id (a UUID, as every attempt's). */
export const DEMO_STUCK_PAYMENT_ID = '0d3e0000-0000-4000-8000-00000000a771'

export async function seedBackOfficeDemo(db: Db): Promise<void> {
  const [site] = await db.select({ id: sites.id }).from(sites).where(eq(sites.code, 'harbour'))
  if (!site) return
  const account = {
    username: DEMO_LOCKED_OUT.email,
    firstName: DEMO_LOCKED_OUT.firstName,
    lastName: DEMO_LOCKED_OUT.lastName,
    passwordHash: await hashPassword(DEMO_LOCKED_OUT.password),
    emailVerifiedAt: new Date('2026-01-01T00:00:00Z'),
    registerDate: new Date('2026-01-01T00:00:00Z'),
    twoFactorSecret: `${DEMO_SECRET_PREFIX}${DEMO_LOCKED_OUT.totpSecret}`,
    twoFactorConfirmedAt: new Date('2026-01-01T00:00:00Z'),
    twoFactorLastStep: null,
    twoFactorResetAt: null,
    disabledAt: null,
  }
  const [customer] = await db
    .insert(customers)
    .values({ siteId: site.id, email: DEMO_LOCKED_OUT.email, ...account })
    .onConflictDoUpdate({ target: [customers.siteId, customers.email], set: account })
    .returning({ id: customers.id })
  // Their address book, as seeded (found by postcode in the back office).
  await db.delete(customerContacts).where(eq(customerContacts.customerId, customer!.id))
  await db.delete(customerAddresses).where(eq(customerAddresses.customerId, customer!.id))
  await db.insert(customerContacts).values({
    customerId: customer!.id,
    firstName: DEMO_LOCKED_OUT.firstName,
    lastName: DEMO_LOCKED_OUT.lastName,
    email: DEMO_LOCKED_OUT.email,
    phone: '01632 960 557',
    primary: true,
  })
  await db.insert(customerAddresses).values({
    customerId: customer!.id,
    type: 'shipping',
    address1: '8 Harbour Walk',
    town: 'Plymouth',
    county: 'Devon',
    postcode: 'PL1 2AA',
    country: 'GB',
    primary: true,
  })
  const stuck = {
    siteId: site.id,
    orderRef: 'basket:0d3e0000-0000-4000-8000-00000000b45c',
    attemptNo: 1,
    method: 'sagepay' as const,
    state: 'captured' as const,
    amountMinor: 2999,
    currency: 'GBP' as const,
    confirmedAmountMinor: 2999,
    confirmedCurrency: 'GBP',
    reference: '0d3e0000-0000-4000-8000-00000000c0de',
    checkout: null,
    resolution: 'needs_attention' as const,
    resolutionNote:
      'demo: the basket changed after payment, so no order was placed, and Opayo refused the void; refund it in MyOpayo',
    reconcileAfter: null,
    updatedAt: sql`now()`,
  }
  await db
    .insert(paymentAttempts)
    .values({ id: DEMO_STUCK_PAYMENT_ID, ...stuck })
    .onConflictDoUpdate({ target: paymentAttempts.id, set: stuck })
}
