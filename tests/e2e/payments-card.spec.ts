/**
 * Card payments in Chromium on the demo shop, against the payment simulators (test mode): the
 * Opayo drop-in (sagepay) on Harbour, with 3-D Secure and a saved card, and Paya's hosted form
 * on Northgate. Each test checks the order afterwards: a placed order is acknowledged by e-mail
 * (the outbox), a refused payment leaves the shopper on the checkout with no order.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { addThirtyAndCheckout, plainProduct } from '../support/demo-catalog.ts'

test.describe.configure({ mode: 'serial' })

const harbour = plainProduct('harbour')
const northgate = plainProduct('northgate')

const SIM_PORT = process.env.PAYMENTS_SIMULATOR_PORT
const DECLINE = '4929602110085639'
const APPROVE = '4929000000006'

async function guestDetails(page: Page, email: string, country = 'GB', paymentBox = true) {
  // A click that lands before the page has hydrated does nothing: click until step 2 opens.
  const newCustomer = page.getByRole('button', { name: 'Checkout as New Customer' })
  await expect(async () => {
    if (!(await newCustomer.isVisible())) await page.getByTestId('continue').click({ timeout: 2000 })
    await expect(newCustomer).toBeVisible({ timeout: 2000 })
  }).toPass({ timeout: 30_000 })
  await newCustomer.click()
  const fill = (scope: string, label: string, value: string) =>
    page.getByTestId(`fieldset-${scope}`).getByRole('textbox', { name: label, exact: true }).fill(value)
  await fill('contact', 'First Name', 'Cara')
  await fill('contact', 'Last Name', 'Card')
  await fill('contact', 'Email', email)
  await fill('contact', 'Phone', '01632 960 777')
  await fill('shipping', 'Address 1', '12 Dock Road')
  await fill('shipping', 'Town', country === 'US' ? 'Chicago' : 'Hull')
  await fill('shipping', 'Postcode', country === 'US' ? '60601' : 'HU1 1AA')
  await page.getByTestId('fieldset-shipping').getByRole('combobox', { name: 'Country' }).selectOption(country)
  await page.getByTestId('continue').click()
  if (paymentBox) await expect(page.getByTestId('payment-box')).toBeVisible()
}

/** A logged-in customer: the page moves to step 2 by itself after 200 ms; Continue to step 3. */
async function toPaymentBox(page: Page) {
  const box = page.getByTestId('payment-box')
  await expect(async () => {
    if (!(await box.isVisible())) await page.getByTestId('continue').click({ timeout: 2000 })
    await expect(box).toBeVisible({ timeout: 2000 })
  }).toPass({ timeout: 30_000 })
}

async function login(page: Page) {
  await page.goto('/login')
  await page.getByRole('textbox', { name: 'Email' }).fill('demo@harbour-safety.example')
  await page.getByLabel('Password').fill('Harbour-demo-2026')
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).not.toHaveURL(/\/login/)
}

/** The drop-in's fields live in the provider's iframe, not in our page. */
async function typeCard(page: Page, number: string, name = 'Cara Card') {
  const frame = page.frameLocator('#sp-container iframe')
  await frame.getByLabel('Name on card').fill(name)
  await frame.getByLabel('Card number').fill(number)
  await frame.getByLabel('Expiry (MMYY)').fill('1230')
  await frame.getByLabel('Security code').fill('123')
}

async function expectPlaced(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: 'Order Complete' })).toBeVisible({
    timeout: 20_000,
  })
  const number = (await page.getByTestId('order-number').textContent())!.trim()
  // Only a placed (paid) order is acknowledged.
  await expect
    .poll(async () => (await page.request.get('/dev/mail')).text(), { timeout: 15_000 })
    .toContain(`order acknowledgement ${number}`)
  return number
}

const errorBox = (page: Page) => page.getByTestId('error-box')

test('a guest pays by card in the drop-in: test mode shown, no card field in our page, order placed', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await addThirtyAndCheckout(page, '', harbour)
  await expect(page.getByRole('radio', { name: /Credit \/ Debit Card/ })).toBeChecked()
  await guestDetails(page, 'cara.card@example.com')
  await expect(page.getByTestId('test-mode')).toContainText('Test mode')
  await expect(page.locator('#sp-container iframe')).toBeVisible()
  // PCI SAQ A: the card inputs are in the provider's frame only.
  await expect(page.locator('input[autocomplete^="cc-"]')).toHaveCount(0)
  await typeCard(page, APPROVE)
  const axe = await new AxeBuilder({ page }).exclude('#sp-container').analyze()
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([])
  await page.getByTestId('complete-order').click()
  await expectPlaced(page)
})

test('a declined card shows the message and places nothing; another card then pays', async ({ page }) => {
  test.setTimeout(120_000)
  await addThirtyAndCheckout(page, '', harbour)
  await guestDetails(page, 'declined.card@example.com')
  await typeCard(page, DECLINE)
  await page.getByTestId('complete-order').click()
  await expect(errorBox(page)).toContainText(
    'Your card was declined. Please check the details or try another card.',
  )
  await expect(page.getByRole('heading', { level: 1, name: 'Secure Checkout' })).toBeVisible()
  // A fresh drop-in for the next card.
  await typeCard(page, APPROVE)
  await page.getByTestId('complete-order').click()
  await expectPlaced(page)
})

