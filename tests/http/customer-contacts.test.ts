import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { customerAddresses, customerContacts, customers } from '../../src/server/db/schema.ts'
import type { CustomerData } from '../../src/shared/customer.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'

const DEMO = { email: 'demo@harbour-safety.example', password: 'Harbour-demo-2026' }
const OTHER = { email: 'twofactor@harbour-safety.example' }

let t: TestApp

beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t?.close())

async function loggedIn(): Promise<Visitor> {
  const v = await new Visitor(t.app).start()
  const res = await v.post('/login', { ...DEMO, remember: '', redirect: false })
  expect(res.statusCode).toBe(303)
  return v
}

function patch(v: Visitor, payload: unknown) {
  return v.request('PATCH', '/customer/update-contact', payload)
}

const contact = {
  firstName: 'Sam',
  lastName: 'Stores',
  email: 'Sam.Stores@Example.com',
  phone: '01632 960 777',
  company: 'Demo Works Ltd',
}
const address = {
  company: '',
  address1: '1 New Street',
  address2: '',
  town: 'Bath',
  county: '',
  postcode: 'BA1 1AA',
  country: 'GB',
}

async function otherCustomerIds() {
  const [other] = await t.app.db.select().from(customers).where(eq(customers.email, OTHER.email))
  const [c] = await t.app.db.select().from(customerContacts).where(eq(customerContacts.customerId, other!.id))
  const [a] = await t.app.db
    .select()
    .from(customerAddresses)
    .where(eq(customerAddresses.customerId, other!.id))
  return { contactId: c!.id, addressId: a!.id, type: a!.type }
}

describe('the customer data', () => {
  it('has the seeded primary contact, shipping and billing address of a demo customer', async () => {
    const v = await loggedIn()
    const res = await v.request('GET', '/customer/data')
    expect(res.statusCode).toBe(200)
    const user = res.json().user as CustomerData
    expect(user.username).toBe(DEMO.email)
    expect(user.primaryContact).toMatchObject({ firstName: 'Dana', lastName: 'Demo', primary: true })
    expect(user.shippingAddress).toMatchObject({ type: 'shipping', country: 'GB', primary: true })
    expect(user.billingAddress).toMatchObject({ type: 'billing', primary: true })
    expect(user.RegisterDate).not.toBeNull()
  })

  it('answers 401 to a visitor and changes nothing', async () => {
    const v = await new Visitor(t.app).start()
    const res = await v.post('/customer/update-contact', { section: 'contact', data: contact })
    expect(res.statusCode).toBe(401)
    const rows = await t.app.db
      .select()
      .from(customerContacts)
      .where(eq(customerContacts.email, 'sam.stores@example.com'))
    expect(rows).toHaveLength(0)
  })
})

