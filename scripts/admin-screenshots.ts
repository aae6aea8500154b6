/**
 * Screenshot review of the back office (issue 34): every /admin page at 390 and 1366 px, full page,
 * into var/screenshots/admin-<width>-<nn>-<state>.png, for a person to look at
 * (docs/screenshot-review.md). It signs in as the demo owner (password, then a TOTP code), captures
 * the sign-in pages with and without their messages, every section, a card order it places (through
 * the shop's HTTP calls) with its action forms open, messages and a refund quote, and pages with a
 * validation error; then invites a viewer, who accepts (the invitation and two-factor set-up pages)
 * and meets the forbidden page. It reports any page wider than its viewport. It writes (an order,
 * a hold and its release, invitations): use a throwaway demo database, with the e-mails captured to a file it reads the invitation links from, e.g.
 *
 *   npm run build
 *   NODE_ENV=production PGLITE_DIR=var/shots-admin-db PORT=4322 PAYMENTS_SIMULATOR_PORT=3322 \
 *     MAIL_CAPTURE_FILE=var/shots-admin-mail.jsonl npm run serve
 *   npx tsx scripts/admin-screenshots.ts [--port 4322] [--mail var/shots-admin-mail.jsonl] [--width 390]
 */
import { mkdir, readFile } from 'node:fs/promises'
import { chromium, expect, type BrowserContext, type Page } from '@playwright/test'
import { generateSync } from 'otplib'
import { placeCardOrder } from '../tests/e2e/helpers/card-order.ts'

const args = process.argv.slice(2)
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1] : undefined
}
const port = Number(arg('port') ?? 4322)
const mailFile = arg('mail') ?? 'var/shots-admin-mail.jsonl'
const widths = arg('width') ? [Number(arg('width'))] : [390, 1366]
const base = `http://localhost:${port}`
const OUT = 'var/screenshots'
const OWNER = {
  email: 'owner@shop.example',
  password: 'Owner-demo-2026!',
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
}
/** The demo customer's seeded orders are delivered here (src/server/db/seed/account.ts). */
const DEMO_POSTCODE = 'BS1 4DJ'

/** A code for a time step this secret has not used yet (a code works once per 30 s step). */
const usedSteps = new Map<string, number>()
async function freshCode(secret: string): Promise<string> {
  for (;;) {
    const step = Math.floor(Date.now() / 30_000)
    if ((usedSteps.get(secret) ?? -1) < step) {
      usedSteps.set(secret, step)
      return generateSync({ secret, epoch: Math.floor(Date.now() / 1000) })
    }
    await new Promise((r) => setTimeout(r, 1000))
  }
}

async function invitationLink(to: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const text = await readFile(mailFile, 'utf8').catch(() => '')
    const mail = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { to: string; text: string })
      .filter((m) => m.to === to)
      .at(-1)
    const match = mail ? /https?:\/\/\S+\/admin\/invitations\/[A-Za-z0-9_-]+/.exec(mail.text) : null
    if (match) return new URL(match[0]).pathname
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`no invitation mail to ${to} in ${mailFile} (is MAIL_CAPTURE_FILE set on the server?)`)
}

async function settle(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => {})
  await page.waitForTimeout(300)
}

async function firstHref(page: Page, prefix: string): Promise<string | null> {
  return page
    .locator(`main a[href^="${prefix}"]`)
    .first()
    .getAttribute('href', { timeout: 5_000 })
    .catch(() => null)
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
})
await mkdir(OUT, { recursive: true })
let ownerState: Awaited<ReturnType<BrowserContext['storageState']>> | undefined
// A card-paid order (the demo's seeded orders are unpaid purchase orders): it offers every action,
// the refund's quote included.
const shopper = await browser.newContext({ baseURL: base })
const cardOrder = await placeCardOrder(shopper, DEMO_POSTCODE)
await shopper.close()
const wide: string[] = []

