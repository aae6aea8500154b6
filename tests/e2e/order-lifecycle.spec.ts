/**
 * After the order (issue 33), end to end: the signed-in demo customer pays one order by card (the
 * Opayo drop-in) and one with PayPal in Chromium; an ERP then pulls both from the orders feed
 * and, through the back-office API, acknowledges, holds, releases, ships each in two parcels with
 * tracking, refunds part of each through its provider and records an invoice with its PDF. Every
 * write is sent twice with its Idempotency-Key: the repeat answers the same and changes nothing
 * (the version, the refunded amount, the e-mails and the webhooks stay as they were). The
 * customer gets each e-mail and sees each state on Your Orders; a receiver registered through the
 * API verifies every webhook delivery with the `standardwebhooks` library.
 */
import { readFile } from 'node:fs/promises'
import AxeBuilder from '@axe-core/playwright'
import {
  expect,
  request as playwrightRequest,
  test,
  type APIRequestContext,
  type Page,
} from '@playwright/test'
import { addThirtyAndCheckout, plainProduct } from '../support/demo-catalog.ts'
import { Erp, type Write } from './helpers/erp.ts'
import { MAIL_FILE } from './helpers/paths.ts'
import { WebhookReceiver } from './helpers/webhook-receiver.ts'

test.describe.configure({ mode: 'serial' })

const harbour = plainProduct('harbour')
const HELD = "ORDER HELD (we're checking a few things)"
const PROCESSING = 'BEING PROCESSED'
const SHIPPED = 'COMPLETED/SHIPPED'
/** The smallest file the API takes as a PDF; the customer must download these very bytes. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')

let api: APIRequestContext
let erp: Erp
const receiver = new WebhookReceiver()
let endpointId = ''
let cursor: string | null = null

test.beforeAll(async ({ baseURL }) => {
  api = await playwrightRequest.newContext({ baseURL: baseURL! })
  erp = new Erp(api)
  const url = await receiver.start()
  const created = await erp.write({
    method: 'POST',
    path: '/webhook-endpoints',
    body: { url, description: 'E2E ERP receiver' },
    key: `endpoint-${Date.now()}`,
  })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  receiver.secret = created.body.secret as string
  endpointId = (created.body.endpoint as { id: string }).id
  // Where the ERP starts: after every order the shop had before this test.
  cursor = (await erp.feed(null)).cursor
})

test.afterAll(async () => {
  // Later specs place orders too: nothing is to be sent to a receiver that is gone.
  if (endpointId)
    await erp.write({ method: 'DELETE', path: `/webhook-endpoints/${endpointId}`, key: `rm-${endpointId}` })
  await receiver.stop()
  await api?.dispose()
})

async function logIn(page: Page) {
  await page.goto('/login')
  await page.getByRole('textbox', { name: 'Email' }).fill('demo@harbour-safety.example')
  await page.getByLabel('Password').fill('Harbour-demo-2026')
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).not.toHaveURL(/\/login/)
}

async function placed(page: Page): Promise<number> {
  await expect(page.getByRole('heading', { level: 1, name: 'Order Complete' })).toBeVisible({
    timeout: 20_000,
  })
  return Number((await page.getByTestId('order-number').textContent())!.trim())
}

/** A new card in the drop-in (a saved card may be the default), as the signed-in customer. */
async function payByCard(page: Page): Promise<number> {
  await addThirtyAndCheckout(page, '', harbour)
  const box = page.getByTestId('payment-box')
  // Signed in, the page opens step 2 by itself; Continue then opens the payment box.
  await expect(async () => {
    if (!(await box.isVisible())) await page.getByTestId('continue').click({ timeout: 2000 })
    await expect(box).toBeVisible({ timeout: 2000 })
  }).toPass({ timeout: 30_000 })
  const newCard = page.getByRole('radio', { name: 'A new card' })
  if (await newCard.count()) await newCard.check()
  const frame = page.frameLocator('#sp-container iframe')
  await frame.getByLabel('Name on card').fill('Demo Customer')
  await frame.getByLabel('Card number').fill('4929000000006')
  await frame.getByLabel('Expiry (MMYY)').fill('1230')
  await frame.getByLabel('Security code').fill('123')
  await page.getByTestId('complete-order').click()
  return placed(page)
}

