/**
 * The demo shop's back-office owner (README, 'The back office'): created by the demo seed and
 * printed at the first start, like the demo customers; `npm run db:seed` puts it back as it was
 * (password, two-factor, role). The TOTP secret is public on purpose and kept unsealed, as the
 * demo customers' is (the seed runs without the application secret).
 */
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { DEMO_SECRET_PREFIX, hashPassword } from '../auth/auth.crypto.ts'
import { SYSTEM_ACTOR, writeAudit } from './staff.audit.ts'
import { staffUsers } from './staff.tables.ts'

export const DEMO_OWNER = {
  email: 'owner@shop.example',
  name: 'Olive Owner',
  password: 'Owner-demo-2026!',
  /** Base32, for any authenticator app. */
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
} as const

export async function seedDemoOwner(db: Db, log: (m: string) => void = () => {}): Promise<void> {
  const values = {
    name: DEMO_OWNER.name,
    role: 'owner' as const,
    passwordHash: await hashPassword(DEMO_OWNER.password),
    twoFactorSecret: `${DEMO_SECRET_PREFIX}${DEMO_OWNER.totpSecret}`,
    twoFactorConfirmedAt: new Date(),
    twoFactorLastStep: null,
    disabledAt: null,
    updatedAt: new Date(),
  }
  const [existing] = await db
    .select({ id: staffUsers.id })
    .from(staffUsers)
    .where(eq(staffUsers.email, DEMO_OWNER.email))
  if (existing) {
    await db.update(staffUsers).set(values).where(eq(staffUsers.id, existing.id))
  } else {
    const [row] = await db
      .insert(staffUsers)
      .values({ email: DEMO_OWNER.email, ...values })
      .returning({ id: staffUsers.id })
    await writeAudit(db, SYSTEM_ACTOR, {
      action: 'staff.create_owner',
      targetType: 'staff_user',
      targetId: row!.id,
      after: { email: DEMO_OWNER.email, role: 'owner', demo: true },
    })
  }
  log(
    `Back office: /admin on any demo site's address. Demo owner ${DEMO_OWNER.email}, password ${DEMO_OWNER.password}, ` +
      `two-factor secret ${DEMO_OWNER.totpSecret} (add it to an authenticator app)`,
  )
}