for (const width of widths) {
  let n = 0
  const shot = async (page: Page, name: string) => {
    await settle(page)
    const file = `${OUT}/admin-${width}-${String(++n).padStart(2, '0')}-${name}.png`
    await page.screenshot({ path: file, fullPage: true })
    const scrolls = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)
    if (scrolls) wide.push(file)
    console.log(file, scrolls ? 'SCROLLS SIDEWAYS' : '')
  }
  const viewport = { width, height: width < 768 ? 844 : 900 }
  const visit = async (page: Page, path: string, name: string) => {
    await page.goto(`${base}${path}`)
    await shot(page, name)
  }

  // Signing in: the login page empty and with its messages, then the two-factor challenge. The
  // owner's session is made once (one TOTP step) and reused for the other widths.
  {
    const context = await browser.newContext({ viewport })
    const page = await context.newPage()
    await visit(page, '/admin/login', 'login')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByText(/required|enter/i).first()).toBeVisible()
    await shot(page, 'login-messages')
    await page.getByLabel('E-mail').fill(OWNER.email)
    await page.getByLabel('Password').fill(OWNER.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible()
    await shot(page, 'two-factor-challenge')
    await page.getByRole('button', { name: 'Continue' }).click()
    await shot(page, 'two-factor-challenge-messages')
    if (!ownerState) {
      await page.getByLabel('Code').fill(await freshCode(OWNER.secret))
      await page.getByRole('button', { name: 'Continue' }).click()
      await expect(page.getByRole('heading', { name: 'Orders', level: 1 })).toBeVisible()
      ownerState = await context.storageState()
    }
    await context.close()
  }

  // The owner's sections.
  const context = await browser.newContext({ viewport, storageState: ownerState })
  const page = await context.newPage()
  await visit(page, '/admin/orders', 'orders')
  await visit(page, '/admin/orders?status=placed&attention=1', 'orders-filtered')
  await visit(page, `/admin/orders?q=${encodeURIComponent(DEMO_POSTCODE)}`, 'orders-search')
  await visit(page, '/admin/orders?from=2026-12-31&to=2026-01-01', 'orders-bad-dates')
  {
    await visit(page, `/admin/orders/${cardOrder}`, 'order-actions')
    // A validation message: hold without a reason.
    const hold = page.getByRole('form', { name: 'Hold' })
    if (await hold.isVisible()) {
      await hold.getByRole('button', { name: 'Hold the order' }).click()
      await shot(page, 'order-hold-message')
    }
    // A refund quote for one of the first line.
    const refund = page.getByRole('form', { name: 'Refund' })
    if (await refund.isVisible()) {
      await refund.getByLabel('Reason for the refund').fill('One sign arrived bent')
      await refund
        .getByRole('textbox', { name: /to refund$/ })
        .first()
        .fill('1')
      await refund.getByRole('button', { name: 'Show the refund' }).click()
      await expect(page.getByTestId('refund-quote')).toBeVisible()
      await shot(page, 'order-refund-quote')
    }
    // The server's refusal, announced at the top: a tracking link that is not https.
    const ship = page.getByRole('form', { name: 'Ship' })
    if (await ship.isVisible()) {
      await ship.getByLabel('Carrier').fill('Royal Mail')
      await ship.getByLabel('Tracking number').fill('RM123456785GB')
      await ship.getByLabel(/Tracking link/).fill('http://example.com/track?n=RM123456785GB&lang=en-GB')
      await ship.getByRole('button', { name: 'Record the shipment' }).click()
      await shot(page, 'order-ship-message')
    }
    // On hold: the release form instead.
    if (await hold.isVisible()) {
      await hold.getByLabel('Reason for the hold').fill('Customer asked to wait for the artwork')
      await hold.getByRole('button', { name: 'Hold the order' }).click()
      await expect(page.getByRole('form', { name: 'Release' })).toBeVisible()
      await shot(page, 'order-held')
      // Released again, so the next width finds the same order placed.
      await page.getByRole('button', { name: 'Release the order' }).click()
      await expect(page.getByRole('form', { name: 'Hold' })).toBeVisible()
    }
  }
  await visit(page, '/admin/payments', 'payments-to-check')
  await visit(page, '/admin/customers', 'customers')
  const customer = await firstHref(page, '/admin/customers/')
  if (customer) await visit(page, customer, 'customer')
  await visit(page, '/admin/catalogue', 'catalogue')
  const sku = await firstHref(page, '/admin/catalogue/skus/')
  if (sku) await visit(page, sku, 'catalogue-sku')
  await visit(page, '/admin/catalogue/import', 'catalogue-import')
  await visit(page, '/admin/promotions', 'promotions')
  await page.getByRole('button', { name: 'Create promotion' }).click()
  await shot(page, 'promotions-create-messages')
  const promotion = await firstHref(page, '/admin/promotions/')
  if (promotion) await visit(page, promotion, 'promotion-edit')
  await visit(page, '/admin/delivery', 'delivery-rates')
  await visit(page, '/admin/content', 'content')
  await visit(page, '/admin/search', 'search-settings')
  await visit(page, '/admin/tokens', 'api-tokens')
  await visit(page, '/admin/webhooks', 'webhooks')
  await visit(page, '/admin/staff', 'staff')
  await visit(page, '/admin/audit', 'audit')

  // A viewer: the invitation (with a message), the two-factor set-up, then a page it may not see.
  const viewerEmail = `shots.viewer.${width}.${Date.now()}@staff.example`
  await page.goto(`${base}/admin/staff`)
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Robin Viewer-Longname')
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(viewerEmail)
  await page.getByLabel('Role', { exact: true }).selectOption('viewer')
  await page.getByRole('button', { name: 'Send invitation' }).click()
  await expect(page.getByRole('status').filter({ hasText: viewerEmail })).toBeVisible()
  await shot(page, 'staff-invited')
  await context.close()

  const viewerContext = await browser.newContext({ viewport })
  const viewer = await viewerContext.newPage()
  await visit(viewer, await invitationLink(viewerEmail), 'accept-invitation')
  await viewer.locator('input[name="password"]').fill('Viewing-pass-2026!')
  await viewer.locator('input[name="password_confirmation"]').fill('Viewing-pass-2025!')
  await viewer.getByRole('button', { name: 'Set password' }).click()
  await shot(viewer, 'accept-invitation-messages')
  await viewer.locator('input[name="password_confirmation"]').fill('Viewing-pass-2026!')
  await viewer.getByRole('button', { name: 'Set password' }).click()
  await expect(viewer.getByRole('heading', { name: 'Set up two-factor authentication' })).toBeVisible()
  await shot(viewer, 'two-factor-setup')
  await viewer.getByRole('textbox', { name: 'Code' }).fill('12')
  await viewer.getByRole('button', { name: 'Turn on two-factor' }).click()
  await shot(viewer, 'two-factor-setup-messages')
  const secret = (await viewer.getByTestId('totp-secret').textContent())!.trim()
  await viewer.getByRole('textbox', { name: 'Code' }).fill(await freshCode(secret))
  await viewer.getByRole('button', { name: 'Turn on two-factor' }).click()
  await expect(viewer.getByRole('heading', { name: 'Orders', level: 1 })).toBeVisible()
  await shot(viewer, 'orders-as-viewer')
  await visit(viewer, '/admin/staff', 'forbidden')
  await viewerContext.close()
}
await browser.close()
console.log(
  wide.length ? `${wide.length} page(s) wider than the viewport` : 'no page wider than its viewport',
)