describe('POST /customer/update-contact', () => {
  it('adds a contact, selects it when asked and answers the reloaded customer data', async () => {
    const v = await loggedIn()
    const res = await v.post('/customer/update-contact', {
      section: 'contact',
      data: contact,
      selectNewContact: true,
    })
    expect(res.statusCode).toBe(200)
    const body = res.json() as { message: string; user: CustomerData }
    expect(body.message).toBe('Details edited!')
    expect(body.user.primaryContact).toMatchObject({ firstName: 'Sam', email: 'sam.stores@example.com' })
    expect(body.user.contacts.filter((c) => c.primary)).toHaveLength(1)
  })

  it('refuses a duplicate contact (trimmed, case-insensitive) with "Contact already exists"', async () => {
    const v = await loggedIn()
    const res = await v.post('/customer/update-contact', {
      section: 'contact',
      data: { ...contact, firstName: ' sam ', lastName: 'STORES', company: 'Another' },
    })
    expect(res.statusCode).toBe(422)
    expect(res.json().message).toBe('Contact already exists')
  })

  it('adds a shipping address and refuses the same one again with "Address already exists"', async () => {
    const v = await loggedIn()
    const first = await v.post('/customer/update-contact', { section: 'shipping', data: address })
    expect(first.statusCode).toBe(200)
    const user = first.json().user as CustomerData
    expect(user.addresses.some((a) => a.address1 === '1 New Street' && !a.primary)).toBe(true)
    const again = await v.post('/customer/update-contact', {
      section: 'shipping',
      data: { ...address, town: ' BATH ' },
    })
    expect(again.statusCode).toBe(422)
    expect(again.json().message).toBe('Address already exists')
  })

  it('shows every account rule and message and writes nothing on bad input', async () => {
    const v = await loggedIn()
    const before = await t.app.db.select().from(customerContacts)
    const res = await v.post('/customer/update-contact', {
      section: 'contact',
      data: { firstName: '', lastName: 'x'.repeat(256), email: 'no-at-sign', phone: '12ab5678901' },
    })
    expect(res.statusCode).toBe(422)
    const errors = res.json().errors as Record<string, string[]>
    expect(errors['data.firstName']).toEqual(['First name is required'])
    expect(errors['data.lastName']).toEqual(['The max length for Last name is 255'])
    expect(errors['data.email']).toEqual(['Not a valid email'])
    expect(errors['data.phone']).toEqual(['Not a valid phone number'])
    expect(await t.app.db.select().from(customerContacts)).toHaveLength(before.length)
  })

  it('accepts a phone with spaces, hyphens, brackets and plus, up to 18 characters', async () => {
    const v = await loggedIn()
    const ok = await v.post('/customer/update-contact', {
      section: 'contact',
      data: { ...contact, firstName: 'Phoebe', phone: '+44 (1632) 960-778' },
    })
    expect(ok.statusCode).toBe(200)
    const long = await v.post('/customer/update-contact', {
      section: 'contact',
      data: { ...contact, firstName: 'Longer', phone: '+44 (1632) 960-7789' },
    })
    expect(long.json().errors['data.phone']).toEqual(['Not a valid phone number'])
  })

  it('applies the billing limits (postcode 20, town 100) and the site’s country list', async () => {
    const v = await loggedIn()
    const res = await v.post('/customer/update-contact', {
      section: 'billing',
      data: { ...address, town: 't'.repeat(101), postcode: 'p'.repeat(21) },
    })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors['data.town']).toEqual(['The max length for Town is 100'])
    expect(res.json().errors['data.postcode']).toEqual(['The max length for Postcode is 20'])
    const country = await v.post('/customer/update-contact', {
      section: 'shipping',
      data: { ...address, address1: '9 Far Away', country: 'ZZ' },
    })
    expect(country.statusCode).toBe(422)
    expect(country.json().errors['data.country']).toEqual(['We do not deliver to this country.'])
    const required = await v.post('/customer/update-contact', { section: 'shipping', data: {} })
    expect(required.json().errors).toMatchObject({
      'data.address1': ['Address 1 is required'],
      'data.town': ['Town is required'],
      'data.postcode': ['Postcode is required'],
      'data.country': ['Country is required'],
    })
  })

  it('selects an existing address as the primary one', async () => {
    const v = await loggedIn()
    const added = await v.post('/customer/update-contact', {
      section: 'shipping',
      data: { ...address, address1: '2 Select Row' },
    })
    const id = (added.json().user as CustomerData).addresses.find((a) => a.address1 === '2 Select Row')!.id
    const res = await v.post('/customer/update-contact', { section: 'shipping', id })
    expect(res.statusCode).toBe(200)
    expect((res.json().user as CustomerData).shippingAddress?.id).toBe(id)
  })

  it('deletes entries by a data list of {id, delete: true} but never the primary ones', async () => {
    const v = await loggedIn()
    const added = await v.post('/customer/update-contact', {
      section: 'billing',
      data: { ...address, address1: '3 Delete Lane' },
    })
    const user = added.json().user as CustomerData
    const extra = user.addresses.find((a) => a.address1 === '3 Delete Lane')!
    const primary = user.billingAddress!
    const refused = await v.post('/customer/update-contact', {
      type: 'delete',
      section: 'billing',
      data: [
        { id: extra.id, delete: true },
        { id: primary.id, delete: true },
      ],
    })
    expect(refused.statusCode).toBe(422)
    expect(refused.json().message).toBe('The primary billing address cannot be deleted.')
    const [still] = await t.app.db.select().from(customerAddresses).where(eq(customerAddresses.id, extra.id))
    expect(still).toBeDefined()
    const ok = await v.post('/customer/update-contact', {
      type: 'delete',
      section: 'billing',
      data: [{ id: extra.id, delete: true }],
    })
    expect(ok.statusCode).toBe(200)
    expect((ok.json().user as CustomerData).addresses.some((a) => a.id === extra.id)).toBe(false)
    const primaryContact = (ok.json().user as CustomerData).primaryContact!
    const contactRefused = await v.post('/customer/update-contact', {
      type: 'delete',
      section: 'contact',
      data: [{ id: primaryContact.id, delete: true }],
    })
    expect(contactRefused.json().message).toBe('The primary contact cannot be deleted.')
  })

  it('answers 404 for another customer’s contact or address, whatever the operation', async () => {
    const v = await loggedIn()
    const other = await otherCustomerIds()
    const select = await v.post('/customer/update-contact', { section: 'contact', id: other.contactId })
    expect(select.statusCode).toBe(404)
    const del = await v.post('/customer/update-contact', {
      type: 'delete',
      section: other.type,
      data: [{ id: other.addressId, delete: true }],
    })
    expect(del.statusCode).toBe(404)
    const edit = await patch(v, { section: 'contact', id: other.contactId, data: contact })
    expect(edit.statusCode).toBe(404)
    const [row] = await t.app.db
      .select()
      .from(customerContacts)
      .where(eq(customerContacts.id, other.contactId))
    expect(row!.firstName).toBe('Tariq')
  })
})

describe('PATCH /customer/update-contact', () => {
  it('edits a contact and refuses an edit that duplicates another one', async () => {
    const v = await loggedIn()
    const added = await v.post('/customer/update-contact', {
      section: 'contact',
      data: { ...contact, firstName: 'Edith' },
    })
    const id = (added.json().user as CustomerData).contacts.find((c) => c.firstName === 'Edith')!.id
    const edited = await patch(v, { section: 'contact', id, data: { ...contact, firstName: 'Edwina' } })
    expect(edited.statusCode).toBe(200)
    expect((edited.json().user as CustomerData).contacts.find((c) => c.id === id)!.firstName).toBe('Edwina')
    const duplicate = await patch(v, { section: 'contact', id, data: contact })
    expect(duplicate.statusCode).toBe(422)
    expect(duplicate.json().message).toBe('Contact already exists')
  })

  it('edits an address of the named section only (a shipping id under billing is a 404)', async () => {
    const v = await loggedIn()
    const user = (await v.request('GET', '/customer/data')).json().user as CustomerData
    const shipping = user.shippingAddress!
    const wrong = await patch(v, { section: 'billing', id: shipping.id, data: address })
    expect(wrong.statusCode).toBe(404)
    const ok = await patch(v, {
      section: 'shipping',
      id: shipping.id,
      data: { ...address, address1: '12 Quay Street West' },
    })
    expect(ok.statusCode).toBe(200)
    expect((ok.json().user as CustomerData).shippingAddress!.address1).toBe('12 Quay Street West')
  })
})
