/**
 * The back office's integration settings in a browser (issue 34): the owner makes an API token
 * (its secret shown once, with the focus on it, gone after a reload), adds a search redirect rule
 * and a webhook endpoint (its signing secret shown once), and the content, search, token and
 * webhook pages are axe clean. State is the test's own: a stamped token name, query and URL.
 */
import { expect, test } from '@playwright/test'
import { OWNER, seriousViolations, signIn } from './helpers/backoffice.ts'

test.describe('the back office settings', () => {
  // A sign-in may wait for a TOTP time step of its own (a code works once).
  test.describe.configure({ timeout: 90_000 })

  test('the owner makes an API token, adds a redirect rule and a webhook endpoint', async ({ page }) => {
    const stamp = Date.now()
    await signIn(page, OWNER.email, OWNER.password, OWNER.secret)
    const nav = page.getByRole('navigation', { name: 'Back office' })

    // API token: the secret is shown once, focused, and not after a reload.
    await nav.getByRole('link', { name: 'API tokens' }).click()
    await expect(page.getByRole('heading', { name: 'API tokens', level: 1 })).toBeVisible()
    await page.getByRole('button', { name: 'Make token' }).click()
    await expect(page.getByRole('textbox', { name: /Who or what holds it/ })).toBeFocused()
    await page.getByRole('textbox', { name: /Who or what holds it/ }).fill(`ERP ${stamp}`)
    await page.keyboard.press('Enter')
    const secretHeading = page.getByRole('heading', { name: /^Token \d+ made: copy it now$/ })
    await expect(secretHeading).toBeFocused()
    await expect(page.getByText('it is shown only this once')).toBeVisible()
    const token = await page.getByLabel('The new token').inputValue()
    expect(token).toMatch(/^shop_adm_/)
    expect(await seriousViolations(page)).toEqual([])
    await page.reload()
    await expect(page.getByRole('button', { name: `Revoke ERP ${stamp}` })).toBeVisible()
    await expect(page.getByLabel('The new token')).toHaveCount(0)
    expect(await page.content()).not.toContain(token)

    // Search: a redirect rule for the test's own words.
    await nav.getByRole('link', { name: 'Search' }).click()
    await expect(page.getByRole('heading', { name: /^Search of / })).toBeVisible()
    // A bad address is named, and the focus goes to it when the form is sent from the keyboard.
    await page.getByLabel(/^Go to/).fill('not a url')
    await page.getByLabel('Search words').fill(`e2e rule ${stamp}`)
    await page.getByLabel('Search words').press('Enter')
    await expect(page.getByLabel(/^Go to/)).toBeFocused()
    await expect(page.getByText('Please enter a path (/fire-signs) or an http(s) address.')).toBeVisible()
    await page.getByLabel(/^Go to/).fill('/contact')
    await page.getByRole('button', { name: 'Add rule' }).click()
    await expect(page.locator(':focus')).toContainText(`Searches for “e2e rule ${stamp}” now go to /contact.`)
    await expect(page.getByRole('cell', { name: `e2e rule ${stamp}`, exact: true })).toBeVisible()
    expect(await seriousViolations(page)).toEqual([])

    // Webhook endpoint: the signing secret is shown once; disabled again so nothing is sent to it.
    await nav.getByRole('link', { name: 'Webhooks' }).click()
    await expect(page.getByRole('heading', { name: /^Webhook endpoints of / })).toBeVisible()
    const url = `https://erp.example/hooks/${stamp}`
    await page.getByLabel('Address (https://…)').fill(url)
    await page.getByLabel('Description (optional)').fill('E2E warehouse')
    await page.getByRole('group', { name: 'Events it receives' }).getByLabel('order.updated').uncheck()
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    await expect(page.getByRole('heading', { name: `Signing secret of ${url}` })).toBeFocused()
    expect(await page.getByRole('textbox', { name: 'Signing secret', exact: true }).inputValue()).toMatch(
      /^whsec_/,
    )
    const endpoint = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: url }) })
    await expect(endpoint.getByText('Enabled', { exact: true })).toBeVisible()
    await expect(endpoint.getByLabel('order.updated')).not.toBeChecked()
    expect(await seriousViolations(page)).toEqual([])
    // Saving no events is refused: the focus goes to the first checkbox, with the message by it.
    const boxes = endpoint.getByRole('checkbox')
    for (const box of await boxes.all()) await box.uncheck()
    await endpoint.getByRole('button', { name: `Save events of ${url}` }).click()
    await expect(boxes.first()).toBeFocused()
    await expect(boxes.first()).toHaveAttribute('aria-invalid', 'true')
    page.once('dialog', (d) => void d.accept())
    await endpoint.getByRole('button', { name: `Disable ${url}` }).click()
    await expect(page.locator(':focus')).toContainText(`${url} is disabled`)
    await expect(endpoint.getByText(/Disabled .*through the back office/)).toBeVisible()

    // Content: the site's pages with their state; axe clean.
    await nav.getByRole('link', { name: 'Content' }).click()
    await expect(page.getByRole('heading', { name: /^Content of / })).toBeVisible()
    expect(await seriousViolations(page)).toEqual([])
  })
})
