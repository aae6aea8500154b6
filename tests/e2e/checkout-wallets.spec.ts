/**
 * PayPal and Amazon Pay in Chromium on the demo shop (Harbour offers both), against the payment
 * simulators the server starts in test mode. The wallets live on step 2 (spec §4): Continue
 * waits for the provider's order; the buyer's details are then imported read-only and Complete
 * Order on step 3 places the order. Covered: a PayPal order, a PayPal re-approval after the total
 * grew, an Amazon Pay order through the review and result returns (and the jump to step 3 once
 * the delivery options were viewed), and the scripts that fail (PayPal's SDK failing or timing
 * out, Amazon's button) removing their method with the §8 message. A placed order has its
 * acknowledgement in the outbox; a failed method leaves the basket unordered.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { plainProduct } from '../support/demo-catalog.ts'

const { sku, group: product } = plainProduct('harbour')

async function seriousViolations(page: Page, testId = 'payment-box') {
  const result = await new AxeBuilder({ page }).include(`[data-testid="${testId}"]`).analyze()
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

/** Step 1 with `method`, then step 2, where the wallet's button is. */
async function toStep2(page: Page, method: RegExp) {
  await page.getByRole('radio', { name: method }).check()
  await page.getByTestId('continue').click()
  await expect(page.getByTestId('wallet-step')).toBeVisible()
}

const field = (page: Page, scope: string, label: string) =>
  page.getByTestId(`fieldset-${scope}`).getByRole('textbox', { name: label, exact: true })

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

test('a guest pays with PayPal: approved on step 2, details imported read-only, placed on step 3', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await fillBasket(page)
  await page.goto('/checkout')
  await toStep2(page, /PayPal/)
  const button = page.getByTestId('paypal-button')
  await expect(button.getByRole('button', { name: 'Pay with PayPal' })).toBeVisible()
  // No PayPal order yet: step 2 cannot be passed, and no address is asked for.
  await expect(page.getByTestId('continue')).toBeDisabled()
  await expect(page.getByTestId('fieldset-shipping')).toHaveCount(0)
  await expect(page.getByRole('button', { name: /3\. Delivery and Payment/ })).toBeDisabled()
  expect(await seriousViolations(page, 'wallet-step')).toEqual([])
  await approveInPayPal(page, button)
  await expect(page.getByTestId('paypal-approved')).toBeVisible()
  // The buyer's details come from PayPal and cannot be changed.
  await expect(field(page, 'contact', 'First Name')).toHaveValue('Sam')
  await expect(field(page, 'contact', 'First Name')).not.toBeEditable()
  await expect(field(page, 'shipping', 'Address 1')).toHaveValue('1 Harbour Street')
  await expect(field(page, 'shipping', 'Address 1')).not.toBeEditable()
  await expect(
    page.getByTestId('fieldset-shipping').getByRole('combobox', { name: 'Country' }),
  ).toBeDisabled()
  await expect(page.getByText('Bill to a different address.')).toHaveCount(0)
  await page.getByTestId('continue').click()
  await expect(page.getByTestId('wallet-payment')).toHaveText('Paying with PayPal: approved.')
  expect(await seriousViolations(page)).toEqual([])
  await page.getByTestId('complete-order').click()
  await expectPlaced(page)
})

test('PayPal asks for re-approval when the total grew after the PayPal order was approved', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await fillBasket(page)
  await page.goto('/checkout')
  await toStep2(page, /PayPal/)
  await approveInPayPal(page, page.getByTestId('paypal-button'))
  await expect(page.getByTestId('paypal-approved')).toBeVisible()
  await page.getByTestId('continue').click()
  // After approval the shopper picks the dearer delivery option: the total grows.
  await page.getByRole('radio', { name: /Next working day/ }).click()
  await expect(page.getByRole('radio', { name: /Next working day/ })).toBeChecked()
  await expect(page.getByRole('radio', { name: /Next working day/ })).toBeEnabled()
  await page.getByTestId('complete-order').click()
  // PayPal answers PAYER_ACTION_REQUIRED: nothing taken, step 2 shows the re-approval button.
  await expect(page.getByText(/PayPal needs you to approve the new total/).first()).toBeVisible({
    timeout: 20_000,
  })
  const again = page.getByTestId('paypal-reapproval-button')
  await expect(again.getByRole('button', { name: 'Pay with PayPal' })).toBeVisible()
  await expect(page.getByTestId('continue')).toBeDisabled()
  await expect(page.getByRole('heading', { level: 1, name: 'Secure Checkout' })).toBeVisible()
  await approveInPayPal(page, again)
  await expect(page.getByTestId('paypal-approved')).toBeVisible()
  await page.getByTestId('continue').click()
  await page.getByTestId('complete-order').click()
  await expectPlaced(page)
})