/** PayPal chosen on step 1, approved in its window on step 2, placed on step 3. */
async function payWithPayPal(page: Page): Promise<number> {
  await addThirtyAndCheckout(page, '', harbour)
  const step1 = page.getByTestId('step-1')
  const paypal = page.getByRole('radio', { name: /PayPal/ })
  // The step opens, and PayPal is chosen, in one try: a step that closed again meanwhile (its
  // radio gone) is opened again rather than waited for.
  await expect(async () => {
    if (!(await paypal.isVisible())) await step1.getByRole('button').first().click({ timeout: 2000 })
    await paypal.check({ timeout: 2000 })
    await expect(paypal).toBeChecked({ timeout: 1000 })
  }).toPass({ timeout: 30_000 })
  await page.getByTestId('continue').click()
  const button = page.getByTestId('paypal-button')
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    button.getByRole('button', { name: 'Pay with PayPal' }).click(),
  ])
  await popup.getByRole('button', { name: 'Pay with balance' }).click()
  await expect(page.getByTestId('paypal-approved')).toBeVisible()
  await page.getByTestId('continue').click()
  await expect(page.getByTestId('wallet-payment')).toHaveText('Paying with PayPal: approved.')
  await page.getByTestId('complete-order').click()
  return placed(page)
}

/** The mails sent to `to` about order `number`, in the order they were sent. */
async function mailsTo(to: string, number: number): Promise<{ subject: string; text: string }[]> {
  const text = await readFile(MAIL_FILE, 'utf8').catch(() => '')
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { to: string; subject: string; text: string })
    .filter((m) => m.to === to && m.subject.includes(String(number)))
}

async function mailsAbout(to: string, number: number): Promise<string[]> {
  return (await mailsTo(to, number)).map((m) => m.subject)
}

/** Waits until the mails about the order are exactly `expected` (a second copy would show). */
async function expectMails(to: string, number: number, expected: string[]) {
  const subjects = expected.map((s) => `Harbour Safety Supplies: ${s}`)
  await expect.poll(() => mailsAbout(to, number), { timeout: 30_000 }).toEqual(subjects)
}

/** Sends a write, then the same again with its key: the same answer, and the order unchanged. */
async function once(number: number, w: Omit<Write, 'ifMatch'>, withIfMatch = true) {
  const before = await erp.order(number)
  const sent = { ...w, ...(withIfMatch ? { ifMatch: before.etag } : {}) }
  const first = await erp.write(sent)
  expect(first.status, `${w.path}: ${JSON.stringify(first.body)}`).toBe(200)
  const after = await erp.order(number)
  const again = await erp.write(sent)
  expect(
    { status: again.status, body: again.body, replayed: again.replayed },
    `${w.path} sent again`,
  ).toEqual({
    status: first.status,
    body: first.body,
    replayed: true,
  })
  const replayed = await erp.order(number)
  // No new timeline entry: every change moves the version; nor a second refund or shipment.
  expect(replayed).toEqual(after)
  return after
}

/** Each order's status word in the list of Your Orders. */
async function expectStatusWords(page: Page, words: Record<number, string>) {
  await page.goto('/customer/orders')
  for (const [number, word] of Object.entries(words))
    await expect(page.getByTestId(`order-row-${number}`).getByRole('cell').nth(2)).toHaveText(word)
}

