/**
 * The customers feed for an ERP's accounts (ADR 0220): a site's customers in change order, each
 * with its contacts and addresses, on the feed cursor of admin.feed.ts. A customer appears again
 * whenever its details, contacts, addresses or standing (disabled, two-factor) change.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { customers } from '../auth/auth.tables.ts'
import { customerAddresses, customerContacts } from '../customers/customers.tables.ts'
import { decodeCursor, feedPage, feedWindow } from './admin.feed.ts'

export async function customersFeed(db: Db, siteId: number, query: { after?: string; limit: number }) {
  const after = query.after ? decodeCursor(query.after) : null
  const rows = await db
    .select({
      id: customers.id,
      email: customers.email,
      firstName: customers.firstName,
      lastName: customers.lastName,
      company: customers.company,
      kind: customers.kind,
      externalKey: customers.externalKey,
      registered: sql<boolean>`${customers.passwordHash} is not null`,
      emailVerified: sql<boolean>`${customers.emailVerifiedAt} is not null`,
      registerDate: customers.registerDate,
      disabled: sql<boolean>`${customers.disabledAt} is not null`,
      twoFactor: sql<boolean>`${customers.twoFactorConfirmedAt} is not null and ${customers.twoFactorSecret} is not null`,
      twoFactorResetPending: sql<boolean>`${customers.twoFactorResetAt} is not null`,
      updatedAt: customers.updatedAt,
      changeSeq: customers.changeSeq,
      changeXid: sql<string>`${customers.changeXid}::text`,
    })
    .from(customers)
    .where(and(eq(customers.siteId, siteId), feedWindow(customers.changeXid, customers.changeSeq, after)))
    .orderBy(asc(customers.changeXid), asc(customers.changeSeq))
    .limit(query.limit)
  const ids = rows.map((r) => r.id)
  const [contacts, addresses] = ids.length
    ? await Promise.all([
        db
          .select()
          .from(customerContacts)
          .where(inArray(customerContacts.customerId, ids))
          .orderBy(asc(customerContacts.id)),
        db
          .select()
          .from(customerAddresses)
          .where(inArray(customerAddresses.customerId, ids))
          .orderBy(asc(customerAddresses.id)),
      ])
    : [[], []]
  return {
    customers: rows.map(
      ({
        changeSeq,
        changeXid: _xid,
        registerDate,
        updatedAt,
        disabled,
        twoFactor,
        twoFactorResetPending,
        ...c
      }) => ({
        ...c,
        standing: { disabled, twoFactor, twoFactorResetPending },
        changeSeq,
        registerDate: registerDate?.toISOString() ?? null,
        updatedAt: updatedAt.toISOString(),
        contacts: contacts
          .filter((x) => x.customerId === c.id)
          .map(({ id, firstName, lastName, email, phone, company, primary }) => ({
            id,
            firstName,
            lastName,
            email,
            phone,
            company,
            primary,
          })),
        addresses: addresses
          .filter((a) => a.customerId === c.id)
          .map(({ id, type, company, address1, address2, town, county, postcode, country, primary }) => ({
            id,
            type,
            company,
            address1,
            address2,
            town,
            county,
            postcode,
            country,
            primary,
          })),
      }),
    ),
    ...feedPage(rows, (r) => ({ xid: r.changeXid, seq: r.changeSeq }), query.after, query.limit),
  }
}
