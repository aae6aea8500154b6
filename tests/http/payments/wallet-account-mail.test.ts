/**
 * A PayPal buyer whose account the order created is welcomed with a set-password link in its own
 * wording (ADR 0074, 0147), never the 'Reset your password … we received a password reset request'
 * mail they did not ask for. The link really sets the password.
 */
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { customers, mailJobs, orderOwnerConfirmations, orders, sites } from '../../../src/server/db/schema.ts'
import type { MailMessage } from '../../../src/server/modules/auth/auth.mail.ts'
import type { Cart } from '../../../src/shared/cart.ts'
import { Visitor } from '../../helpers/visitor.ts'
import { insertCategory, insertGroup, insertSku, siteIdFor } from '../../factories/product.ts'
import { startPaymentsHarness, type PaymentsHarness } from './harness.ts'

let h: PaymentsHarness
let siteId: number
let categoryId: number
let skuId: number
const sent: MailMessage[] = []

beforeAll(async () => {
  h = await startPaymentsHarness(1500, { sendMail: async (m) => void sent.push(m) })
  siteId = await siteIdFor(h.app.db)
  categoryId = (await insertCategory(h.app.db, { siteId })).id
  const groupId = (await insertGroup(h.app.db, { siteId, categoryId })).id
  skuId = (await insertSku(h.app.db, { siteId, groupId })).id
  const methods = [{ id: 'paypal', label: 'PayPal', img: '', detail: '' }]
  await h.app.db
    .update(sites)
    .set({ settings: sql`${sites.settings} || ${JSON.stringify({ paymentMethods: methods })}::jsonb` })
    .where(eq(sites.id, siteId))
  h.app.sites.invalidate()
}, 60_000)
afterAll(() => h?.close())

async function payWithPaypal(): Promise<{ v: Visitor; body: Record<string, unknown> }> {
  const v = await new Visitor(h.app).start()
  const added = await v.post('/cart/add', {
    items: [{ listing_id: skuId, quantity: 2, category_id: categoryId }],
  })
  const cart = added.json() as Cart
  const created = await v.post('/checkout/paypal/create-order', {})
  const id = created.json().result.id as string
  h.sims.paypal.approve(id)
  const res = await v.post('/checkout/complete', {
    cart_id: cart.id,
    payment_method: 'paypal',
    contact: { firstName: 'Ignored', lastName: 'X', email: 'ignored@example.com', phone: '01632 960 999' },
    shipping_address: { address1: 'Elsewhere', town: 'Nowhere', postcode: 'X1', country: 'GB' },
    showingBillingAddress: false,
    transactions: [
      {
        amount: cart.cart_total_price_inc_tax,
        paymentDetails: { orderID: id },
        paymentProvider: 'paypal',
        message: '',
        authCode: 'empty',
      },
    ],
    delivery_option: cart.shippingRates.find((r) => r.selected)?.id,
    Notes: '',
  })
  expect(res.statusCode).toBe(200)
  return { v, body: res.json() as Record<string, unknown> }
}

describe('a new PayPal buyer', () => {
  it('is welcomed with a link to set a password and is not sent the password reset mail', async () => {
    await h.app.db
      .delete(customers)
      .where(and(eq(customers.siteId, siteId), eq(customers.email, 'sb-buyer@example.com')))
    sent.length = 0
    const { body } = await payWithPaypal()
    expect(body).toMatchObject({ force_login: true, create_password: true })
    const orderNumber = (body.order as { OrderNumber: number }).OrderNumber
    const toBuyer = sent.filter(
      (m) => m.to === 'sb-buyer@example.com' && !m.subject.includes('acknowledgement'),
    )
    expect(toBuyer.map((m) => m.subject)).toEqual(['Your account has been created - Harbour Safety Supplies'])
    const mail = toBuyer[0]!
    expect(mail.text).toContain(`Thank you for your order ${orderNumber}.`)
    expect(mail.text).toContain('We created an account at Harbour Safety Supplies for sb-buyer@example.com')
    expect(mail.text).not.toContain('password reset request')
    expect(sent.some((m) => m.subject.startsWith('Reset your password'))).toBe(false)
    // The account this order made is the buyer's: the order is its own already, and the
    // acknowledgement asks no one to confirm it.
    const [buyer] = await h.app.db.select().from(customers).where(eq(customers.email, 'sb-buyer@example.com'))
    const [placed] = await h.app.db.select().from(orders).where(eq(orders.orderNumber, orderNumber))
    expect(
      await h.app.db
        .select()
        .from(orderOwnerConfirmations)
        .where(eq(orderOwnerConfirmations.orderId, placed!.id)),
    ).toEqual([expect.objectContaining({ customerId: buyer!.id })])
    const [acknowledgement] = await h.app.db
      .select()
      .from(mailJobs)
      .where(eq(mailJobs.dedupeKey, `order:${placed!.id}:acknowledgement`))
    expect(acknowledgement!.message.text).toContain(String(orderNumber))
    expect(acknowledgement!.message.text).not.toContain('/confirm?sig=')

    // The link is the shop's own set-password page with a working single-use token.
    const url = /Set Your Password: (\S+)/.exec(mail.text)![1]!
    const link = new URL(url)
    expect(link.pathname).toBe('/reset-password')
    const other = await new Visitor(h.app).start()
    const set = await other.post('/customer/password/update', {
      token: link.searchParams.get('token'),
      email: link.searchParams.get('email'),
      password: 'Chosen-password-2026!',
      password_confirmation: 'Chosen-password-2026!',
    })
    expect(set.statusCode).toBe(303)
    const [row] = await h.app.db.select().from(customers).where(eq(customers.email, 'sb-buyer@example.com'))
    expect(row!.passwordHash).toBeTruthy()
  })

  it('whose e-mail already has an account gets neither mail (nothing hints the address is registered)', async () => {
    sent.length = 0
    const { body } = await payWithPaypal()
    expect(body.force_login).toBeUndefined()
    expect(
      sent.filter((m) => !m.subject.includes('acknowledgement') && m.to === 'sb-buyer@example.com'),
    ).toEqual([])
  })
})