test('an ERP runs two orders from the feed to the invoice; the customer and a webhook receiver hear of each step once', async ({
  page,
}) => {
  test.setTimeout(300_000)
  await logIn(page)
  const card = await payByCard(page)
  const paypal = await payWithPayPal(page)
  const numbers = [card, paypal]

  // The feed serves both orders, once each, after where the ERP had got to.
  const pulled = await erp.feed(cursor)
  expect(pulled.numbers.filter((n) => numbers.includes(n)).sort()).toEqual([...numbers].sort())
  cursor = pulled.cursor
  const to: Record<number, string> = {}
  for (const n of numbers) {
    const order = await erp.order(n)
    expect(order.status).toBe('placed')
    to[n] = order.contact.email
  }
  expect((await erp.order(card)).paymentMethod).toMatch(/sagepay|card/i)
  expect((await erp.order(paypal)).paymentMethod).toMatch(/paypal/i)
  await expectStatusWords(page, { [card]: PROCESSING, [paypal]: PROCESSING })

  const ack = 'order acknowledgement'
  for (const n of numbers) {
    const done = await once(n, {
      method: 'POST',
      path: `/orders/${n}/acknowledge`,
      body: { erpRef: `SO-${n}` },
      key: `ack-${n}`,
    })
    expect(done.erpRef).toBe(`SO-${n}`)
    await once(n, {
      method: 'POST',
      path: `/orders/${n}/hold`,
      body: { reason: 'Address check with the customer' },
      key: `hold-${n}`,
    })
  }
  await expectStatusWords(page, { [card]: HELD, [paypal]: HELD })
  for (const n of numbers) await expectMails(to[n]!, n, [`${ack} ${n}`, `order ${n} is on hold`])

  for (const n of numbers)
    await once(n, { method: 'POST', path: `/orders/${n}/release`, key: `release-${n}` })
  await expectStatusWords(page, { [card]: PROCESSING, [paypal]: PROCESSING })

  for (const n of numbers) {
    const { lines } = await erp.order(n)
    const first = lines.map((l) => ({ lineId: l.lineId, quantity: Math.ceil(l.quantity / 3) }))
    const part = await once(n, {
      method: 'POST',
      path: `/orders/${n}/shipments`,
      body: {
        shipmentRef: `DESP-${n}-1`,
        carrier: 'Royal Mail',
        trackingNumber: `RM${n}1GB`,
        trackingUrl: `https://track.example/RM${n}1GB`,
        lines: first,
      },
      key: `ship-${n}-1`,
    })
    expect(part.fulfilmentStatus).toBe('partially_shipped')
  }
  await expectStatusWords(page, { [card]: PROCESSING, [paypal]: PROCESSING })
  await page.goto(`/customer/orders/${paypal}`)
  await expect(page.getByTestId('order-shipment')).toHaveCount(1)
  await expect(page.getByTestId('order-shipment')).toContainText(`RM${paypal}1GB`)
  for (const n of numbers) {
    const all = await once(n, {
      method: 'POST',
      path: `/orders/${n}/shipments`,
      body: { shipmentRef: `DESP-${n}-2`, carrier: 'DPD', trackingNumber: `DPD${n}2` },
      key: `ship-${n}-2`,
    })
    expect(all.fulfilmentStatus).toBe('shipped')
    expect(all.shipments.map((s) => s.trackingNumber)).toEqual([`RM${n}1GB`, `DPD${n}2`])
  }
  await expectStatusWords(page, { [card]: SHIPPED, [paypal]: SHIPPED })

  for (const n of numbers) {
    const quote = await erp.write({
      method: 'POST',
      path: `/orders/${n}/refunds/quote`,
      body: { amountMinor: 500 },
      key: `quote-${n}`,
    })
    expect(quote.status, JSON.stringify(quote.body)).toBe(200)
    expect(quote.body).toMatchObject({ amountMinor: 500, currency: 'GBP' })
    const refunded = await once(n, {
      method: 'POST',
      path: `/orders/${n}/refunds`,
      body: { amountMinor: 500, reason: 'One box arrived damaged' },
      key: `refund-${n}`,
    })
    expect(refunded.totals.refundedMinor).toBe(500)
    expect(refunded.paymentStatus).toBe('partially_refunded')
  }
  for (const n of numbers)
    await expectMails(to[n]!, n, [
      `${ack} ${n}`,
      `order ${n} is on hold`,
      `order ${n} is partly sent`,
      `order ${n} has been sent`,
      `refund of £5.00 for order ${n}`,
    ])
  // The first parcel's mail names the carrier and links to its tracking.
  for (const n of numbers) {
    const parcel = (await mailsTo(to[n]!, n)).find((m) => m.subject.endsWith('is partly sent'))!
    expect(parcel.text).toContain(`Carrier: Royal Mail\nTracking number: RM${n}1GB`)
    expect(parcel.text).toContain(`Track your parcel: https://track.example/RM${n}1GB`)
  }

  for (const n of numbers) {
    const order = await erp.order(n)
    const invoiceNumber = 7_000_000 + n
    const put: Write = {
      method: 'PUT',
      path: `/orders/${n}/invoices/${invoiceNumber}`,
      body: {
        invoiceDate: new Date().toISOString().slice(0, 10),
        amountMinor: order.totals.totalIncVatMinor,
        pdfBase64: PDF.toString('base64'),
      },
      key: `invoice-${n}`,
    }
    const invoiced = await once(n, put, false)
    expect(invoiced.invoice?.invoiceNumber).toBe(invoiceNumber)
    // The customer downloads the ERP's own PDF.
    const pdf = await page.request.get(`/customer/invoices/${invoiceNumber}/pdf`)
    expect(pdf.status()).toBe(200)
    expect(Buffer.from(await pdf.body()).equals(PDF)).toBe(true)
  }

  // The order page shows both parcels with tracking, the refund and the invoice.
  await page.goto(`/customer/orders/${card}`)
  const detail = page.getByTestId('order-detail')
  await expect(detail.getByTestId('order-status')).toHaveText(SHIPPED)
  await expect(detail.getByTestId('order-shipment')).toHaveCount(2)
  await expect(detail.getByTestId('order-shipment').first()).toContainText(`RM${card}1GB`)
  await expect(
    detail
      .getByTestId('order-shipment')
      .first()
      .getByRole('link', { name: /Track this parcel/ }),
  ).toHaveAttribute('href', `https://track.example/RM${card}1GB`)
  await expect(detail.getByTestId('order-refund')).toHaveCount(1)
  await expect(detail.getByTestId('order-refund')).toContainText('£5.00')
  await expect(detail.getByRole('link', { name: String(7_000_000 + card) })).toBeVisible()
  const axe = await new AxeBuilder({ page }).include('[data-testid="order-detail"]').analyze()
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([])

  // The receiver verified every delivery, each once, in the order's own order of versions.
  const expected = [
    'order.placed',
    'order.updated',
    'order.held',
    'order.released',
    'order.shipped',
    'order.shipped',
    'order.refunded',
  ]
  for (const n of numbers) {
    await expect.poll(() => receiver.about(n).map((r) => r.type), { timeout: 30_000 }).toEqual(expected)
    const got = receiver.about(n)
    const versions = got.map((r) => r.version!)
    expect(versions).toEqual([...versions].sort((a, b) => a - b))
  }
  expect(receiver.received.filter((r) => !r.verified)).toEqual([])
  const ids = receiver.received.map((r) => r.id)
  expect(new Set(ids).size).toBe(ids.length)
  // The shop's record agrees: each message delivered, and each delivered message received.
  const deliveries = await erp.get(`/webhook-endpoints/${endpointId}/deliveries?limit=200`)
  expect(deliveries.status).toBe(200)
  const rows = (deliveries.body as { items: { messageId: string; status: string }[] }).items
  expect(rows.filter((d) => d.status !== 'delivered')).toEqual([])
  expect(rows.map((d) => d.messageId).sort()).toEqual([...ids].sort())
})
