/**
 * The basket in Chromium against the seeded demo shop (Harbour: minimum order £20.00 ex VAT,
 * standard delivery £5.95 free from £100.00 ex VAT, codes SAVE10 and FREEDEL).
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { plainProduct } from '../support/demo-catalog.ts'
import { normaliseBrackets } from '../../src/shared/pricing.ts'

/** A SKU whose first bracket is under the £20 minimum for one, with a second bracket that clears it. */
const { sku, group: product } = plainProduct('harbour', (s) => {
  const b = normaliseBrackets(s.priceList)
  return (
    b.length >= 2 &&
    b[0]!.price < 2000 &&
    b[0]!.lowerQty === 1 &&
    b[1]!.price < b[0]!.price &&
    b[1]!.price * b[1]!.lowerQty >= 2000 &&
    b[1]!.price * b[1]!.lowerQty < 10000
  )
})
const brackets = normaliseBrackets(sku.priceList)

const gbp = (pence: number) =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }).format(pence / 100)
const vat = (pence: number) => Math.floor(pence * 0.2 + 0.5)

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)
}

function watchErrors(page: Page): string[] {
  const problems: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text())
  })
  page.on('pageerror', (e) => problems.push(e.message))
  return problems
}

async function addFromGrid(page: Page, quantity: number) {
  await page.goto(product.url)
  const row = page.locator(`tr[data-sku="${sku!.sku}"]`)
  const field = row.getByRole('textbox')
  await field.fill(String(quantity))
  await field.blur()
  await page.getByTestId(`price-grid-${sku!.grid}`).getByRole('button', { name: 'Add to Basket' }).click()
  await expect(page).toHaveURL(/\/cart$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Basket' })).toBeVisible()
}

test('a shopper adds from a price grid, changes the quantity, uses codes and empties the basket', async ({
  page,
}) => {
  const problems = watchErrors(page)
  await addFromGrid(page, 1)

  const line = page.getByTestId('cart-line').first()
  await expect(line).toHaveAttribute('data-sku', sku.sku)
  await expect(line.getByTestId('line-price')).toHaveText(gbp(brackets[0]!.price))
  await expect(page.getByTestId('cart-summary')).toContainText('1 item')
  // Under the minimum order: the notice replaces the checkout buttons.
  await expect(page.getByTestId('minimum-order-notice').first()).toContainText('£20.00')
  await expect(page.getByTestId('checkout-button')).toHaveCount(0)
  // The add was reported to the data layer with the server's price.
  const events = await page.evaluate(() => (window as { dataLayer?: unknown[] }).dataLayer ?? [])
  expect(events).toContainEqual({
    event: 'add_to_cart',
    ecommerce: {
      currency: 'GBP',
      items: [
        expect.objectContaining({
          sku: sku.sku,
          price: brackets[0]!.price / 100,
          quantity: 1,
          currency: 'GBP',
          brand: 'Harbour Safety Supplies',
        }),
      ],
    },
  })

  // Up to the next bracket: its price, VAT per line, checkout allowed, header updated.
  const q = brackets[1]!.lowerQty
  await line.getByRole('textbox').fill(String(q))
  await line.getByRole('textbox').blur()
  await expect(line.getByTestId('line-price')).toHaveText(gbp(brackets[1]!.price))
  const goods = brackets[1]!.price * q
  await expect(line.getByTestId('line-total')).toHaveText(gbp(goods))
  await expect(page.getByTestId('total-vat').first()).toHaveText(gbp(vat(goods) + vat(595)))
  await expect(page.getByTestId('checkout-button').first()).toHaveAttribute('href', '/checkout')
  await expect(page.getByTestId('minimum-order-notice')).toHaveCount(0)
  await expect(page.getByTestId('cart-summary')).toContainText(`${q} items`)
  await expect(page.getByTestId('cart-summary')).toContainText(gbp(goods + 595 + vat(goods) + vat(595)))
  await expect(page.getByTestId('delivery-notice')).toContainText(`Spend another ${gbp(10000 - goods)}`)

  // A free-delivery code: the notice says the order qualifies; removing it brings the invitation back.
  const promo = page.getByTestId('promo-form')
  await promo.getByRole('textbox', { name: 'Promotional code' }).fill('freedel')
  await promo.getByRole('button', { name: 'Apply' }).click()
  await expect(promo.getByText('FREEDEL')).toBeVisible()
  await expect(page.getByTestId('delivery-notice')).toContainText('qualifies for free delivery')
  await expect(page.getByTestId('total-delivery').first()).toHaveText('Free')
  await promo.getByRole('button', { name: 'Remove' }).click()
  await expect(page.getByTestId('delivery-notice')).toContainText('Spend another')

  // A code that is too long is refused in the browser; an unknown one shows the server's message.
  await promo.getByRole('textbox', { name: 'Promotional code' }).fill('X'.repeat(51))
  await promo.getByRole('button', { name: 'Apply' }).click()
  await expect(page.getByTestId('promo-error')).toHaveText('Promotional Code must be less than 50 characters')
  await promo.getByRole('textbox', { name: 'Promotional code' }).fill('NOSUCHCODE')
  await promo.getByRole('button', { name: 'Apply' }).click()
  await expect(page.getByTestId('promo-error')).toHaveText(
    'Promo code is not valid or applicable to your cart - NOSUCHCODE',
  )
  await promo.getByRole('textbox', { name: 'Promotional code' }).fill('SAVE10')
  await promo.getByRole('button', { name: 'Apply' }).click()
  await expect(page.getByTestId('total-discount').first()).toHaveText(`−${gbp(Math.floor(goods / 10 + 0.5))}`)

  expect(await seriousViolations(page)).toEqual([])

  // Remove the line: the empty state with suggestions, and a zero header.
  await line.getByRole('button', { name: /^Remove / }).click()
  await expect(page.getByText('No items in your shopping cart')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Suggested products' })).toBeVisible()
  await expect(page.getByTestId('cart-summary')).toContainText('£0.00')
  expect(await seriousViolations(page)).toEqual([])
  expect(problems).toEqual([])
})

test('a shared basket arrives by e-mail and opens as a copy without the share button', async ({
  page,
  browser,
}) => {
  await addFromGrid(page, 2)
  await page.getByRole('button', { name: 'Share Basket' }).click()
  const dialog = page.getByTestId('share-dialog')
  await expect(dialog).toBeVisible()
  await dialog.getByRole('textbox', { name: 'Your name' }).fill('Sam 1')
  await dialog.getByRole('button', { name: 'Send' }).click()
  await expect(
    dialog.getByText('The name may contain only letters, spaces, apostrophes and hyphens.'),
  ).toBeVisible()
  await dialog.getByRole('textbox', { name: 'Your name' }).fill("Sam O'Hara")
  await dialog.getByRole('textbox', { name: 'E-mail addresses' }).fill('friend@example.com, boss@example.com')
  expect(await seriousViolations(page)).toEqual([])
  await dialog.getByRole('button', { name: 'Send' }).click()
  await expect(dialog.getByText('Cart sent')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()

  await page.goto('/dev/mail')
  await page.getByRole('link', { name: "Sam O'Hara has shared a basket with you" }).first().click()
  const text = await page.getByTestId('mail-text').textContent()
  const link = /http:\/\/localhost:\d+\/cart\/shared\/[\w-]+/.exec(text ?? '')![0]

  const friend = await browser.newContext()
  const other = await friend.newPage()
  await other.goto(link)
  // Opening the link changes nothing: it asks first.
  await other.getByRole('button', { name: 'Replace my basket' }).click()
  await expect(other).toHaveURL(/\/cart$/)
  await expect(other.getByTestId('cart-line')).toHaveAttribute('data-sku', sku.sku)
  await expect(other.getByRole('button', { name: 'Share Basket' })).toHaveCount(0)
  await expect(other.getByTestId('cart-summary')).toContainText('2 items')
  await friend.close()
})

test('typing 0 in a line’s quantity and leaving the field removes the line', async ({ page }) => {
  await addFromGrid(page, 3)
  const field = page.getByTestId('cart-line').first().getByRole('textbox')
  await field.fill('0')
  await field.press('Tab')
  await expect(page.getByText('No items in your shopping cart')).toBeVisible()
  await expect(page.getByTestId('cart-summary')).toContainText('0 items')
})
