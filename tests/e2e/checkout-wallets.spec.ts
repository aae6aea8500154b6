/**
 * PayPal and Amazon Pay in Chromium on the demo shop (Harbour offers both), against the payment
 * simulators the server starts in test mode: a PayPal order, a PayPal re-approval after the
 * total grew, an Amazon Pay order through the review and result returns, and the scripts that
 * fail (PayPal's SDK failing or timing out, Amazon's button) removing their method with the §8
 * message. Each checks the order's state afterwards: a placed order has its acknowledgement in
 * the outbox; a failed method leaves the basket unordered.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { generateSiteCatalog, type SeedSku } from '../../src/server/db/seed/catalog/generate.ts'
import { SITE_SPECS } from '../../src/server/db/seed/catalog/vocabulary.ts'

const catalog = generateSiteCatalog(SITE_SPECS.find((s) => s.code === 'harbour')!)
const groupByUrl = new Map(catalog.groups.map((g) => [g.url, g]))
const categoryByUrl = new Map(catalog.categories.map((c) => [c.url, c]))
const published = (s: SeedSku) => {
  const g = groupByUrl.get(s.groupUrl)
  return s.published && !!g?.published && categoryByUrl.get(g.categoryUrl)?.published !== false
}
const ownRow = (s: SeedSku) =>
  !s.rowKey || catalog.skus.filter((o) => o.rowKey === s.rowKey && o.groupUrl === s.groupUrl).length === 1
const sku = catalog.skus.find((s) => published(s) && ownRow(s) && s.minimumOrder === 1)!
const product = groupByUrl.get(sku.groupUrl)!

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).include('[data-testid="payment-box"]').analyze()
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)
}

async function fillBasket(page: Page) {
  await page.goto(product.url)
  const row = page.locator(`tr[data-sku="${sku.sku}"]`)
  const field = row.getByRole('textbox')
  await field.fill('30')
  await field.blur()
  await page
    .getByTestId(`price-grid-${sku.grid}`)
    .getByRole('button', { name: /^Add to (Basket|Cart)$/ })
    .click()
  await expect(page).toHaveURL(/\/cart$/)
}

/** Step 1 with `method`, step 2 as a guest, on to step 3. */
async function toStep3(page: Page, method: RegExp) {
  await page.getByRole('radio', { name: method }).check()
  await page.getByTestId('continue').click()
  await page.getByRole('button', { name: 'Checkout as New Customer' }).click()
  const fill = (label: string, value: string, scope = 'contact') =>
    page.getByTestId(`fieldset-${scope}`).getByRole('textbox', { name: label, exact: true }).fill(value)
  await fill('First Name', 'Wally')
  await fill('Last Name', 'Wallet')
  await fill('Email', `wally.${Date.now()}@example.com`)
  await fill('Phone', '01632 960 777')
  await fill('Address 1', '2 Quay Road', 'shipping')
  await fill('Town', 'Poole', 'shipping')
  await fill('Postcode', 'BH15 1HJ', 'shipping')
  await page.getByTestId('fieldset-shipping').getByRole('combobox', { name: 'Country' }).selectOption('GB')
  await page.getByTestId('continue').click()
}

async function approveInPayPal(page: Page, button: ReturnType<Page['getByTestId']>) {
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    button.getByRole('button', { name: 'Pay with PayPal' }).click(),
  ])
  await popup.getByRole('button', { name: 'Pay with balance' }).click()
}

async function expectPlaced(page: Page): Promise<string> {
  await expect(page.getByRole('heading', { level: 1, name: 'Order Complete' })).toBeVisible({
    timeout: 20_000,
  })
  const number = (await page.getByTestId('order-number').textContent())!.trim()
  // Only a placed order (the payment taken) is acknowledged by e-mail.
  await expect
    .poll(async () => (await page.request.get('/dev/mail')).text(), { timeout: 15_000 })
    .toContain(`order acknowledgement ${number}`)
  return number
}

test('a guest pays with PayPal: the buyer approves in PayPal’s window and the order is placed', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await fillBasket(page)
  await page.goto('/checkout')
  await toStep3(page, /PayPal/)
  const button = page.getByTestId('paypal-button')
  await expect(button.getByRole('button', { name: 'Pay with PayPal' })).toBeVisible()
  // PayPal's buttons replace Complete Order.
  await expect(page.getByTestId('complete-order')).toHaveCount(0)
  expect(await seriousViolations(page)).toEqual([])
  await approveInPayPal(page, button)
  await expectPlaced(page)
})

