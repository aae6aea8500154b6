/**
 * The demo customer's account history (Harbour): placed orders in every maginus_status, two of
 * them invoiced, one holding a product no longer in the catalogue, two saved baskets and a saved
 * card. Idempotent: the seeded orders (idempotency key `demo-seed-…`), baskets and card are
 * removed and made again.
 */
import { SIMULATOR_DEMO_CARD } from '../../config/payments.ts'
import { randomUUID } from 'node:crypto'
import { and, asc, eq, gt, inArray, like, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { normaliseBrackets, unitPriceFor } from '../../../shared/pricing.ts'
import { vatOn } from '../../../shared/vat.ts'
import { customers } from '../../modules/auth/auth.tables.ts'
import { cartItems, carts } from '../../modules/cart/cart.tables.ts'
import { categories, productGroups, products } from '../../modules/catalog/catalog.tables.ts'
import { savedCards } from '../../modules/customers/customers.tables.ts'
import { orderItems, orders, orderTransactions } from '../../modules/orders/orders.tables.ts'
import { sites } from '../../modules/sites/sites.tables.ts'
import { createInvoiceFromOrder } from '../../modules/orders/orders.queries.ts'
import { invoices } from '../../modules/orders/orders.tables.ts'

export const DEMO_ACCOUNT_EMAIL = 'demo@harbour-safety.example'
const DAY = 86_400_000

/** A demo order's status and axes by its customer word (empty, 1 held, 2 shipped, 3 cancelled). */
const SEED_STATUS: Record<
  number,
  Pick<typeof orders.$inferInsert, 'status' | 'heldFrom' | 'fulfilmentStatus'>
> = {
  0: { status: 'placed' },
  1: { status: 'held', heldFrom: 'placed' },
  2: { status: 'shipped', fulfilmentStatus: 'shipped' },
  3: { status: 'cancelled' },
}
/** A product id no catalogue row has: the line of a product since removed. */
export const MISSING_PRODUCT_ID = 2_000_000_000

interface SeedOrder {
  key: string
  daysAgo: number
  maginusStatus: number | null
  lines: { product: number; quantity: number }[]
  invoice: boolean
  missing?: boolean
}

const ORDERS: SeedOrder[] = [
  {
    key: 'demo-seed-1',
    daysAgo: 2,
    maginusStatus: null,
    lines: [{ product: 0, quantity: 2 }],
    invoice: false,
  },
  {
    key: 'demo-seed-2',
    daysAgo: 12,
    maginusStatus: 1,
    lines: [{ product: 1, quantity: 5 }],
    invoice: false,
  },
  {
    key: 'demo-seed-3',
    daysAgo: 45,
    maginusStatus: 2,
    lines: [
      { product: 2, quantity: 3 },
      { product: 3, quantity: 1 },
    ],
    invoice: true,
    missing: true,
  },
  { key: 'demo-seed-4', daysAgo: 75, maginusStatus: 3, lines: [{ product: 4, quantity: 1 }], invoice: false },
  {
    key: 'demo-seed-5',
    daysAgo: 130,
    maginusStatus: 2,
    lines: [
      { product: 0, quantity: 10 },
      { product: 5, quantity: 2 },
    ],
    invoice: true,
  },
]

export async function seedAccount(db: Db): Promise<void> {
  const [customer] = await db
    .select()
    .from(customers)
    .innerJoin(sites, eq(sites.id, customers.siteId))
    .where(and(eq(customers.email, DEMO_ACCOUNT_EMAIL), eq(sites.code, 'harbour')))
  if (!customer) return
  const c = customer.customers
  const site = customer.sites
  const vatRate = site.settings.tax?.rate ?? 20

  // --- back to nothing -------------------------------------------------------------------
  const old = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.customerId, c.id), like(orders.idempotencyKey, 'demo-seed-%')))
  if (old.length) {
    const ids = old.map((o) => o.id)
    await db.delete(invoices).where(inArray(invoices.orderId, ids))
    await db.delete(orders).where(inArray(orders.id, ids))
  }
  await db.delete(carts).where(and(eq(carts.customerId, c.id), eq(carts.kind, 'saved')))
  await db.delete(savedCards).where(eq(savedCards.customerId, c.id))

  // --- the catalogue lines they bought ---------------------------------------------------------
  const picks = await db
    .select({
      id: products.id,
      sku: products.sku,
      name: products.name,
      groupName: productGroups.name,
      description: products.description,
      priceList: products.priceList,
      minimumOrder: products.minimumOrder,
      categoryId: productGroups.categoryId,
      categoryName: categories.name,
      categoryUrl: categories.url,
    })
    .from(products)
    .innerJoin(productGroups, eq(productGroups.id, products.groupId))
    .innerJoin(categories, eq(categories.id, productGroups.categoryId))
    .where(
      and(
        eq(products.siteId, site.id),
        eq(products.published, true),
        eq(productGroups.published, true),
        eq(products.minimumOrder, 1),
        gt(sql`jsonb_array_length(${products.priceList})`, 0),
        sql`${categories.builder} is null`,
      ),
    )
    .orderBy(asc(products.id))
    .limit(40)
  const usable = picks.filter((p) => unitPriceFor(normaliseBrackets(p.priceList), 1) > 0)
  if (usable.length < 6) return
  // Spread the picks over the catalogue rather than six neighbours.
  const chosen = [0, 5, 10, 15, 20, 25].map((i) => usable[i % usable.length]!)

  const address = {
    company: c.company ?? '',
    address1: '12 Quay Street',
    address2: '',
    town: 'Bristol',
    county: 'Avon',
    postcode: 'BS1 4DJ',
    country: 'GB',
  }
  const contact = {
    first_name: c.firstName,
    last_name: c.lastName,
    email: c.email,
    phone: '01632 960 555',
    company: c.company ?? '',
  }

  for (const seedOrder of ORDERS) {
    const lines = seedOrder.lines.map((l) => {
      const p = chosen[l.product]!
      const unit = unitPriceFor(normaliseBrackets(p.priceList), l.quantity)
      const net = unit * l.quantity
      return {
        sku: p.sku,
        name: p.name || p.groupName,
        product: {
          id: p.id,
          sku: p.sku,
          name: p.name || p.groupName,
          price: unit,
          status: 'published' as const,
          category_id: p.categoryId,
          category: { id: p.categoryId, name: p.categoryName, url: p.categoryUrl },
          details: p.description,
        },
        quantity: l.quantity,
        unitPrice: unit,
        lineTotal: net,
        lineTotalExDiscountExTax: net,
        vatRate,
        vat: vatOn(net, vatRate),
      }
    })
    if (seedOrder.missing) {
      const net = 1250
      lines.push({
        sku: 'DISC-0001',
        name: 'Discontinued Safety Notice Board',
        product: {
          id: MISSING_PRODUCT_ID,
          sku: 'DISC-0001',
          name: 'Discontinued Safety Notice Board',
          price: net,
          status: 'published',
          category_id: null as unknown as number,
          category: null as unknown as { id: number; name: string; url: string },
          details: '',
        },
        quantity: 1,
        unitPrice: net,
        lineTotal: net,
        lineTotalExDiscountExTax: net,
        vatRate,
        vat: vatOn(net, vatRate),
      })
    }
    const goodsNet = lines.reduce((s, l) => s + l.lineTotal, 0)
    const shippingNet = goodsNet >= 10_000 ? 0 : 595
    const shippingVat = vatOn(shippingNet, vatRate)
    const vat = lines.reduce((s, l) => s + l.vat, 0) + shippingVat
    const orderDate = new Date(Date.now() - seedOrder.daysAgo * DAY)
    const [order] = await db
      .insert(orders)
      .values({
        siteId: site.id,
        cartRef: randomUUID(),
        idempotencyKey: seedOrder.key,
        customerId: c.id,
        // The status the customer word stands for (orders/order.state.ts CUSTOMER_STATUS).
        ...SEED_STATUS[seedOrder.maginusStatus ?? 0]!,
        maginusStatus: seedOrder.maginusStatus,
        currency: site.currency,
        paymentMethod: 'purchase_order',
        poNumber: `${c.firstName} ${c.lastName}`,
        contact,
        shippingAddress: address,
        billingAddress: address,
        despatchType: 'standard',
        deliveryName: 'Standard Delivery',
        goodsNet,
        shippingNet,
        shippingVat,
        vat,
        discount: 0,
        totalIncVat: goodsNet + shippingNet + vat,
        orderDate,
        updatedAt: orderDate,
      })
      .returning()
    await db.insert(orderItems).values(lines.map((l) => ({ orderId: order!.id, ...l })))
    await db.insert(orderTransactions).values({
      orderId: order!.id,
      paymentProvider: 'purchase_order',
      paymentDetails: { PONumber: `${c.firstName} ${c.lastName}` },
      amount: order!.totalIncVat,
      createdAt: orderDate,
    })
    if (seedOrder.invoice) {
      await createInvoiceFromOrder(db, order!.orderNumber, new Date(orderDate.getTime() + 3 * DAY))
    }
  }

  // --- saved baskets ------------------------------------------------------------------------
  const baskets = [
    { name: 'Site refit', daysAgo: 20, lines: [0, 2, 4] },
    { name: 'Monthly restock', daysAgo: 6, lines: [1, 3] },
  ]
  for (const b of baskets) {
    const created = new Date(Date.now() - b.daysAgo * DAY)
    const [cart] = await db
      .insert(carts)
      .values({
        siteId: site.id,
        kind: 'saved',
        customerId: c.id,
        basketName: b.name,
        createdAt: created,
        updatedAt: created,
      })
      .returning({ id: carts.id })
    await db.insert(cartItems).values(
      b.lines.map((i, n) => ({
        cartId: cart!.id,
        productId: chosen[i]!.id,
        categoryId: chosen[i]!.categoryId,
        quantity: n + 1,
      })),
    )
  }

  // --- a saved card: the simulator knows this token from its start (server/config/payments.ts) ------------
  await db.insert(savedCards).values({
    customerId: c.id,
    provider: 'sagepay',
    token: SIMULATOR_DEMO_CARD.token,
    last4Digits: SIMULATOR_DEMO_CARD.last4Digits,
    cardType: SIMULATOR_DEMO_CARD.cardType,
    expiry: SIMULATOR_DEMO_CARD.expiry,
  })
}
