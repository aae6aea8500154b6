/**
 * The back office's customers and payments to check in a browser (issue 34): the demo owner
 * finds the demo customer who lost their phone by name, opens their page, resets their two-factor
 * (confirmed, then answered on the page, announced and focused), and sees the demo's stuck card
 * payment with its action; each page axe clean and without sideways scrolling at 390 px. The
 * customer and the payment are the back office's own demo rows (backoffice.seed.ts): no other
 * spec uses them.
 */
import { expect, test, type Page } from '@playwright/test'
import { OWNER, seriousViolations, signIn } from './helpers/backoffice.ts'

async function fitsPhone(page: Page) {
  await page.setViewportSize({ width: 390, height: 844 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await page.setViewportSize({ width: 1280, height: 800 })
}

test.describe('the back office: customers and payments', () => {
  // A sign-in needs a TOTP time step of its own (a code works once): up to 30 s of waiting.
  test.describe.configure({ timeout: 90_000 })

  test('the owner finds a customer, resets their two-factor, and sees a payment that needs attention', async ({
    page,
  }) => {
    await signIn(page, OWNER.email, OWNER.password, OWNER.secret)
    const nav = page.getByRole('navigation', { name: 'Back office' })

    await nav.getByRole('link', { name: 'Customers' }).click()
    await expect(page.getByRole('heading', { name: 'Customers', level: 1 })).toBeVisible()
    await page.getByLabel('Search', { exact: true }).fill('Lostphone')
    await page.getByRole('button', { name: 'Find customers' }).click()
    await expect(page).toHaveURL(/q=Lostphone/)
    await expect(page.getByRole('status').filter({ hasText: 'Showing 1 customer' })).toBeVisible()
    expect(await seriousViolations(page)).toEqual([])
    await fitsPhone(page)

    await page.getByRole('link', { name: 'Lee Lostphone' }).click()
    await expect(page.getByRole('heading', { name: 'Lee Lostphone', level: 1 })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Orders' })).toBeVisible()
    expect(await seriousViolations(page)).toEqual([])
    page.once('dialog', (d) => void d.accept())
    await page.getByRole('button', { name: 'Reset two-factor' }).click()
    const done = page.getByRole('status').filter({ hasText: 'Two-factor was reset' })
    await expect(done).toBeVisible()
    // The answer takes the focus, so the keyboard goes on from it.
    await expect(page.locator(':focus')).toContainText('Two-factor was reset')
    await expect(page.getByText('Reset: to be set up again at the next sign-in')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Reset two-factor' })).toHaveCount(0)
    expect(await seriousViolations(page)).toEqual([])
    await fitsPhone(page)

    await nav.getByRole('link', { name: 'Payments to check' }).click()
    await expect(page.getByRole('heading', { name: 'Payments that need attention', level: 1 })).toBeVisible()
    const paid = page.getByRole('region', { name: 'Money taken, no order' })
    await expect(paid.getByText(/the basket changed after payment/)).toBeVisible()
    await expect(
      paid.getByRole('button', { name: /^Place the order for the £29\.99 Card \(Opayo\) payment/ }),
    ).toBeVisible()
    expect(await seriousViolations(page)).toEqual([])
    await fitsPhone(page)
  })
})