test('PayPal asks for re-approval when the total grew after the PayPal order was made', async ({ page }) => {
  test.setTimeout(120_000)
  await fillBasket(page)
  await page.goto('/checkout')
  await toStep3(page, /PayPal/)
  const button = page.getByTestId('paypal-button')
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    button.getByRole('button', { name: 'Pay with PayPal' }).click(),
  ])
  await expect(popup.getByRole('button', { name: 'Pay with balance' })).toBeVisible()
  // While PayPal's window is open the shopper picks the dearer delivery option.
  await page.getByRole('radio', { name: /Next working day/ }).click()
  await expect(page.getByRole('radio', { name: /Next working day/ })).toBeChecked()
  await expect(page.getByRole('radio', { name: /Next working day/ })).toBeEnabled()
  await popup.getByRole('button', { name: 'Pay with balance' }).click()
  // PayPal answers PAYER_ACTION_REQUIRED: nothing taken, the re-approval button shows.
  await expect(page.getByText(/PayPal needs you to approve the new total/).first()).toBeVisible({
    timeout: 20_000,
  })
  const again = page.getByTestId('paypal-reapproval-button')
  await expect(again.getByRole('button', { name: 'Pay with PayPal' })).toBeVisible()
  await expect(page.getByRole('heading', { level: 1, name: 'Secure Checkout' })).toBeVisible()
  await approveInPayPal(page, again)
  await expectPlaced(page)
})

test('a guest pays with Amazon Pay: review return, delivery options, Amazon’s payment page, order placed', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await fillBasket(page)
  await page.goto('/checkout')
  await toStep3(page, /Amazon Pay/)
  await page.getByTestId('amazon-button').getByRole('button', { name: 'Pay with Amazon' }).click()
  // Amazon's page: the wallet card that approves.
  await expect(page.getByText('Amazon Pay simulator')).toBeVisible()
  await page.getByRole('button', { name: 'Continue to checkout' }).click()
  await expect(page).toHaveURL(/\/checkout\?amazonCheckoutSessionId=/)
  await expect(page.getByRole('radio', { name: /Amazon Pay/ })).toBeChecked()
  await toStep3(page, /Amazon Pay/)
  await expect(page.getByTestId('amazon-descriptor')).toHaveText('Paying with Amazon Pay: Visa ****1111')
  await expect(page.getByTestId('wallet-imported')).toContainText('1 Harbour Street')
  expect(await seriousViolations(page)).toEqual([])
  await page.getByTestId('complete-order').click()
  await expectPlaced(page)
})

test('PayPal’s SDK failing to load or timing out removes PayPal with the §8 message; Amazon’s button too', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await fillBasket(page)
  // The SDK never answers: after 6 seconds PayPal is removed.
  await page.route('**/paypal/sdk/js**', () => new Promise(() => {}))
  await page.goto('/checkout')
  await toStep3(page, /PayPal/)
  await expect(page.getByText('Loading of PayPal timed out after 6 seconds')).toBeVisible({ timeout: 15_000 })
  await expect(
    page.getByText(
      'Payment method: paypal failed to load. Please refresh the page or try another payment method.',
    ),
  ).toBeVisible()
  await expect(page.getByRole('radio', { name: /PayPal/ })).toHaveCount(0)

  // A script that fails outright.
  await page.unroute('**/paypal/sdk/js**')
  await page.route('**/paypal/sdk/js**', (route) => route.abort())
  await page.goto('/checkout')
  await toStep3(page, /PayPal/)
  await expect(
    page.getByText(
      'Payment method: paypal failed to load. Please refresh the page or try another payment method.',
    ),
  ).toBeVisible({ timeout: 15_000 })
  await expect(page.getByRole('radio', { name: /PayPal/ })).toHaveCount(0)

  // Amazon's checkout.js fails: 'Amazon payment button failed to render', Amazon removed.
  await page.route('**/amazon/checkout.js', (route) => route.abort())
  await page.goto('/checkout')
  await toStep3(page, /Amazon Pay/)
  await expect(page.getByText('Amazon payment button failed to render')).toBeVisible({ timeout: 15_000 })
  await expect(page.getByRole('radio', { name: /Amazon Pay/ })).toHaveCount(0)

  // Nothing was ordered: the basket is still there.
  await page.goto('/cart')
  await expect(page.getByTestId('cart-line').first()).toBeVisible()
})
