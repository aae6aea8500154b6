/**
 * The back office's customers (issue 34): a list across both sites, newest first, keyset-paginated
 * on the id (a serial: newer accounts have larger ids) and never counted, with search by e-mail
 * (prefix), name or company (anywhere in it), or postcode (any of the customer's addresses, without
 * spaces, prefix); and one customer's page: the account, its sign-in standing, orders, contacts and
 * addresses. What a customer is follows the ERP's customers feed (admin.customers.ts).
 */
import { and, asc, desc, eq, lt, or, sql, type SQL } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { customers } from '../auth/auth.tables.ts'
import { customerAddresses, customerContacts } from '../customers/customers.tables.ts'
import { orders } from '../orders/orders.tables.ts'
import { sites } from '../sites/sites.tables.ts'
import { normalisePostcode } from '../../../shared/staff.ts'
import { searchKindOfCustomer, type CustomerListQuery } from '../../../shared/staff-customers.ts'

export const CUSTOMER_PAGE_SIZE = 50
/** The customer page shows this many of the newest orders (the order list has them all). */
export const CUSTOMER_ORDERS_SHOWN = 20

/** `%` and `_` typed by a person are literal characters in a LIKE pattern. */
const escapeLike = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`)

function searchCondition(q: string, kindIn: CustomerListQuery['kind']): SQL {
  const t = q.trim()
  const kind = searchKindOfCustomer(t, kindIn)
  const anywhere = `%${escapeLike(t.toLowerCase())}%`
  const name = sql`lower(${customers.firstName} || ' ' || ${customers.lastName}) like ${anywhere}`
  const company = sql`(lower(coalesce(${customers.company}, '')) like ${anywhere} or exists (
    select 1 from ${customerContacts} where ${customerContacts.customerId} = ${customers.id}
      and lower(${customerContacts.company}) like ${anywhere}))`
  switch (kind) {
    case 'email':
      return sql`${customers.email} like ${`${escapeLike(t.toLowerCase())}%`}`
    case 'postcode':
      return sql`exists (select 1 from ${customerAddresses} where ${customerAddresses.customerId} = ${customers.id}
        and upper(replace(${customerAddresses.postcode}, ' ', '')) like ${`${escapeLike(normalisePostcode(t))}%`})`
    case 'name':
      return name
    case 'company':
      return company
    case 'name_or_company':
      return or(name, company)!
  }
}

export interface CustomerListRow {
  id: number
  site: string
  email: string
  name: string
  company: string | null
  registered: boolean
  disabled: boolean
  since: string
}

export async function listCustomers(
  db: Executor,
  q: CustomerListQuery,
): Promise<{ rows: CustomerListRow[]; next: string | null }> {
  const where: SQL[] = []
  if (q.site) where.push(eq(customers.siteId, q.site))
  if (q.q) where.push(searchCondition(q.q, q.kind))
  if (q.after) where.push(lt(customers.id, q.after))
  const rows = await db
    .select({
      id: customers.id,
      site: sites.name,
      email: customers.email,
      firstName: customers.firstName,
      lastName: customers.lastName,
      company: customers.company,
      registered: sql<boolean>`${customers.passwordHash} is not null`,
      disabledAt: customers.disabledAt,
      createdAt: customers.createdAt,
    })
    .from(customers)
    .innerJoin(sites, eq(sites.id, customers.siteId))
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(customers.id))
    .limit(CUSTOMER_PAGE_SIZE + 1)
  const page = rows.slice(0, CUSTOMER_PAGE_SIZE)
  return {
    rows: page.map((r) => ({
      id: r.id,
      site: r.site,
      email: r.email,
      name: `${r.firstName} ${r.lastName}`.trim(),
      company: r.company,
      registered: r.registered,
      disabled: r.disabledAt !== null,
      since: r.createdAt.toISOString(),
    })),
    next: rows.length > CUSTOMER_PAGE_SIZE ? String(page.at(-1)!.id) : null,
  }
}

/** Everything the customer page shows, or null for an unknown id. */
export async function customerDetail(db: Executor, id: number) {
  const [row] = await db
    .select({ c: customers, site: sites.name })
    .from(customers)
    .innerJoin(sites, eq(sites.id, customers.siteId))
    .where(eq(customers.id, id))
    .limit(1)
  if (!row) return null
  const c = row.c
  const [contacts, addresses, recent] = await Promise.all([
    db
      .select()
      .from(customerContacts)
      .where(eq(customerContacts.customerId, id))
      .orderBy(desc(customerContacts.primary), asc(customerContacts.id)),
    db
      .select()
      .from(customerAddresses)
      .where(eq(customerAddresses.customerId, id))
      .orderBy(asc(customerAddresses.type), desc(customerAddresses.primary), asc(customerAddresses.id)),
    db
      .select({
        number: orders.orderNumber,
        date: orders.orderDate,
        status: orders.status,
        method: orders.paymentMethod,
        currency: orders.currency,
        total: orders.totalIncVat,
      })
      .from(orders)
      .where(eq(orders.customerId, id))
      .orderBy(desc(orders.orderDate), desc(orders.id))
      .limit(CUSTOMER_ORDERS_SHOWN + 1),
  ])
  return {
    id: c.id,
    site: row.site,
    email: c.email,
    firstName: c.firstName,
    lastName: c.lastName,
    company: c.company,
    kind: c.kind,
    registered: c.passwordHash !== null,
    emailVerified: c.emailVerifiedAt !== null,
    registerDate: c.registerDate?.toISOString() ?? null,
    disabled: c.disabledAt !== null,
    disabledAt: c.disabledAt?.toISOString() ?? null,
    twoFactor: c.twoFactorConfirmedAt !== null && c.twoFactorSecret !== null,
    twoFactorResetPending: c.twoFactorResetAt !== null,
    contacts: contacts.map(({ id: cid, firstName, lastName, email, phone, company, primary }) => ({
      id: cid,
      name: `${firstName} ${lastName}`.trim(),
      email,
      phone,
      company,
      primary,
    })),
    addresses: addresses.map(
      ({ id: aid, type, company, address1, address2, town, county, postcode, country, primary }) => ({
        id: aid,
        type,
        company,
        address1,
        address2,
        town,
        county,
        postcode,
        country,
        primary,
      }),
    ),
    orders: recent.slice(0, CUSTOMER_ORDERS_SHOWN).map((o) => ({ ...o, date: o.date.toISOString() })),
    moreOrders: recent.length > CUSTOMER_ORDERS_SHOWN,
  }
}
