/**
 * Screenshot review of the checkout and the account (issue 31): every checkout step and dialog
 * (steps 1–3, the login dialog, the add-contact and add-address dialogs, the processing dialog,
 * Order Complete) and every account page, on both demo sites, at 320, 390 and 1366 px, into
 * var/screenshots/<site>-<width>-<nn>-<state>.png, for a person to look at (docs/screenshot-review.md).
 * Places purchase orders on the server it is pointed at: use a throwaway demo database, e.g.
 *
 *   PGLITE_DIR=var/shots-db PORT=4207 PAYMENTS_SIMULATOR_PORT=3207 npm run serve
 *   npx tsx scripts/checkout-screenshots.ts [--port 4207] [--only harbour|northgate] [--width 390]
 */
import { mkdir } from 'node:fs/promises'
import { chromium, expect, type Page } from '@playwright/test'
import { addThirtyAndCheckout, plainProduct } from '../tests/support/demo-catalog.ts'

const args = process.argv.slice(2)
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1] : undefined
}
const port = Number(arg('port') ?? 4207)
const only = arg('only')
const widths = arg('width') ? [Number(arg('width'))] : [320, 390, 1366]
const OUT = 'var/screenshots'

const SITES = [
  {
    code: 'harbour',
    host: 'localhost',
    country: 'United Kingdom',
    login: { email: 'demo@harbour-safety.example', password: 'Harbour-demo-2026' },
    guest: { phone: '01632 960 111', address1: '7 Mill Lane', town: 'Leeds', postcode: 'LS1 4AP' },
  },
  {
    code: 'northgate',
    host: '127.0.0.1',
    country: 'United States',
    login: { email: 'demo@northgate-workplace.example', password: 'Northgate-demo-2026' },
    guest: { phone: '(555) 010-2222', address1: '12 Lake Street', town: 'Chicago', postcode: '60601' },
  },
] as const

async function settle(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => {})
  await page.waitForTimeout(400)
}

async function toCheckout(page: Page, base: string, code: 'harbour' | 'northgate') {
  await addThirtyAndCheckout(page, base, plainProduct(code))
  await page.waitForTimeout(400)
}

async function logIn(page: Page, base: string, login: { email: string; password: string }) {
  await page.goto(`${base}/login`)
  await page.getByRole('textbox', { name: 'Email' }).fill(login.email)
  await page.getByLabel('Password').fill(login.password)
  await page.getByRole('button', { name: 'Log In' }).click()
  await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 15_000 })
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
})
await mkdir(OUT, { recursive: true })

for (const site of SITES) {
  if (only && only !== site.code) continue
  const base = `http://${site.host}:${port}`
  for (const width of widths) {
    let n = 0
    const shot = async (page: Page, name: string, fullPage = true) => {
      await settle(page)
      const file = `${OUT}/${site.code}-${width}-${String(++n).padStart(2, '0')}-${name}.png`
      await page.screenshot({ path: file, fullPage })
      const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)
      console.log(file, wide ? 'SCROLLS SIDEWAYS' : '')
    }
    const viewport = { width, height: width < 768 ? 844 : 900 }

    // A guest's checkout: steps 1–3, the login dialog, the processing dialog, Order Complete.
    {
      const context = await browser.newContext({ viewport })
      const page = await context.newPage()
      await toCheckout(page, base, site.code)
      await page.getByRole('radio', { name: /Purchase Order/ }).check()
      await shot(page, 'checkout-step-1')
      await page.getByTestId('continue').click()
      await page.getByRole('button', { name: 'Login to Your Account' }).click()
      await expect(page.getByTestId('login-modal')).toBeVisible()
      await shot(page, 'checkout-login-dialog', false)
      await page.getByTestId('login-modal').getByRole('button', { name: 'Log In', exact: true }).click()
      await expect(page.getByTestId('login-modal').getByRole('alert')).toBeVisible()
      await shot(page, 'checkout-login-dialog-errors', false)
      await page.keyboard.press('Escape')
      await page.getByRole('button', { name: 'Checkout as New Customer' }).click()
      await page.locator('#contact-email').fill('not-an-email')
      await page.locator('#contact-phone').fill('0163')
      await page.locator('#contact-firstName').focus()
      await shot(page, 'checkout-step-2-messages')
      await page.locator('#contact-firstName').fill('Kay')
      await page.locator('#contact-lastName').fill('Board')
      await page.locator('#contact-email').fill(`shots.${site.code}.${width}@example.com`)
      await page.locator('#contact-phone').fill(site.guest.phone)
      await page.locator('#shipping-address1').fill(site.guest.address1)
      await page.locator('#shipping-town').fill(site.guest.town)
      await page.locator('#shipping-postcode').fill(site.guest.postcode)
      await page.locator('#shipping-country').selectOption({ label: site.country })
      await shot(page, 'checkout-step-2')
      await page.getByTestId('continue').click()
      await expect(page.getByTestId('complete-order')).toBeVisible()
      await shot(page, 'checkout-step-3')
      let release: () => void = () => {}
      const held = new Promise<void>((r) => (release = r))
      await page.route('**/checkout/complete', async (route) => {
        await held
        await route.continue()
      })
      await page.getByTestId('complete-order').click()
      await expect(page.getByTestId('processing-modal')).toBeVisible()
      await shot(page, 'checkout-processing-dialog', false)
      release()
      await expect(page.getByRole('heading', { level: 1, name: 'Order Complete' })).toBeVisible({
        timeout: 20_000,
      })
      await shot(page, 'order-complete')
      await context.close()
    }

    // A customer: the add-contact and add-address dialogs at checkout, then every account page.
    {
      const context = await browser.newContext({ viewport })
      const page = await context.newPage()
      await logIn(page, base, site.login)
      await toCheckout(page, base, site.code)
      await expect(page.getByTestId('step-2')).toHaveAttribute('data-open', 'true')
      await shot(page, 'checkout-step-2-customer')
      for (const [button, name] of [
        ['Add New Contact', 'checkout-add-contact-dialog'],
        ['New Shipping Address', 'checkout-add-address-dialog'],
      ] as const) {
        await page.getByRole('button', { name: button }).click()
        const dialog = page.getByRole('dialog', { name: button })
        await expect(dialog).toBeVisible()
        await shot(page, name, false)
        const add = dialog.getByRole('button', { name: 'Add', exact: true })
        await add.focus()
        await page.keyboard.press('Enter')
        await shot(page, `${name}-messages`, false)
        await page.keyboard.press('Escape')
        await expect(dialog).toBeHidden()
      }
      await page.goto(`${base}/customer/orders`)
      const firstOrder = await page
        .locator('a[href^="/customer/orders/"]')
        .first()
        .getAttribute('href')
        .catch(() => null)
      for (const [name, path] of [
        ['account-home', '/customer'],
        ['account-orders', '/customer/orders'],
        ...(firstOrder ? [['account-order', firstOrder] as const] : []),
        ['account-invoices', '/customer/invoices'],
        ['account-saved-baskets', '/customer/carts'],
        ['account-edit-details', '/customer/update'],
        ['account-change-password', '/customer/password/change'],
        ['account-marketing', '/customer/marketing-preferences'],
        ['account-two-factor', '/customer/two-factor'],
      ] as const) {
        await page.goto(`${base}${path}`)
        await shot(page, name)
      }
      await context.close()
    }
  }
}
await browser.close()
