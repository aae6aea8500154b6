/**
 * The address book: a customer's contacts and shipping/billing addresses, the duplicate and
 * primary rules (spec §4 Account, §5), and guest customers made at checkout (checkout.md "Guests
 * and accounts"). Every operation takes the owning customer's id: an id that is not theirs is the
 * same NotFound as one that does not exist. Knows nothing of HTTP.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { Db, Executor, Tx } from '../../db/client.ts'
import {
  CUSTOMER_TEXT,
  sameValue,
  type Address,
  type AddressData,
  type AddressType,
  type Contact,
  type ContactData,
  type CustomerData,
  type Section,
} from '../../../shared/customer.ts'
import { customers, type CustomerRow } from '../auth/auth.tables.ts'
import { customerAddresses, customerContacts, type AddressRow, type ContactRow } from './customers.tables.ts'

export class CustomerNotFoundError extends Error {
  constructor() {
    super('Not Found')
  }
}

/** A change refused with messages per field (422). */
export class CustomerValidationError extends Error {
  constructor(readonly errors: Record<string, string[]>) {
    super(Object.values(errors)[0]?.[0] ?? CUSTOMER_TEXT.failed)
  }
}

export function presentContact(row: ContactRow): Contact {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    company: row.company,
    primary: row.primary,
  }
}

export function presentAddress(row: AddressRow): Address {
  return {
    id: row.id,
    type: row.type,
    company: row.company,
    address1: row.address1,
    address2: row.address2,
    town: row.town,
    county: row.county,
    postcode: row.postcode,
    country: row.country,
    primary: row.primary,
  }
}

function sameContact(a: ContactData | ContactRow, b: ContactData | ContactRow): boolean {
  return (
    sameValue(a.firstName, b.firstName) &&
    sameValue(a.lastName, b.lastName) &&
    sameValue(a.email, b.email) &&
    sameValue(a.phone, b.phone)
  )
}

function sameAddress(a: AddressData | AddressRow, b: AddressData | AddressRow): boolean {
  return (
    sameValue(a.company, b.company) &&
    sameValue(a.address1, b.address1) &&
    sameValue(a.address2, b.address2) &&
    sameValue(a.town, b.town) &&
    sameValue(a.postcode, b.postcode) &&
    sameValue(a.county, b.county) &&
    sameValue(a.country, b.country)
  )
}

export interface GuestDetails {
  contact: ContactData
  shipping: AddressData
  billing: AddressData | null
}

export class CustomerService {
  constructor(private readonly db: Db) {}

  // --- reads ---------------------------------------------------------------------------

  async data(customerId: number, executor: Executor = this.db): Promise<CustomerData | null> {
    const [customer] = await executor.select().from(customers).where(eq(customers.id, customerId))
    if (!customer) return null
    const [contacts, addresses] = await Promise.all([
      executor
        .select()
        .from(customerContacts)
        .where(eq(customerContacts.customerId, customerId))
        .orderBy(asc(customerContacts.id)),
      executor
        .select()
        .from(customerAddresses)
        .where(eq(customerAddresses.customerId, customerId))
        .orderBy(asc(customerAddresses.id)),
    ])
    return this.present(customer, contacts, addresses)
  }

  present(customer: CustomerRow, contacts: ContactRow[], addresses: AddressRow[]): CustomerData {
    const c = contacts.map(presentContact)
    const a = addresses.map(presentAddress)
    return {
      id: customer.id,
      username: customer.username ?? customer.email,
      ExternalKey: customer.externalKey,
      created: customer.createdAt.toISOString(),
      RegisterDate: customer.registerDate?.toISOString() ?? null,
      company: customer.company ?? '',
      contacts: c,
      primaryContact: c.find((x) => x.primary) ?? c[0] ?? null,
      addresses: a,
      shippingAddress: a.find((x) => x.type === 'shipping' && x.primary) ?? null,
      billingAddress: a.find((x) => x.type === 'billing' && x.primary) ?? null,
    }
  }

  /** A contact of this customer, or NotFound. */
  async contact(customerId: number, id: number, executor: Executor = this.db): Promise<ContactRow> {
    const [row] = await executor
      .select()
      .from(customerContacts)
      .where(and(eq(customerContacts.id, id), eq(customerContacts.customerId, customerId)))
    if (!row) throw new CustomerNotFoundError()
    return row
  }

