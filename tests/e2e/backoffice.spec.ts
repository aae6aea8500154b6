/**
 * The back office in a browser (issue 34, first part): the demo owner invites a staff member by
 * e-mail, who sets a password and two-factor, finds an order by the customer's postcode and opens
 * it; a viewer cannot reach the invite action (the server refuses, not only the page); every page
 * is axe clean; the order list and order page work at 390 px.
 */
import { expect, test } from '@playwright/test'
import { accept, DEMO_POSTCODE, invite, OWNER, seriousViolations, signIn } from './helpers/backoffice.ts'

test.describe('the back office', () => {
  // Each sign-in needs a TOTP time step of its own (a code works once): up to 30 s of waiting.
  test.describe.configure({ timeout: 120_000 })

  test('the owner invites a staff member, who sets a password and two-factor, finds an order by postcode and opens it', async ({
    browser,
  }) => {
    const stamp = Date.now()
    const staffEmail = `packer.${stamp}@staff.example`
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
    const nav = staff.getByRole('navigation', { name: 'Back office' })
    await expect(nav.getByRole('link', { name: 'Orders' })).toBeVisible()
    await expect(nav.getByRole('link', { name: 'Staff' })).toHaveCount(0)
    await expect(nav.getByRole('link', { name: 'Audit log' })).toHaveCount(0)
    await staff.getByLabel('Search', { exact: true }).fill(DEMO_POSTCODE)
    await staff.getByRole('button', { name: 'Find orders' }).click()
    await expect(staff).toHaveURL(/q=BS1/)
    const rows = staff.getByRole('row').filter({ hasText: DEMO_POSTCODE })
    await expect(rows.first()).toBeVisible()
    expect(await seriousViolations(staff)).toEqual([])
    const number = (await rows.first().getByRole('link').textContent())!.trim()
    await rows.first().getByRole('link').click()
    await expect(staff.getByRole('heading', { name: `Order ${number}` })).toBeVisible()
    await expect(staff.getByRole('heading', { name: 'Delivery address' })).toBeVisible()
    await expect(staff.getByText(DEMO_POSTCODE).first()).toBeVisible()
    expect(await seriousViolations(staff)).toEqual([])

    // The owner's audit log shows the invitation and its acceptance.
    await owner.getByRole('link', { name: 'Audit log' }).click()
    await expect(owner.getByText(`staff.invite`).first()).toBeVisible()
    await expect(owner.getByText('staff.invitation.accept').first()).toBeVisible()
    expect(await seriousViolations(owner)).toEqual([])
  })

  test('a viewer cannot reach the invite action: the page is refused and so is the request itself', async ({
    browser,
  }) => {
    const email = `viewer.${Date.now()}@staff.example`
    const owner = await (await browser.newContext()).newPage()
    await signIn(owner, OWNER.email, OWNER.password, OWNER.secret)
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
  })

  test('the order list and the order page work at 390 px', async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const page = await context.newPage()
    await signIn(page, OWNER.email, OWNER.password, OWNER.secret)
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
