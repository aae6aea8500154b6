/**
 * The back office's customers: list and search across both sites (e-mail, name, company,
 * postcode; keyset pages), a customer's page (orders, contacts, addresses), and the actions on
 * their sign-in (reset two-factor, disable, re-enable), refused to a viewer by the server and
 * written to the audit log.
 */
import { and, desc, eq, sql } from 'drizzle-orm'
import { generateSecret, generateSync } from 'otplib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_SECRET_PREFIX, hashPassword } from '../../src/server/modules/auth/auth.crypto.ts'
import { customers, recoveryCodes } from '../../src/server/modules/auth/auth.tables.ts'
import { customerAddresses, customerContacts } from '../../src/server/modules/customers/customers.tables.ts'
import { sites } from '../../src/server/modules/sites/sites.tables.ts'
import { staffAudit } from '../../src/server/modules/staff/staff.tables.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from './auth/browser.ts'
import { makeStaff, signIn, type MadeStaff, type StaffBrowser } from './staff.fixture.ts'

let t: TestApp
let staffer: MadeStaff
let staff: StaffBrowser
let viewer: StaffBrowser
let made = 0
const PASSWORD = 'Customer-pass-2026!'

beforeAll(async () => {
  t = await buildTestApp({ trustProxy: true })
  staffer = await makeStaff(t.app, 'staff')
  staff = await signIn(t.app, staffer)
  viewer = await signIn(t.app, await makeStaff(t.app, 'viewer'))
})
afterAll(() => t?.close())

/** A harbour customer with a password, two-factor on (or not), a contact, an address and an order. */
async function makeCustomer(opts: { twoFactor?: boolean; company?: string; postcode?: string } = {}) {
  const n = ++made
  const [site] = await t.app.db.select({ id: sites.id }).from(sites).where(eq(sites.code, 'harbour'))
  const [row] = await t.app.db
    .insert(customers)
    .values({
      siteId: site!.id,
      email: `cust${n}.${process.pid}@example.com`,
      username: `cust${n}.${process.pid}@example.com`,
      firstName: 'Quentin',
      lastName: `Quill${n}`,
      company: opts.company ?? null,
      passwordHash: await hashPassword(PASSWORD),
      emailVerifiedAt: new Date(),
      ...(opts.twoFactor
        ? { twoFactorSecret: `${DEMO_SECRET_PREFIX}${generateSecret()}`, twoFactorConfirmedAt: new Date() }
        : {}),
    })
    .returning()
  await t.app.db.insert(customerContacts).values({
    customerId: row!.id,
    firstName: 'Casey',
    lastName: 'Contact',
    email: `casey${n}@example.com`,
    company: `Contact Co ${n}`,
    primary: true,
  })
  await t.app.db.insert(customerAddresses).values({
    customerId: row!.id,
    type: 'shipping',
    address1: `${n} Test Street`,
    town: 'Leeds',
    postcode: opts.postcode ?? 'LS1 4AP',
    country: 'GB',
    primary: true,
  })
  // One of the demo orders, copied as this customer's.
  await t.app.db.execute(sql`
    insert into orders (site_id, cart_ref, status, currency, payment_method, contact, shipping_address,
      billing_address, goods_net, shipping_net, shipping_vat, vat, discount, total_inc_vat, customer_id)
    select site_id, gen_random_uuid(), status, currency, payment_method, contact, shipping_address,
      billing_address, goods_net, shipping_net, shipping_vat, vat, discount, total_inc_vat, ${row!.id}
    from orders where id = (select min(id) from orders)`)
  return row!
}

async function signedInCustomer(email: string) {
  const v = new Visitor(t.app, 'localhost', { 'x-forwarded-for': `10.9.0.${++made}` })
  const res = await v.post('/login', { email, password: PASSWORD })
  return { v, res }
}

const list = async (query: string) => {
  const res = await viewer.visit(`/admin/customers${query}`)
  expect(res.statusCode).toBe(200)
  return res.json().props as {
    customers: { id: number; email: string; name: string; company: string | null }[]
    next: string | null
    errors: Record<string, string>
  }
}

const lastAudit = async (action: string) =>
  (
    await t.app.db
      .select()
      .from(staffAudit)
      .where(eq(staffAudit.action, action))
      .orderBy(desc(staffAudit.id))
      .limit(1)
  )[0]