  /** An address of this customer and type, or NotFound. */
  async address(
    customerId: number,
    type: AddressType,
    id: number,
    executor: Executor = this.db,
  ): Promise<AddressRow> {
    const [row] = await executor
      .select()
      .from(customerAddresses)
      .where(
        and(
          eq(customerAddresses.id, id),
          eq(customerAddresses.customerId, customerId),
          eq(customerAddresses.type, type),
        ),
      )
    if (!row) throw new CustomerNotFoundError()
    return row
  }

  // --- writes (each one transaction, the customer row locked so two tabs cannot race) ----

  private async locked<T>(customerId: number, run: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ id: customers.id })
        .from(customers)
        .where(eq(customers.id, customerId))
        .for('update')
      if (!row) throw new CustomerNotFoundError()
      const result = await run(tx)
      // The back office's customers feed (ADR 0220) sees a contact or address change as the
      // customer's: the update takes the customer's next change_seq ($onUpdate).
      await tx
        .update(customers)
        .set({ updatedAt: sql`now()` })
        .where(eq(customers.id, customerId))
      return result
    })
  }

  /** Adds a contact; `select` (or a customer with no contact yet) makes it the primary. */
  async addContact(customerId: number, data: ContactData, select: boolean): Promise<ContactRow> {
    return this.locked(customerId, (tx) => this.insertContact(tx, customerId, data, select))
  }

  private async insertContact(tx: Tx, customerId: number, data: ContactData, select: boolean) {
    const existing = await tx
      .select()
      .from(customerContacts)
      .where(eq(customerContacts.customerId, customerId))
    if (existing.some((c) => sameContact(c, data)))
      throw new CustomerValidationError({ form: [CUSTOMER_TEXT.contactExists] })
    const primary = select || existing.length === 0
    if (primary) await this.clearPrimaryContact(tx, customerId)
    const [row] = await tx
      .insert(customerContacts)
      .values({ customerId, ...data, primary })
      .returning()
    return row!
  }

  async addAddress(
    customerId: number,
    type: AddressType,
    data: AddressData,
    select: boolean,
  ): Promise<AddressRow> {
    return this.locked(customerId, (tx) => this.insertAddress(tx, customerId, type, data, select))
  }

  private async insertAddress(
    tx: Tx,
    customerId: number,
    type: AddressType,
    data: AddressData,
    select: boolean,
  ) {
    const existing = await tx
      .select()
      .from(customerAddresses)
      .where(and(eq(customerAddresses.customerId, customerId), eq(customerAddresses.type, type)))
    if (existing.some((a) => sameAddress(a, data)))
      throw new CustomerValidationError({ form: [CUSTOMER_TEXT.addressExists] })
    const primary = select || existing.length === 0
    if (primary) await this.clearPrimaryAddress(tx, customerId, type)
    const [row] = await tx
      .insert(customerAddresses)
      .values({ customerId, type, ...data, primary })
      .returning()
    return row!
  }

  async editContact(customerId: number, id: number, data: ContactData): Promise<ContactRow> {
    return this.locked(customerId, async (tx) => {
      await this.contact(customerId, id, tx)
      const others = await tx
        .select()
        .from(customerContacts)
        .where(and(eq(customerContacts.customerId, customerId), sql`${customerContacts.id} <> ${id}`))
      if (others.some((c) => sameContact(c, data)))
        throw new CustomerValidationError({ form: [CUSTOMER_TEXT.contactExists] })
      const [row] = await tx.update(customerContacts).set(data).where(eq(customerContacts.id, id)).returning()
      return row!
    })
  }

  async editAddress(
    customerId: number,
    type: AddressType,
    id: number,
    data: AddressData,
  ): Promise<AddressRow> {
    return this.locked(customerId, async (tx) => {
      await this.address(customerId, type, id, tx)
      const others = await tx
        .select()
        .from(customerAddresses)
        .where(
          and(
            eq(customerAddresses.customerId, customerId),
            eq(customerAddresses.type, type),
            sql`${customerAddresses.id} <> ${id}`,
          ),
        )
      if (others.some((a) => sameAddress(a, data)))
        throw new CustomerValidationError({ form: [CUSTOMER_TEXT.addressExists] })
      const [row] = await tx
        .update(customerAddresses)
        .set(data)
        .where(eq(customerAddresses.id, id))
        .returning()
      return row!
    })
  }

  /** Makes an existing entry the primary one of its kind. */
  async select(customerId: number, section: Section, id: number): Promise<void> {
    await this.locked(customerId, async (tx) => {
      if (section === 'contact') {
        await this.contact(customerId, id, tx)
        await this.clearPrimaryContact(tx, customerId)
        await tx.update(customerContacts).set({ primary: true }).where(eq(customerContacts.id, id))
      } else {
        await this.address(customerId, section, id, tx)
        await this.clearPrimaryAddress(tx, customerId, section)
        await tx.update(customerAddresses).set({ primary: true }).where(eq(customerAddresses.id, id))
      }
    })
  }

  /** Deletes entries; every id must be the customer's and none may be a primary one. */
  async remove(customerId: number, section: Section, ids: number[]): Promise<void> {
    const unique = [...new Set(ids)]
    await this.locked(customerId, async (tx) => {
      if (section === 'contact') {
        const rows = await tx
          .select()
          .from(customerContacts)
          .where(and(eq(customerContacts.customerId, customerId), inArray(customerContacts.id, unique)))
        if (rows.length !== unique.length) throw new CustomerNotFoundError()
        if (rows.some((r) => r.primary))
          throw new CustomerValidationError({ id: [CUSTOMER_TEXT.primaryContact] })
        await tx.delete(customerContacts).where(inArray(customerContacts.id, unique))
      } else {
        const rows = await tx
          .select()
          .from(customerAddresses)
          .where(
            and(
              eq(customerAddresses.customerId, customerId),
              eq(customerAddresses.type, section),
              inArray(customerAddresses.id, unique),
            ),
          )
        if (rows.length !== unique.length) throw new CustomerNotFoundError()
        if (rows.some((r) => r.primary))
          throw new CustomerValidationError({ id: [CUSTOMER_TEXT.primaryAddress(section)] })
        await tx.delete(customerAddresses).where(inArray(customerAddresses.id, unique))
      }
    })
  }

  private async clearPrimaryContact(tx: Tx, customerId: number) {
    await tx
      .update(customerContacts)
      .set({ primary: false })
      .where(and(eq(customerContacts.customerId, customerId), eq(customerContacts.primary, true)))
  }

  private async clearPrimaryAddress(tx: Tx, customerId: number, type: AddressType) {
    await tx
      .update(customerAddresses)
      .set({ primary: false })
      .where(
        and(
          eq(customerAddresses.customerId, customerId),
          eq(customerAddresses.type, type),
          eq(customerAddresses.primary, true),
        ),
      )
  }

  // --- guests --------------------------------------------------------------------------

  /**
   * The customer an order placed without logging in belongs to: a new guest (no password) with
   * the details as its primary contact and addresses, or, when the e-mail already has an account
   * on this site (registered or an earlier guest), that account, left exactly as it was. The
   * caller answers both cases the same way and never logs anyone in.
   */
  async guestFor(
    executor: Tx,
    siteId: number,
    details: GuestDetails,
  ): Promise<{ customerId: number; created: boolean }> {
    const email = details.contact.email.trim().toLowerCase()
    const [created] = await executor
      .insert(customers)
      .values({
        siteId,
        email,
        username: email,
        firstName: details.contact.firstName,
        lastName: details.contact.lastName,
        company: details.contact.company || null,
        passwordHash: null,
      })
      .onConflictDoNothing({ target: [customers.siteId, customers.email] })
      .returning({ id: customers.id })
    if (!created) {
      const [existing] = await executor
        .select({ id: customers.id })
        .from(customers)
        .where(and(eq(customers.siteId, siteId), eq(customers.email, email)))
      if (!existing) throw new Error('guest customer vanished')
      return { customerId: existing.id, created: false }
    }
    const customerId = created.id
    await executor.insert(customerContacts).values({ customerId, ...details.contact, primary: true })
    await executor
      .insert(customerAddresses)
      .values({ customerId, type: 'shipping', ...details.shipping, primary: true })
    await executor
      .insert(customerAddresses)
      .values({ customerId, type: 'billing', ...(details.billing ?? details.shipping), primary: true })
    return { customerId, created: true }
  }
}
