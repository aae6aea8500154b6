/**
 * The back office in a browser (issue 34): the demo owner invites a staff member by e-mail, who
 * sets a password and two-factor, finds a card order by the customer's postcode, ships it with
 * tracking and refunds one line by card; the owner's audit log shows both actions. A viewer can
 * neither invite nor act on an order (the server refuses, not only the page); every page is axe
 * clean; the order list and order page work at 390 px; the keyboard reaches every section, each
 * page starting from its heading.
 */
import { expect, test } from '@playwright/test'
import {
  accept,
  DEMO_POSTCODE,
  invite,
  OWNER,
  ownerPage,
  seriousViolations,
  signIn,
} from './helpers/backoffice.ts'
import { placeCardOrder } from './helpers/card-order.ts'

test.describe('the back office', () => {
  // Each sign-in needs a TOTP time step of its own (a code works once): up to 30 s of waiting.
  test.describe.configure({ timeout: 120_000 })

  test('the owner invites a staff member, who sets a password and two-factor, finds a card order by postcode, ships it with tracking and refunds one line by card', async ({
    browser,
  }) => {
    const stamp = Date.now()
    const staffEmail = `packer.${stamp}@staff.example`
    // The newest order delivered to the demo postcode: a card order of two lines.
    const cardOrder = await placeCardOrder(await browser.newContext(), DEMO_POSTCODE)
    const owner = await (await browser.newContext()).newPage()
    const res = await owner.goto('/admin/login')
    expect(res?.headers()['x-robots-tag']).toBe('noindex, nofollow')
    await expect(owner.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow')
    expect(await seriousViolations(owner)).toEqual([])
    await signIn(owner, OWNER.email, OWNER.password, OWNER.secret)
    await invite(owner, 'Pat Packer', staffEmail, 'staff')
    expect(await seriousViolations(owner)).toEqual([])

    const staff = await (await browser.newContext()).newPage()
    await accept(staff, staffEmail, 'Packing-pass-2026!')
    // Staff see orders but not the staff or audit sections.
    const staffNav = staff.getByRole('navigation', { name: 'Back office' })
    await expect(staffNav.getByRole('link', { name: 'Orders' })).toBeVisible()
    for (const owners of ['Staff', 'Audit log', 'API tokens', 'Webhooks'])
      await expect(staffNav.getByRole('link', { name: owners })).toHaveCount(0)
    await staff.getByLabel('Search', { exact: true }).fill(DEMO_POSTCODE)
    await staff.getByRole('button', { name: 'Find orders' }).click()
    await expect(staff).toHaveURL(/q=BS1/)
    const rows = staff.getByRole('row').filter({ hasText: DEMO_POSTCODE })
    await expect(rows.first()).toBeVisible()
    expect(await seriousViolations(staff)).toEqual([])
    await rows.getByRole('link', { name: String(cardOrder), exact: true }).click()
    await expect(staff.getByRole('heading', { name: `Order ${cardOrder}` })).toBeVisible()
    await expect(staff.getByRole('heading', { name: 'Delivery address' })).toBeVisible()
    await expect(staff.getByText(DEMO_POSTCODE).first()).toBeVisible()
    expect(await seriousViolations(staff)).toEqual([])

    // Ship everything with tracking; the result is announced and takes the focus.
    const ship = staff.getByRole('form', { name: 'Ship' })
    await ship.getByLabel('Carrier').fill('Royal Mail')
    await ship.getByLabel('Tracking number').fill(`RM${stamp}GB`)
    await ship.getByRole('button', { name: 'Record the shipment' }).click()
    const result = staff.locator('#order-result')
    await expect(result).toHaveText('The shipment was recorded and the customer e-mailed the tracking.')
    await expect(result).toBeFocused()
    await expect(staff.getByTestId('order-status')).toHaveText('Shipped')
    await expect(staff.getByText(`RM${stamp}GB`)).toBeVisible()

    // Refund the first line by card: the quote first (how much, by whom), then the refund.
    const refund = staff.getByRole('form', { name: 'Refund' })
    await refund.getByLabel('Reason for the refund').fill('One sign arrived bent')
    await refund
      .getByRole('textbox', { name: /to refund$/ })
      .first()
      .fill('2')
    await refund.getByRole('button', { name: 'Show the refund' }).click()
    const quote = staff.getByTestId('refund-quote')
    await expect(quote).toContainText('by card, through Opayo')
    // The quote takes the focus, so the keyboard and a screen reader go on from it.
    await expect(quote).toBeFocused()
    await quote.getByRole('button', { name: /^Refund / }).click()
    await expect(result).toHaveText('The refund succeeded.')
    await expect(result).toBeFocused()
    await expect(staff.getByRole('region', { name: 'Payment attempts and refunds' })).toContainText(
      'succeeded',
    )
    expect(await seriousViolations(staff)).toEqual([])

    // The owner's audit log shows the invitation, its acceptance and both order actions.
    await owner.getByRole('link', { name: 'Audit log' }).click()
    await expect(owner.getByText(`staff.invite`).first()).toBeVisible()
    await expect(owner.getByText('staff.invitation.accept').first()).toBeVisible()
    for (const action of ['order.ship', 'order.refund'])
      await expect(
        owner.getByRole('listitem').filter({ hasText: `${action} on order ${cardOrder} by ${staffEmail}` }),
      ).toHaveCount(1)
    expect(await seriousViolations(owner)).toEqual([])
  })

  test('a viewer can neither invite nor act on an order: the pages hide it and the server refuses the requests themselves', async ({
    browser,
  }) => {
    const email = `viewer.${Date.now()}@staff.example`
    const owner = await ownerPage(browser)
    await invite(owner, 'Vic Viewer', email, 'viewer')
    const viewer = await (await browser.newContext()).newPage()
    await accept(viewer, email, 'Viewing-pass-2026!')
    await expect(viewer.getByRole('link', { name: 'Staff' })).toHaveCount(0)
    const page = await viewer.goto('/admin/staff')
    expect(page?.status()).toBe(403)
    await expect(viewer.getByRole('heading', { name: 'Not allowed' })).toBeVisible()
    expect(await seriousViolations(viewer)).toEqual([])
    // With the viewer's own session and a valid CSRF token, the server still refuses.
    const token = await viewer.evaluate(
      () =>
        (
          JSON.parse(document.querySelector('script[data-page]')?.textContent ?? '{}') as {
            props: { admin: { csrfToken: string } }
          }
        ).props.admin.csrfToken,
    )
    expect(token).not.toBe('')
    const refused = await viewer.request.post('/admin/staff', {
      headers: { 'x-admin-csrf': token },
      form: { intent: 'invite', email: `sneaky.${Date.now()}@staff.example`, name: 'Sneaky', role: 'owner' },
    })
    expect(refused.status()).toBe(403)

    // The order page shows a viewer no actions, and the server refuses a ship or a refund sent anyway.
    await viewer.goto('/admin/orders')
    const link = viewer
      .getByRole('row')
      .filter({ has: viewer.getByRole('link') })
      .first()
      .getByRole('link')
      .first()
    const number = (await link.textContent())!.trim()
    await link.click()
    await expect(viewer.getByRole('heading', { name: `Order ${number}` })).toBeVisible()
    await expect(viewer.getByRole('region', { name: 'Actions' })).toHaveCount(0)
    const forms: Record<string, string>[] = [
      { intent: 'ship', carrier: 'DPD', trackingNumber: 'X1', scope: 'all' },
      { intent: 'refund', reason: 'sneaky', scope: 'all' },
    ]
    for (const form of forms) {
      const sent = await viewer.request.post(`/admin/orders/${number}`, {
        headers: { 'x-admin-csrf': token },
        form: { ...form, version: '1', submission: `viewer-${Date.now()}` },
      })
      expect(sent.status(), form.intent).toBe(403)
    }
  })

  test('the keyboard reaches every section at 390 and 1366 px, the focus visible on each link and each page starting from its heading', async ({
    browser,
  }) => {
    for (const width of [390, 1366]) {
      const page = await ownerPage(browser, { viewport: { width, height: 900 } })
      const nav = page.getByRole('navigation', { name: 'Back office' })
      const names = (await nav.getByRole('link').allTextContents()).map((n) => n.trim())
      expect(names).toHaveLength(12)
      // From Orders (the first page) through every other section and back to Orders.
      for (const name of [...names.slice(1), names[0]!]) {
        const link = nav.getByRole('link', { name, exact: true })
        // The header comes before the page: back from the page's heading to the section's link.
        for (let i = 0; i < 40 && !(await link.evaluate((el) => el === document.activeElement)); i++)
          await page.keyboard.press('Shift+Tab')
        await expect(link, `${name} at ${width} px`).toBeFocused()
        const ring = await link.evaluate((el) => {
          const style = getComputedStyle(el)
          return { outline: style.outlineStyle, width: parseFloat(style.outlineWidth) }
        })
        expect(ring.outline, `${name}'s focus ring at ${width} px`).not.toBe('none')
        expect(ring.width).toBeGreaterThan(0)
        await page.keyboard.press('Enter')
        const heading = page.locator('#main h1')
        await expect(heading, `${name}'s heading at ${width} px`).toBeFocused()
        await expect(link).toHaveAttribute('aria-current', 'page')
        if (width === 390)
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
            `${name} scrolls sideways at 390 px`,
          ).toBeLessThanOrEqual(0)
      }
      await page.context().close()
    }
  })

  test('the order list and the order page work at 390 px', async ({ browser }) => {
    const page = await ownerPage(browser, { viewport: { width: 390, height: 844 } })
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(await overflow()).toBeLessThanOrEqual(0)
    expect(await seriousViolations(page)).toEqual([])
    await page
      .getByRole('row')
      .filter({ has: page.getByRole('link') })
      .first()
      .getByRole('link')
      .first()
      .click()
    await expect(page.getByRole('heading', { name: /^Order \d+$/ })).toBeVisible()
    expect(await overflow()).toBeLessThanOrEqual(0)
    expect(await seriousViolations(page)).toEqual([])
  })
})