describe('the customer list', () => {
  it('lists the customers of both sites, newest first', async () => {
    const { customers: rows } = await list('')
    expect(rows.length).toBeGreaterThanOrEqual(3)
    const ids = rows.map((r) => r.id)
    expect([...ids].sort((a, b) => b - a)).toEqual(ids)
    expect(rows.map((r) => r.email)).toEqual(
      expect.arrayContaining(['demo@harbour-safety.example', 'demo@northgate-workplace.example']),
    )
  })

  it('finds a customer by e-mail, name, company and the postcode of any of their addresses', async () => {
    const c = await makeCustomer({ company: 'Zebra Crossings Ltd', postcode: 'YO1 7HH' })
    const found = async (q: string, kind = '') =>
      (await list(`?q=${encodeURIComponent(q)}${kind ? `&kind=${kind}` : ''}`)).customers.map((r) => r.id)
    expect(await found(c.email.toUpperCase())).toEqual([c.id])
    expect(await found(c.lastName.toLowerCase())).toContain(c.id)
    expect(await found('zebra cross')).toEqual([c.id])
    expect(await found(`Contact Co ${made}`, 'company')).toContain(c.id)
    for (const q of ['YO1 7HH', 'yo17hh', 'YO1']) expect(await found(q), q).toEqual([c.id])
    expect(await found('%', 'email')).toEqual([])
  })

  it('pages with a cursor that repeats nobody', async () => {
    for (let i = 0; i < 3; i++) await makeCustomer()
    const rows = (await list('')).customers
    // A page of 50 is more than this database holds: ask for the page after the second row.
    const after = await list(`?after=${rows[1]!.id}`)
    expect(after.customers[0]!.id).toBe(rows[2]!.id)
    expect(after.customers.some((r) => r.id === rows[0]!.id || r.id === rows[1]!.id)).toBe(false)
  })

  it('names a bad page link or a one-letter name instead of listing', async () => {
    const bad = await list('?after=abc')
    expect(bad.customers).toEqual([])
    expect(bad.errors.after).toBe('The page link is not valid.')
    const short = await list('?q=a')
    expect(short.customers).toEqual([])
    expect(short.errors.q).toBe('Please enter at least 2 letters of the name or company.')
    // A repeated search is named too; a control character is refused before any route runs.
    expect((await list('?q=ab&q=cd')).errors.q).toBeDefined()
    expect((await viewer.visit('/admin/customers?q=%00ab')).statusCode).toBe(400)
  })
})

describe("a customer's page", () => {
  it('shows the account, its orders, contacts and addresses', async () => {
    const c = await makeCustomer({ twoFactor: true })
    const res = await viewer.visit(`/admin/customers/${c.id}`)
    expect(res.json().component).toBe('admin/Customer')
    const { customer } = res.json().props
    expect(customer).toMatchObject({ id: c.id, email: c.email, twoFactor: true, disabled: false })
    expect(customer.orders).toHaveLength(1)
    expect(customer.contacts[0]).toMatchObject({ name: 'Casey Contact', primary: true })
    expect(customer.addresses[0]).toMatchObject({ type: 'shipping', postcode: 'LS1 4AP' })
  })

  it('answers an unknown or malformed customer number with a 404 page', async () => {
    expect((await viewer.visit('/admin/customers/999999999')).statusCode).toBe(404)
    expect((await viewer.visit('/admin/customers/abc')).statusCode).toBe(404)
  })
})