test('a guest pays with Amazon Pay: review return imports the details on step 2, order placed from step 3', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await fillBasket(page)
  await page.goto('/checkout')
  await toStep2(page, /Amazon Pay/)
  await expect(page.getByTestId('continue')).toBeDisabled()
  await page.getByTestId('amazon-button').getByRole('button', { name: 'Pay with Amazon' }).click()
  // Amazon's page: the wallet card that approves.
  await expect(page.getByText('Amazon Pay simulator')).toBeVisible()
  await page.getByRole('button', { name: 'Continue to checkout' }).click()
  await expect(page).toHaveURL(/\/checkout\?amazonCheckoutSessionId=/)
  // Back from Amazon the page goes to step 2 by itself, with Amazon's details read-only.
  await expect(page.getByTestId('amazon-descriptor')).toHaveText('Paying with Amazon Pay: Visa ****1111')
  await expect(field(page, 'shipping', 'Address 1')).toHaveValue('1 Harbour Street')
  await expect(field(page, 'shipping', 'Address 1')).not.toBeEditable()
  // The server was told the delivery options were viewed: coming back again opens step 3.
  await page.reload()
  await expect(page.getByTestId('wallet-payment')).toHaveText('Paying with Amazon Pay: Visa ****1111')
  await expect(page.getByRole('radio', { name: /Amazon Pay/ })).toHaveCount(0)
  expect(await seriousViolations(page)).toEqual([])
  await page.getByTestId('complete-order').click()
  await expectPlaced(page)
})

test('PayPal’s SDK failing to load or timing out removes PayPal with the §8 message; Amazon’s button too', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await fillBasket(page)
  const removed = (id: string) =>
    page.getByText(
      `Payment method: ${id} failed to load. Please refresh the page or try another payment method.`,
    )
  // The SDK never answers: after 6 seconds (on step 2) PayPal is removed and the steps close.
  await page.route('**/paypal/sdk/js**', () => new Promise(() => {}))
  await page.goto('/checkout')
  await toStep2(page, /PayPal/)
  await expect(page.getByText('Loading of PayPal timed out after 6 seconds')).toBeVisible({ timeout: 15_000 })
  await expect(removed('paypal')).toBeVisible()
  await expect(page.getByRole('radio', { name: /PayPal/ })).toHaveCount(0)
  await expect(page.getByTestId('wallet-step')).toHaveCount(0)

  // A script that fails outright (PayPal is still the remembered method: the page jumps to step 2).
  await page.unroute('**/paypal/sdk/js**')
  await page.route('**/paypal/sdk/js**', (route) => route.abort())
  await page.goto('/checkout')
  await expect(removed('paypal')).toBeVisible({ timeout: 15_000 })
  await expect(page.getByRole('radio', { name: /PayPal/ })).toHaveCount(0)

  // The card is now the remembered method: the next visit stays on step 1.
  await page.getByRole('radio', { name: /Credit \/ Debit Card/ }).check()

  // Amazon's checkout.js fails: 'Amazon payment button failed to render', Amazon removed.
  await page.route('**/amazon/checkout.js', (route) => route.abort())
  await page.goto('/checkout')
  // Not toStep2: the wallet step shows only until the aborted script is noticed, which may be
  // before the step could be seen.
  await page.getByRole('radio', { name: /Amazon Pay/ }).check()
  await page.getByTestId('continue').click()
  await expect(page.getByText('Amazon payment button failed to render')).toBeVisible({ timeout: 15_000 })
  await expect(removed('amazon')).toBeVisible()
  await expect(page.getByRole('radio', { name: /Amazon Pay/ })).toHaveCount(0)

  // Nothing was ordered: the basket is still there.
  await page.goto('/cart')
  await expect(page.getByTestId('cart-line').first()).toBeVisible()
})

test('the payment methods show their logos with the method’s name as alt text', async ({ page }) => {
  await fillBasket(page)
  await page.goto('/checkout')
  for (const name of ['Credit / Debit Card', 'PayPal', 'Amazon Pay']) {
    const logo = page.getByTestId('step-1').getByRole('img', { name, exact: true })
    await expect(logo).toBeVisible()
    expect(await logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
  }
})