test('a 3-D Secure challenge in an iframe that the shopper passes places the order', async ({ page }) => {
  test.setTimeout(120_000)
  await page.setViewportSize({ width: 1200, height: 900 })
  await addThirtyAndCheckout(page, '', harbour)
  await guestDetails(page, 'challenge.pass@example.com')
  await typeCard(page, APPROVE, 'CHALLENGE')
  await page.getByTestId('complete-order').click()
  const acs = page.frameLocator('iframe[name="threeds-frame"]')
  await expect(page.locator('iframe[name="threeds-frame"]')).toHaveAttribute('width', '500')
  await acs.getByRole('button', { name: 'Authenticate' }).click()
  await expectPlaced(page)
})

test('a failed 3-D Secure challenge (small window) says so and places nothing', async ({ page }) => {
  test.setTimeout(120_000)
  await addThirtyAndCheckout(page, '', harbour)
  await guestDetails(page, 'challenge.fail@example.com')
  await page.setViewportSize({ width: 600, height: 900 })
  await typeCard(page, APPROVE, 'CHALLENGE')
  await page.getByTestId('complete-order').click()
  await expect(page.locator('iframe[name="threeds-frame"]')).toHaveAttribute('width', '390')
  await page
    .frameLocator('iframe[name="threeds-frame"]')
    .getByRole('button', { name: 'Fail authentication' })
    .click()
  await expect(errorBox(page)).toContainText(
    'The card check with your bank was not completed. Please try again or use another card.',
  )
  await expect(page.getByRole('heading', { level: 1, name: 'Secure Checkout' })).toBeVisible()
})

test('a customer saves a card, and the next order uses it (the default) with its security code', async ({
  page,
}) => {
  test.setTimeout(150_000)
  await login(page)
  await addThirtyAndCheckout(page, '', harbour)
  await toPaymentBox(page)
  const savedFirst = await page.getByRole('radio', { name: /ending/ }).count()
  if (savedFirst) await page.getByRole('radio', { name: 'A new card' }).check()
  await typeCard(page, APPROVE)
  await page.getByLabel('Save this card for next time').check()
  await page.getByTestId('complete-order').click()
  await expectPlaced(page)

  await addThirtyAndCheckout(page, '', harbour)
  await toPaymentBox(page)
  await expect(page.getByRole('radio', { name: 'Visa ending 0006' }).first()).toBeChecked()
  const frame = page.frameLocator('#sp-container iframe')
  await expect(frame.getByLabel('Card number')).toHaveCount(0)
  await frame.getByLabel('Security code').fill('123')
  await page.getByTestId('complete-order').click()
  await expectPlaced(page)
})

test('a guest pays with Paya on the USD site: the hosted form in an iframe, the order placed', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const base = baseURL!.replace('localhost', '127.0.0.1')
  await addThirtyAndCheckout(page, base, northgate)
  await page.getByRole('radio', { name: /Credit \/ Debit Card/ }).check()
  await guestDetails(page, 'pat.paya@example.com', 'US')
  await expect(page.getByTestId('test-mode')).toContainText('Test mode')
  const form = page.frameLocator('[data-testid="paya-frame"]')
  await expect(page.locator('input[autocomplete^="cc-"]')).toHaveCount(0)
  await form.getByLabel('Card number').fill('4111111111111111')
  await form.getByLabel('Expiry (MMYY)').fill('1230')
  await form.getByLabel('CVV').fill('999')
  await form.getByLabel('ZIP').fill('60601')
  await form.getByRole('button', { name: 'Submit payment' }).click()
  await expectPlaced(page)
})

test('a provider script that fails to load removes the method with the §8 message', async ({ page }) => {
  test.setTimeout(120_000)
  await page.route('**/js/sagepay.js', (route) => route.abort())
  await addThirtyAndCheckout(page, '', harbour)
  await guestDetails(page, 'no.script@example.com', 'GB', false)
  await expect(errorBox(page)).toContainText(
    'Payment method: sagepay failed to load. Please refresh the page or try another payment method.',
  )
  await expect(page.getByRole('radio', { name: /Credit \/ Debit Card/ })).toHaveCount(0)
  await expect(page.getByTestId('step-1')).toBeVisible()
  // Another method still works: the order is placed by purchase order.
  await page.getByRole('radio', { name: /Purchase Order/ }).check()
  await page.getByTestId('continue').click()
  await page.getByTestId('continue').click()
  await page.getByTestId('complete-order').click()
  await expectPlaced(page)
})

test('the checkout page loads scripts only from the shop and the configured providers', async ({ page }) => {
  test.setTimeout(120_000)
  const scripts: string[] = []
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url())
  })
  await addThirtyAndCheckout(page, '', harbour)
  scripts.length = 0
  const res = await page.reload()
  const csp = res!.headers()['content-security-policy'] ?? ''
  const scriptSrc = (/(?:^|;)\s*script-src ([^;]*)/.exec(csp)?.[1] ?? '').split(/\s+/)
  const providers = scriptSrc.filter((v) => /^https?:\/\//.test(v))
  // Test mode: the four providers are the one simulator app.
  expect(providers).toEqual(
    SIM_PORT ? [`http://127.0.0.1:${SIM_PORT}`] : [expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/)],
  )
  await guestDetails(page, 'inventory@example.com')
  await expect(page.locator('#sp-container iframe')).toBeVisible()
  const allowed = new Set([new URL(page.url()).origin, ...providers])
  const unexpected = scripts.filter((s) => !allowed.has(new URL(s).origin))
  expect(unexpected, 'scripts the checkout page must not load').toEqual([])
  expect(scripts.some((s) => s.endsWith('/js/sagepay.js'))).toBe(true)
  // Other pages do not allow the providers.
  const home = await page.request.get('/')
  expect(home.headers()['content-security-policy']).not.toContain(providers[0]!)
})