describe("the actions on a customer's sign-in", () => {
  it('resets two-factor: the secret and recovery codes go, their sessions end, the next sign-in leads to set-up, and the audit log has it', async () => {
    const c = await makeCustomer({ twoFactor: true })
    await t.app.db.insert(recoveryCodes).values({ customerId: c.id, codeHash: 'x' })
    const res = await staff.post(`/admin/customers/${c.id}`, { intent: 'reset_two_factor' })
    expect(res.statusCode).toBe(200)
    expect(res.json().props.notice).toMatch(/^Two-factor was reset/)
    expect(res.json().props.customer).toMatchObject({ twoFactor: false, twoFactorResetPending: true })
    const [row] = await t.app.db.select().from(customers).where(eq(customers.id, c.id))
    expect(row).toMatchObject({ twoFactorSecret: null, twoFactorConfirmedAt: null })
    expect(row!.sessionGeneration).toBe(c.sessionGeneration + 1)
    expect(await t.app.db.select().from(recoveryCodes).where(eq(recoveryCodes.customerId, c.id))).toEqual([])

    // No code is asked: they sign in with the password and are led to set two-factor up again,
    // from every page, until they have.
    const { v, res: login } = await signedInCustomer(c.email)
    expect(login.headers.location).toBe('/customer/two-factor')
    const setup = (await v.visit('/customer/two-factor')).json().props
    expect(setup).toMatchObject({ settingUp: true, enabled: false })
    expect((await v.visit('/')).headers.location).toBe('/customer/two-factor')
    const confirmed = await v.post('/customer/two-factor/confirm', {
      code: generateSync({ secret: setup.secret as string }),
    })
    expect(confirmed.headers.location).toBe('/customer/two-factor')
    expect((await v.visit('/')).statusCode).toBe(200)
    const [after] = await t.app.db.select().from(customers).where(eq(customers.id, c.id))
    expect(after).toMatchObject({ twoFactorResetAt: null })
    expect(after!.twoFactorConfirmedAt).not.toBeNull()

    expect(await lastAudit('customer.two_factor.reset')).toMatchObject({
      actorId: staffer.id,
      targetType: 'customer',
      targetId: String(c.id),
      before: { twoFactor: true, twoFactorResetPending: false },
      after: { twoFactor: false, twoFactorResetPending: true },
    })
  })

  it('disables an account: a signed-in session ends, the right password is refused with a message, and enabling lets them in again', async () => {
    const c = await makeCustomer()
    const { v } = await signedInCustomer(c.email)
    expect((await v.visit('/')).json().props.auth.customer?.email).toBe(c.email)

    const res = await staff.post(`/admin/customers/${c.id}`, { intent: 'disable' })
    expect(res.json().props.customer.disabled).toBe(true)
    expect((await v.visit('/')).json().props.auth.customer).toBeNull()
    const { v: again } = await signedInCustomer(c.email)
    expect((await again.visit('/login')).json().props.errors.email).toBe(
      'This account has been disabled. Please contact us if you think this is a mistake.',
    )
    expect(await lastAudit('customer.disable')).toMatchObject({
      targetId: String(c.id),
      before: { disabled: false },
      after: { disabled: true },
    })

    const twice = await staff.post(`/admin/customers/${c.id}`, { intent: 'disable' })
    expect(twice.statusCode).toBe(422)
    expect(twice.json().props.errors.form).toBe('This account is already disabled.')

    await staff.post(`/admin/customers/${c.id}`, { intent: 'enable' })
    expect((await signedInCustomer(c.email)).res.headers.location).not.toBe('/login')
    expect(await lastAudit('customer.enable')).toMatchObject({ after: { disabled: false } })
  })

  it('refuses a viewer every action on the server, with a valid session and CSRF token, and changes nothing', async () => {
    const c = await makeCustomer({ twoFactor: true })
    for (const intent of ['reset_two_factor', 'disable']) {
      const res = await viewer.post(`/admin/customers/${c.id}`, { intent })
      expect(res.statusCode, intent).toBe(403)
    }
    const [row] = await t.app.db.select().from(customers).where(eq(customers.id, c.id))
    expect(row).toMatchObject({ disabledAt: null, twoFactorResetAt: null, sessionGeneration: 0 })
    expect(
      await t.app.db
        .select()
        .from(staffAudit)
        .where(and(eq(staffAudit.targetType, 'customer'), eq(staffAudit.targetId, String(c.id)))),
    ).toEqual([])
  })

  it('refuses an unknown action, or a reset for a customer without two-factor, with a message and no change', async () => {
    const c = await makeCustomer()
    const bad = await staff.post(`/admin/customers/${c.id}`, { intent: 'delete' })
    expect(bad.statusCode).toBe(422)
    expect(bad.json().props.errors.intent).toBe('Please choose an action.')
    const none = await staff.post(`/admin/customers/${c.id}`, { intent: 'reset_two_factor' })
    expect(none.statusCode).toBe(422)
    expect(none.json().props.errors.form).toBe(
      'This customer has not set up two-factor: there is nothing to reset.',
    )
    const [row] = await t.app.db.select().from(customers).where(eq(customers.id, c.id))
    expect(row).toMatchObject({ disabledAt: null, twoFactorResetAt: null, sessionGeneration: 0 })
    expect((await staff.post('/admin/customers/999999999', { intent: 'disable' })).statusCode).toBe(404)
  })
})
