/**
 * The customer account in Chromium against the seeded demo shop: the demo customer (orders in
 * every status, invoices, saved baskets, a saved card) reorders an old order, loads, renames and
 * deletes saved baskets, manages contacts and addresses, removes the card, changes marketing
 * preferences and the password (and back), and downloads an invoice PDF; axe-core on every
 * page; the area is checked at 390 px wide.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'

const DEMO = { email: 'demo@harbour-safety.example', password: 'Harbour-demo-2026' }
const NEW_PASSWORD = 'Harbour-new-2026!'

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)
}

async function logIn(page: Page, target: string, password = DEMO.password) {
  await page.goto(target)
  await expect(page).toHaveURL(/\/login$/)
  await page.getByLabel('Email').fill(DEMO.email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).toHaveURL(new RegExp(`${target.replace(/\//g, '\\/')}$`))
}

async function noHorizontalScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow).toBeLessThanOrEqual(1)
}

test('the demo customer uses every part of the account area', async ({ page }) => {
  test.setTimeout(240_000)
  await logIn(page, '/customer')
  await expect(page.getByRole('heading', { level: 1, name: 'Your Account' })).toBeVisible()
  await expect(page.getByTestId('account-greeting')).toHaveText('Hello, Dana')
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('My Account Home')
  await expect(page.getByRole('button', { name: 'Log Out' }).first()).toBeVisible()
  await expect(
    page
      .getByRole('navigation', { name: 'Your account' })
      .getByRole('link', { name: 'Two-Factor Authentication' }),
  ).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])

  // Orders: every status word for word, newest first; reorder the oldest order.
  await page
    .getByRole('navigation', { name: 'Your account' })
    .getByRole('link', { name: 'View Order History/Reorder' })
    .click()
  await expect(page.getByRole('heading', { level: 1, name: 'Your Orders' })).toBeVisible()
  for (const text of [
    'BEING PROCESSED',
    "ORDER HELD (we're checking a few things)",
    'COMPLETED/SHIPPED',
    'ORDER CANCELLED/REJECTED (check email)',
  ])
    await expect(page.getByRole('cell', { name: text, exact: true }).first()).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
  const rows = page.locator('tbody tr')
  await rows.last().getByRole('link').click()
  await expect(page.getByTestId('order-detail')).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
  await page.getByRole('button', { name: 'Reorder all' }).click()
  await expect(page).toHaveURL(/\/cart$/)
  await expect(page.locator('main')).toContainText('Items in your basket')

  // An order with a product no longer sold says so.
  await page.goto('/customer/orders')
  await page.locator('tbody tr').nth(2).getByRole('link').click()
  await expect(page.getByTestId('order-detail')).toContainText('Currently Unavailable For ReOrder')

  // Saved baskets: load one, rename one, delete one.
  await page.goto('/customer/carts')
  await expect(page.getByRole('heading', { level: 1, name: 'Baskets' })).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
  const refit = page.getByTestId('saved-basket').filter({ hasText: 'Site refit' })
  await refit.getByRole('button', { name: 'Load basket' }).click()
  await expect(page).toHaveURL(/\/cart$/)
  await page.goto('/customer/carts')
  await refit.getByRole('button', { name: 'Rename' }).click()
  await refit.getByLabel('Basket name').fill('Site refit 2027')
  await refit.getByRole('button', { name: 'Save name' }).click()
  await expect(page.getByTestId('account-notice')).toHaveText('Cart updated!')
  await expect(page.getByRole('heading', { name: 'Site refit 2027' })).toBeVisible()
  page.once('dialog', (d) => void d.accept())
  await page
    .getByTestId('saved-basket')
    .filter({ hasText: 'Monthly restock' })
    .getByRole('button', { name: 'Delete' })
    .click()
  await expect(page.getByTestId('saved-basket')).toHaveCount(1)

  // Contacts and addresses: add, edit, make primary, delete; the saved card removed.
  await page.goto('/customer/update')
  await expect(page.getByRole('heading', { level: 1, name: 'Edit Details' })).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
  const contacts = page.getByTestId('book-contact')
  await contacts.getByRole('button', { name: 'Add New Contact' }).click()
  const addContact = contacts.getByRole('button', { name: 'Add New Contact' })
  await expect(addContact).toBeDisabled()
  await contacts.getByLabel('First name').fill('Casey')
  await contacts.getByLabel('Last name').fill('Buyer')
  await contacts.getByLabel('Email').fill('casey@example.com')
  await contacts.getByLabel('Phone').fill('0163')
  await contacts.getByLabel('Phone').blur()
  await expect(contacts.getByTestId('error-phone')).toHaveText('Not a valid phone number')
  await contacts.getByLabel('Phone').fill('01632 960 123')
  await addContact.click()
  await expect(page.getByTestId('account-notice')).toHaveText('Details edited!')
  const casey = page.getByTestId('contact-entry').filter({ hasText: 'casey@example.com' })
  await casey.getByRole('button', { name: /^Edit/ }).click()
  await casey.getByLabel('Last name').fill('Buyer-Smith')
  await casey.getByRole('button', { name: 'Save contact' }).click()
  await expect(page.getByTestId('contact-entry').filter({ hasText: 'Buyer-Smith' })).toBeVisible()
  const caseyNow = page.getByTestId('contact-entry').filter({ hasText: 'Buyer-Smith' })
  await caseyNow.getByRole('button', { name: /^Make primary/ }).click()
  await expect(caseyNow).toContainText('Primary')
  await expect(caseyNow.getByRole('button', { name: /^Delete/ })).toBeDisabled()
  const dana = page.getByTestId('contact-entry').filter({ hasText: 'Dana Demo' })
  await dana.getByRole('button', { name: /^Make primary/ }).click()
  await expect(dana).toContainText('Primary')
  // Deleting asks first (WCAG 3.3.4), and then says what went.
  await caseyNow.getByRole('button', { name: /^Delete/ }).click()
  await expect(caseyNow.getByTestId('confirm-delete')).toContainText('Delete this contact? Casey Buyer-Smith')
  await expect(caseyNow.getByRole('button', { name: 'Keep' })).toBeFocused()
  await caseyNow.getByRole('button', { name: 'Delete contact' }).click()
  await expect(page.getByTestId('contact-entry').filter({ hasText: 'Buyer-Smith' })).toHaveCount(0)
  await expect(page.getByTestId('account-notice')).toHaveText(/^Deleted the contact: Casey Buyer-Smith, /)

  const shipping = page.getByTestId('book-shipping')
  await shipping.getByRole('button', { name: 'New Shipping Address' }).click()
  await shipping.getByLabel('Address 1').fill('7 Harbour Walk')
  await shipping.getByLabel('Town').fill('Plymouth')
  await shipping.getByLabel('Postcode').fill('PL1 2AB')
  await shipping.getByRole('button', { name: 'New Shipping Address' }).click()
  await expect(page.getByTestId('account-notice')).toHaveText('Details edited!')
  const walk = page.getByTestId('shipping-entry').filter({ hasText: '7 Harbour Walk' })
  await walk.getByRole('button', { name: /^Edit/ }).click()
  await walk.getByLabel('Town').fill('Plymouth Hoe')
  await walk.getByRole('button', { name: 'Save shipping address' }).click()
  const hoe = page.getByTestId('shipping-entry').filter({ hasText: 'Plymouth Hoe' })
  await expect(hoe).toBeVisible()
  await hoe.getByRole('button', { name: /^Make primary/ }).click()
  await expect(hoe).toContainText('Primary')
  const quay = page.getByTestId('shipping-entry').filter({ hasText: '12 Quay Street' })
  await quay.getByRole('button', { name: /^Make primary/ }).click()
  await expect(quay).toContainText('Primary')
  await hoe.getByRole('button', { name: /^Delete/ }).click()
  await page.keyboard.press('Escape')
  await expect(hoe.getByTestId('confirm-delete')).toHaveCount(0)
  await expect(hoe).toBeVisible()
  await hoe.getByRole('button', { name: /^Delete/ }).click()
  await hoe.getByRole('button', { name: 'Delete shipping address' }).click()
  await expect(page.getByTestId('shipping-entry').filter({ hasText: 'Plymouth Hoe' })).toHaveCount(0)
  await expect(page.getByTestId('account-notice')).toHaveText(
    /^Deleted the shipping address: 7 Harbour Walk, Plymouth Hoe, PL1 2AB/,
  )

  await page
    .getByTestId('saved-card')
    .getByRole('button', { name: /^Remove/ })
    .click()
  await expect(page.getByTestId('account-notice')).toHaveText('Card removed successfully')
  await expect(page.getByText('No saved cards.')).toBeVisible()

  // Marketing preferences.
  await page.goto('/customer/marketing-preferences')
  await expect(page.getByRole('heading', { level: 1, name: 'Marketing Preferences' })).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
  await page.getByLabel('Post').check()
  await page.getByRole('button', { name: 'Save preferences' }).click()
  await expect(page.getByTestId('account-notice')).toHaveText('Preferences updated!')
  await page.reload()
  await expect(page.getByLabel('Post')).toBeChecked()

  // Invoices: view one and download its PDF.
  await page.goto('/customer/invoices')
  await expect(page.getByRole('heading', { level: 1, name: 'Your Invoices' })).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
  await page.locator('tbody tr').first().getByRole('link').first().click()
  await expect(page.getByTestId('invoice-view')).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download PDF' }).click(),
  ])
  expect(download.suggestedFilename()).toMatch(/^invoice-\d+\.pdf$/)
  const stream = await download.createReadStream()
  const head = await new Promise<string>((resolve) =>
    stream.once('data', (c: Buffer) => resolve(c.subarray(0, 5).toString())),
  )
  expect(head).toBe('%PDF-')

  // Password: the rule on blur, then a change (and back, for the other browser tests).
  await page.goto('/customer/password/change')
  await expect(page.getByRole('heading', { level: 1, name: 'Change Your Password' })).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
  for (const [from, to] of [
    [DEMO.password, NEW_PASSWORD],
    [NEW_PASSWORD, DEMO.password],
  ]) {
    await page.getByRole('textbox', { name: 'Current password' }).fill(from!)
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill('short')
    await page.getByRole('textbox', { name: 'New password', exact: true }).blur()
    await expect(page.getByTestId('error-password')).toHaveText(
      'Password must be at least 10 characters and include a number, letter, and symbol.',
    )
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill(to!)
    await page.getByRole('textbox', { name: 'Confirm new password' }).fill(to!)
    await page.getByRole('button', { name: 'Change Password' }).click()
    await expect(page.getByTestId('account-notice')).toHaveText(
      'Your password has been changed. Other devices have been logged out.',
    )
  }
})

test('the account area is usable at 390 px and a guest comes back after logging in', async ({ page }) => {
  test.setTimeout(120_000)
  await page.setViewportSize({ width: 390, height: 844 })
  await logIn(page, '/customer/orders')
  for (const url of [
    '/customer',
    '/customer/orders',
    '/customer/invoices',
    '/customer/carts',
    '/customer/update',
    '/customer/password/change',
    '/customer/marketing-preferences',
  ]) {
    await page.goto(url)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await noHorizontalScroll(page)
  }
  await page.goto('/customer/orders')
  await page.locator('tbody tr').first().getByRole('link').click()
  await expect(page.getByTestId('order-detail')).toBeVisible()
  await noHorizontalScroll(page)
  await page.getByRole('button', { name: 'Log Out' }).first().click()
  await expect(page).toHaveURL(/\/$/)
  await page.goto('/customer')
  await expect(page).toHaveURL(/\/login$/)
})
