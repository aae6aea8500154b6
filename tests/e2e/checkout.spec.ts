/**
 * Checkout in Chromium against the seeded demo shop: a guest buys with a purchase order from
 * the basket to Order Complete, keyboard only where it matters; a second tab submitting the same
 * basket gets the same order; the acknowledgement reaches the outbox; axe-core on every step.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import type { SeedSku } from '../../src/server/db/seed/catalog/generate.ts'
import { plainProduct } from '../support/demo-catalog.ts'

const { sku, group: product } = plainProduct('harbour')
const { sku: usSku, group: usProduct } = plainProduct('northgate')

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)
}

async function fillBasket(page: Page, base = '', item: SeedSku = sku, url = product.url) {
  await page.goto(`${base}${url}`)
  const row = page.locator(`tr[data-sku="${item.sku}"]`)
  const field = row.getByRole('textbox')
  await field.fill('30')
  await field.blur()
  await page
    .getByTestId(`price-grid-${item.grid}`)
    .getByRole('button', { name: /^Add to (Basket|Cart)$/ })
    .click()
  await expect(page).toHaveURL(/\/cart$/)
}

test('a guest buys with a purchase order, keyboard only through the form, and sees Order Complete', async ({
  page,
  context,
}) => {
  // Four axe-core runs on a shared, busy machine.
  test.setTimeout(120_000)
  await fillBasket(page)
  await page.getByTestId('checkout-button').first().click()
  await expect(page.getByRole('heading', { level: 1, name: 'Secure Checkout' })).toBeVisible()
  await expect(page.getByTestId('secure-checkout-header')).toContainText('0800 960 0123')
  expect(await seriousViolations(page)).toEqual([])

  // Step 1: the card is the default; the shopper chooses a purchase order.
  await expect(page.getByRole('radio', { name: /Credit \/ Debit Card/ })).toBeChecked()
  await page.getByRole('radio', { name: /Purchase Order/ }).check()
  await page.getByTestId('continue').focus()
  await page.keyboard.press('Enter')

  // Step 2: guest details, typed with the keyboard.
  await page.getByRole('button', { name: 'Checkout as New Customer' }).focus()
  await page.keyboard.press('Enter')
  const type = async (label: string, value: string, scope = 'contact') => {
    await page.getByTestId(`fieldset-${scope}`).getByRole('textbox', { name: label, exact: true }).focus()
    await page.keyboard.type(value)
  }
  await type('First Name', 'Kay')
  await type('Last Name', 'Board')
  await type('Email', 'kay.board@example.com')
  await type('Phone', '01632 960 444')
  await type('Address 1', '7 Mill Lane', 'shipping')
  await type('Town', 'Leeds', 'shipping')
  await type('Postcode', 'LS1 4AP', 'shipping')
  await page.getByTestId('fieldset-shipping').getByRole('combobox', { name: 'Country' }).selectOption('GB')
  expect(await seriousViolations(page)).toEqual([])
  await page.getByTestId('continue').focus()
  await page.keyboard.press('Enter')

  // Step 3: delivery, notes and the payment box.
  await expect(page.getByTestId('payment-box')).toContainText('Buying from Harbour Safety Supplies is safe')
  await page.getByRole('textbox', { name: 'Delivery Notes' }).fill('Goods in, door 3')
  await expect(page.getByText('19 characters remaining')).toBeVisible()
  await expect(page.getByLabel('Purchase Order Number')).toHaveValue('Kay Board')
  expect(await seriousViolations(page)).toEqual([])

  // A second tab opened on the same basket before the order was placed.
  const second = await context.newPage()
  await second.goto('/checkout')

  await page.getByTestId('complete-order').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: 'Order Complete' })).toBeVisible()
  const number = (await page.getByTestId('order-number').textContent())!.trim()
  expect(Number(number)).toBeGreaterThanOrEqual(100001)
  expect(await seriousViolations(page)).toEqual([])

  // The acknowledgement is in the outbox.
  await expect
    .poll(async () => (await page.request.get('/dev/mail')).text(), { timeout: 15_000 })
    .toContain(`order acknowledgement ${number}`)

  // The basket is forgotten: the checkout now sends the shopper back to the basket.
  await second.goto('/checkout')
  await expect(second).toHaveURL(/\/cart$/)
})

test('a logged-in customer on the USD site orders with their saved details', async ({ page, baseURL }) => {
  test.setTimeout(120_000)
  const base = baseURL!.replace('localhost', '127.0.0.1')
  await page.goto(`${base}/login`)
  await page.getByRole('textbox', { name: 'Email' }).fill('demo@northgate-workplace.example')
  await page.getByLabel('Password').fill('Northgate-demo-2026')
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).not.toHaveURL(/\/login/)
  await fillBasket(page, base, usSku, usProduct.url)
  await page.getByTestId('checkout-button').first().click()
  await expect(page.getByText('Logged in as Jordan Demo.')).toBeVisible()
  // Logged in with a purchase order: the page moves on to step 2 by itself, details prefilled.
  await expect(
    page.getByTestId('fieldset-contact').getByRole('textbox', { name: 'Email', exact: true }),
  ).toHaveValue('demo@northgate-workplace.example')
  await expect(
    page.getByTestId('fieldset-shipping').getByRole('textbox', { name: 'Town', exact: true }),
  ).toHaveValue('Chicago')
  expect(await seriousViolations(page)).toEqual([])
  await page.getByTestId('continue').click()
  await expect(page.getByTestId('payment-box')).toContainText('Buying from Northgate Workplace is safe')
  await expect(page.getByTestId('complete-order')).toBeEnabled()
  await page.getByTestId('complete-order').click()
  await expect(page.getByRole('heading', { level: 1, name: 'Order Complete' })).toBeVisible()
  await expect(page.getByRole('main').getByText('Northgate Workplace Inc.')).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
})

test('a guest on the USD site buys with a purchase order and sees Order Complete', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const base = baseURL!.replace('localhost', '127.0.0.1')
  await fillBasket(page, base, usSku, usProduct.url)
  await page.getByTestId('checkout-button').first().click()
  await expect(page.getByRole('heading', { level: 1, name: 'Secure Checkout' })).toBeVisible()
  await expect(page.getByTestId('secure-checkout-header')).toContainText('1-800-555-0142')
  await expect(page.getByRole('radio', { name: /Purchase Order/ })).toBeChecked()
  await page.getByTestId('continue').click()
  await page.getByRole('button', { name: 'Checkout as New Customer' }).click()
  const contact = page.getByTestId('fieldset-contact')
  await contact.getByRole('textbox', { name: 'First Name', exact: true }).fill('Sam')
  await contact.getByRole('textbox', { name: 'Last Name', exact: true }).fill('Guest')
  await contact.getByRole('textbox', { name: 'Email', exact: true }).fill('sam.guest@example.com')
  await contact.getByRole('textbox', { name: 'Phone', exact: true }).fill('(555) 010-9999')
  // The address search fills the delivery address (the embedded lookup keeps to the site's countries).
  const search = page.getByTestId('address-search-shipping').getByRole('searchbox')
  await search.fill('springfield')
  await page.getByRole('button', { name: /1200 Main Street, Springfield/ }).click()
  const shipping = page.getByTestId('fieldset-shipping')
  await expect(shipping.getByRole('textbox', { name: 'Town', exact: true })).toHaveValue('Springfield')
  await expect(shipping.getByRole('combobox', { name: 'Country' })).toHaveValue('US')
  expect(await seriousViolations(page)).toEqual([])
  await page.getByTestId('continue').click()
  await expect(page.getByTestId('payment-box')).toContainText('Buying from Northgate Workplace is safe')
  await expect(page.getByLabel('Purchase Order Number')).toHaveValue('Sam Guest')
  // No VAT on the USD site: no VAT relief declaration, though its care goods qualify elsewhere.
  await expect(page.getByTestId('vat-relief')).toHaveCount(0)
  expect(await seriousViolations(page)).toEqual([])
  await page.getByTestId('complete-order').click()
  await expect(page.getByRole('heading', { level: 1, name: 'Order Complete' })).toBeVisible()
  const number = (await page.getByTestId('order-number').textContent())!.trim()
  await expect
    .poll(async () => (await page.request.get(`${base}/dev/mail`)).text(), { timeout: 15_000 })
    .toContain(`order acknowledgement ${number}`)
  expect(await seriousViolations(page)).toEqual([])
})

test('a logged-in customer on the GBP site submits from two tabs at once and gets one order', async ({
  page,
  context,
}) => {
  test.setTimeout(150_000)
  await page.goto('/login')
  await page.getByRole('textbox', { name: 'Email' }).fill('demo@harbour-safety.example')
  await page.getByLabel('Password').fill('Harbour-demo-2026')
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).not.toHaveURL(/\/login/)
  await fillBasket(page)
  // Pay by purchase order: the checkout restores the method from its one-day cookie (§9).
  await context.addCookies([
    { name: 'payment_method', value: 'purchase_order', url: new URL(page.url()).origin },
  ])
  const second = await context.newPage()
  const toStep3 = async (p: Page) => {
    await p.goto('/checkout')
    await expect(p.getByText(/^Logged in as /)).toBeVisible()
    // Logged in with a purchase order: step 2 opens by itself with the saved details.
    await expect(
      p.getByTestId('fieldset-contact').getByRole('textbox', { name: 'Email', exact: true }),
    ).toHaveValue('demo@harbour-safety.example')
    await p.getByTestId('continue').click()
    await expect(p.getByTestId('payment-box')).toContainText('Buying from Harbour Safety Supplies is safe')
    await expect(p.getByTestId('complete-order')).toBeEnabled()
  }
  await toStep3(page)
  expect(await seriousViolations(page)).toEqual([])
  await toStep3(second)
  // Both tabs press Complete Order together: the basket is locked, one order is placed, and the
  // later submit is answered with the same order.
  await Promise.all([
    page.getByTestId('complete-order').click(),
    second.getByTestId('complete-order').click(),
  ])
  await expect(page.getByRole('heading', { level: 1, name: 'Order Complete' })).toBeVisible()
  await expect(second.getByRole('heading', { level: 1, name: 'Order Complete' })).toBeVisible()
  const first = (await page.getByTestId('order-number').textContent())!.trim()
  const other = (await second.getByTestId('order-number').textContent())!.trim()
  expect(other).toBe(first)
  await expect
    .poll(async () => (await page.request.get('/dev/mail')).text(), { timeout: 15_000 })
    .toContain(`order acknowledgement ${first}`)
  const mail = await (await page.request.get('/dev/mail')).text()
  expect(mail.split(`order acknowledgement ${first}`).length - 1).toBe(1)
  expect(await seriousViolations(page)).toEqual([])
})
