/**
 * What the shop's staff may do to a customer's sign-in (issue 34, the back office's customers):
 * reset two-factor (a lost phone: the secret and recovery codes are gone and the next sign-in
 * leads to setting it up again) and disable or re-enable the account (a disabled account cannot
 * sign in). Each ends the account's sessions the way a password reset does: database sessions
 * and remember-me tokens are deleted, and the session generation is raised so a session in any
 * store (Redis too) is logged out at its next request.
 *
 * The caller's `record` runs inside the same transaction with the account before and after, so a
 * change without its record cannot be; `changeAudited` writes the audit row there, for the back
 * office (the staff member), the integration API (the token) and the CLI alike.
 */
import { eq, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client.ts'
import { DomainError } from '../../lib/domain-error.ts'
import { sessions } from '../../plugins/session.tables.ts'
import { writeAudit, type Actor } from './staff.audit.ts'
import type { AuthService } from '../auth/auth.service.ts'
import { customers, recoveryCodes, rememberTokens, type CustomerRow } from '../auth/auth.tables.ts'

/** What the audit keeps of a customer's sign-in: never a secret. */
export interface Standing {
  disabled: boolean
  twoFactor: boolean
  twoFactorResetPending: boolean
}

export function standingOf(row: CustomerRow): Standing {
  return {
    disabled: row.disabledAt !== null,
    twoFactor: row.twoFactorConfirmedAt !== null && row.twoFactorSecret !== null,
    twoFactorResetPending: row.twoFactorResetAt !== null,
  }
}

export type StandingRecord = (tx: Tx, before: Standing, after: Standing) => Promise<void>

export type StandingChange = 'reset_two_factor' | 'disable' | 'enable'

/** What each change did, in words (the back office's notice, the API's and the CLI's answer). */
export const STANDING_DONE: Record<StandingChange, string> = {
  reset_two_factor:
    'Two-factor was reset: their sessions ended, and they will be asked to set it up again when they next sign in.',
  disable: 'The account was disabled: their sessions ended and they cannot sign in.',
  enable: 'The account was enabled again: they can sign in.',
}

/** The audit log's name of each change. */
export const STANDING_AUDIT_ACTION: Record<StandingChange, string> = {
  reset_two_factor: 'customer.two_factor.reset',
  disable: 'customer.disable',
  enable: 'customer.enable',
}

/** Why a change cannot be made to this account as it is, or null. */
function refusal(change: StandingChange, row: CustomerRow): string | null {
  const s = standingOf(row)
  if (change === 'disable' && s.disabled) return 'This account is already disabled.'
  if (change === 'enable' && !s.disabled) return 'This account is not disabled.'
  if (change === 'reset_two_factor' && !s.twoFactor && row.twoFactorSecret === null)
    return 'This customer has not set up two-factor: there is nothing to reset.'
  return null
}

export class AccountStanding {
  constructor(
    private readonly db: Db,
    private readonly auth: Pick<AuthService, 'customerChanged'>,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Makes the change under the customer's row lock; a change that does not apply to the account
   * as it is (already disabled, no two-factor) is refused with an 'invalid' DomainError and changes
   * nothing. With `siteId`, another site's customer is 'not_found' (the integration API's token).
   */
  async change(
    customerId: number,
    change: StandingChange,
    record: StandingRecord,
    scope: { siteId?: number | undefined } = {},
  ): Promise<CustomerRow> {
    const updated = await this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(customers).where(eq(customers.id, customerId)).for('update')
      if (!row || (scope.siteId !== undefined && row.siteId !== scope.siteId))
        throw new DomainError('not_found', 'There is no customer with this number.')
      const refused = refusal(change, row)
      if (refused) throw new DomainError('invalid', refused)
      const at = new Date(this.now())
      const set =
        change === 'enable'
          ? { disabledAt: null }
          : change === 'disable'
            ? { disabledAt: at }
            : {
                twoFactorSecret: null,
                twoFactorConfirmedAt: null,
                twoFactorLastStep: null,
                twoFactorResetAt: at,
              }
      if (change !== 'enable') await endSessions(tx, customerId)
      if (change === 'reset_two_factor')
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.customerId, customerId))
      const [after] = await tx
        .update(customers)
        .set({
          ...set,
          ...(change !== 'enable' ? { sessionGeneration: sql`${customers.sessionGeneration} + 1` } : {}),
          updatedAt: at,
        })
        .where(eq(customers.id, customerId))
        .returning()
      await record(tx, standingOf(row), standingOf(after!))
      return after!
    })
    this.auth.customerChanged(customerId)
    return updated
  }

  /** The change, with its audit row (who, the change, the standing before and after) written with it. */
  changeAudited(
    actor: Actor,
    customerId: number,
    change: StandingChange,
    scope: { siteId?: number | undefined } = {},
  ): Promise<CustomerRow> {
    return this.change(
      customerId,
      change,
      (tx, before, after) =>
        writeAudit(tx, actor, {
          action: STANDING_AUDIT_ACTION[change],
          targetType: 'customer',
          targetId: customerId,
          before: { ...before },
          after: { ...after },
        }),
      scope,
    )
  }
}

/** Every session and remember-me login of the account ends (as at a password reset). */
async function endSessions(tx: Tx, customerId: number): Promise<void> {
  await tx.delete(rememberTokens).where(eq(rememberTokens.customerId, customerId))
  await tx.delete(sessions).where(sql`${sessions.data}->>'customerId' = ${String(customerId)}`)
}
