/**
 * The checkout guides the buyer (issue 31): messages where the buyer is, the keyboard focus on
 * each new step's heading and never under the sticky header, a processing dialog that Escape
 * cannot close, and axe-core (WCAG 2.2 AA) clean on every step and dialog. Keyboard-only
 * purchases by purchase order and by card on both sites (localhost: GBP, 127.0.0.1: USD), by
 * PayPal and by Amazon Pay on the GBP site; a customer who logs out at checkout buys as a guest.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { addThirtyAndCheckout, plainProduct } from '../support/demo-catalog.ts'
import type { SeedSku } from '../../src/server/db/seed/catalog/generate.ts'

const harbour = plainProduct('harbour')
const northgate = plainProduct('northgate')

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

/** axe-core with the WCAG 2.2 AA rules: nothing reported (the providers' frames are theirs). */
async function expectAccessible(page: Page, label: string) {
  const result = await new AxeBuilder({ page })
    .withTags(WCAG_22_AA)
    .exclude('#sp-container')
    .exclude('[data-testid="paya-frame"]')
    .analyze()
  const found = result.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  )
  expect(found, label).toEqual([])
}

async function fillBasket(page: Page, base: string, item: { sku: SeedSku; url: string }) {
  await addThirtyAndCheckout(page, base, item)
  await page.waitForTimeout(300)
}

/** The focused element is fully on screen and not under the sticky header (WCAG 2.2 SC 2.4.11). */
async function expectFocusNotHidden(page: Page) {
  const where = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    if (!el || el === document.body) return { ok: false, why: 'nothing focused' }
    const r = el.getBoundingClientRect()
    const header = document.querySelector<HTMLElement>('header.hdr')
    const pos = header ? getComputedStyle(header).position : 'static'
    const covered =
      header && (pos === 'sticky' || pos === 'fixed') ? header.getBoundingClientRect().bottom : 0
    return {
      ok: r.top >= covered - 1 && r.bottom <= window.innerHeight + 1,
      why: `${el.tagName}#${el.id} top ${r.top} bottom ${r.bottom}, header covers to ${covered}, viewport ${window.innerHeight}`,
    }
  })
  expect(where.ok, where.why).toBe(true)
}

/** Continue by keyboard; the focus lands on the new step's heading, in view. */
async function continueTo(page: Page, step: number) {
  await tabTo(page, page.getByTestId('continue'))
  await page.keyboard.press('Enter')
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(`step-${step}-heading`)
  await expectFocusNotHidden(page)
}

/** Presses Tab until the focus is on `target`, checking that each stop is in view. */
async function tabTo(page: Page, target: Locator, limit = 60) {
  await expect(target).toBeVisible()
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return
    await page.keyboard.press('Tab')
    await expectFocusNotHidden(page)
  }
  throw new Error('the focus never reached the element by Tab')
}

/** Types into a step-2 field reached by Tab (its id: `${scope}-${name}`). */
async function typeInto(page: Page, id: string, value: string) {
  await tabTo(page, page.locator(`#${id}`))
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.type(value)
}

async function fillGuest(page: Page, site: 'GB' | 'US', email: string, phone: string) {
  await tabTo(page, page.getByRole('button', { name: 'Checkout as New Customer' }))
  await page.keyboard.press('Enter')
  await typeInto(page, 'contact-firstName', 'Kay')
  await typeInto(page, 'contact-lastName', 'Board')
  await typeInto(page, 'contact-email', email)
  await typeInto(page, 'contact-phone', phone)
  await typeInto(page, 'shipping-address1', site === 'GB' ? '7 Mill Lane' : '12 Lake Street')
  await typeInto(page, 'shipping-town', site === 'GB' ? 'Leeds' : 'Chicago')
  await typeInto(page, 'shipping-postcode', site === 'GB' ? 'LS1 4AP' : '60601')
  // The country select by keyboard: focus it, then choose by typing its name.
  await tabTo(page, page.locator('#shipping-country'))
  await page.keyboard.type(site === 'GB' ? 'United Kingdom' : 'United States')
  await expect(page.locator('#shipping-country')).toHaveValue(site)
}

/** Presses Tab on a provider's own page (another origin) until `target` has the focus. */
async function tabOnProviderPage(page: Page, target: Locator, limit = 30) {
  await expect(target).toBeVisible()
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return
    await page.keyboard.press('Tab')
  }
  throw new Error('the focus never reached the element by Tab on the provider’s page')
}

async function chooseMethod(page: Page, name: RegExp) {
  await tabTo(page, page.getByRole('radio', { checked: true }))
  // Arrow keys move through the radio group until the wanted method is checked.
  for (let i = 0; i < 6 && !(await page.getByRole('radio', { name }).isChecked()); i++)
    await page.keyboard.press('ArrowDown')
  await expect(page.getByRole('radio', { name })).toBeChecked()
}

async function expectPlaced(page: Page, base = '') {
  await expect(page.getByRole('heading', { level: 1, name: 'Order Complete' })).toBeVisible({
    timeout: 20_000,
  })
  const number = (await page.getByTestId('order-number').textContent())!.trim()
  await expect
    .poll(async () => (await page.request.get(`${base}/dev/mail`)).text(), { timeout: 15_000 })
    .toContain(`order acknowledgement ${number}`)
  return number
}

test('a guest who mistypes e-mail and phone on step 2 sees both messages there, corrects them and buys', async ({
  page,
}) => {
  test.setTimeout(150_000)
  await fillBasket(page, '', harbour)
  await expectAccessible(page, 'step 1')
  await chooseMethod(page, /Purchase Order/)
  await continueTo(page, 2)
  await fillGuest(page, 'GB', 'kay.example.com', '01632')
  // Both messages, on step 2, without Continue.
  await expect(page.getByTestId('error-contact-email')).toHaveText('This email provided is invalid.')
  await expect(page.getByTestId('error-contact-phone')).toHaveText('Please enter at least 10 characters.')
  await expect(page.getByTestId('step-2')).toHaveAttribute('data-open', 'true')
  await expect(page.getByTestId('continue')).toHaveAttribute('aria-disabled', 'true')
  await expectAccessible(page, 'step 2 with messages')
  // Continue stays focusable: it shows every message and takes the buyer to the first wrong field.
  await tabTo(page, page.getByTestId('continue'))
  await page.keyboard.press('Enter')
  await expect(page.locator('#contact-email')).toBeFocused()
  await expectFocusNotHidden(page)
  // Corrected: the messages go as the values become valid.
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.type('kay.board@example.com')
  await expect(page.getByTestId('error-contact-email')).toHaveCount(0)
  await typeInto(page, 'contact-phone', '01632 960 444')
  await expect(page.getByTestId('error-contact-phone')).toHaveCount(0)
  await continueTo(page, 3)
  await expect(page.getByTestId('payment-box')).toContainText('Buying from Harbour Safety Supplies is safe')
  await expect(page.getByTestId('order-summary')).toContainText(
    'Kay Board, kay.board@example.com, 01632 960 444',
  )
  await expect(page.getByTestId('order-summary')).toContainText('LS1 4AP, United Kingdom')
  await expectAccessible(page, 'step 3')
  await tabTo(page, page.getByTestId('complete-order'))
  await page.keyboard.press('Enter')
  await expectPlaced(page)

  // Back from Order Complete: the checkout says the order was placed and links to it.
  await page.goBack()
  await expect(page.getByTestId('order-placed')).toContainText('Your order has been placed')
  await expect(page.getByTestId('payment-box')).toHaveCount(0)
  await page.getByRole('link', { name: 'View your order' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Order Complete' })).toBeVisible()
})

test('the processing dialog ignores Escape while the order is placed, and is accessible', async ({
  page,
}) => {
  test.setTimeout(150_000)
  await fillBasket(page, '', harbour)
  await chooseMethod(page, /Purchase Order/)
  await continueTo(page, 2)
  await fillGuest(page, 'GB', 'esc.ape@example.com', '01632 960 555')
  await continueTo(page, 3)
  // The order takes a while to place: hold the request.
  let release: () => void = () => {}
  const held = new Promise<void>((r) => (release = r))
  await page.route('**/checkout/complete', async (route) => {
    await held
    await route.continue()
  })
  await tabTo(page, page.getByTestId('complete-order'))
  await page.keyboard.press('Enter')
  const dialog = page.getByTestId('processing-modal')
  await expect(dialog).toBeVisible()
  await expect(dialog).toHaveAccessibleDescription('Please wait, we are currently processing your order.')
  await expect(dialog.getByRole('button')).toHaveCount(0)
  await page.keyboard.press('Escape')
  await page.keyboard.press('Escape')
  await page.waitForTimeout(300)
  await expect(dialog).toBeVisible()
  await expectAccessible(page, 'processing dialog')
  release()
  await expectPlaced(page)
})

test('the login dialog lists its errors inside an alert and is accessible', async ({ page }) => {
  test.setTimeout(120_000)
  await fillBasket(page, '', harbour)
  await continueTo(page, 2)
  await tabTo(page, page.getByRole('button', { name: 'Login to Your Account' }))
  await page.keyboard.press('Enter')
  const dialog = page.getByTestId('login-modal')
  await expect(dialog).toBeVisible()
  await expectAccessible(page, 'login dialog')
  await dialog.getByRole('button', { name: 'Log In', exact: true }).click()
  const alert = dialog.getByRole('alert')
  await expect(alert).toBeVisible()
  await expect(alert.locator('ul > li').first()).toBeVisible()
  await expect(alert).toBeFocused()
  await expectAccessible(page, 'login dialog with errors')
})

test('a logged-in customer adds a contact in its dialog; the focus comes back to the section', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await page.goto('/login')
  await page.getByRole('textbox', { name: 'Email' }).fill('demo@harbour-safety.example')
  await page.getByLabel('Password').fill('Harbour-demo-2026')
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).not.toHaveURL(/\/login/)
  await fillBasket(page, '', harbour)
  // Logged in: the page moves to step 2 by itself.
  await expect(page.getByTestId('step-2')).toHaveAttribute('data-open', 'true')
  await page.getByRole('button', { name: 'Add New Contact' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add New Contact' })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByText('This field is required.')).toHaveCount(0)
  await expectAccessible(page, 'Add New Contact')
  // Add is aria-disabled while the form is invalid, yet focusable: pressing it shows every message.
  const add = dialog.getByRole('button', { name: 'Add', exact: true })
  await expect(add).toHaveAttribute('aria-disabled', 'true')
  await add.focus()
  await page.keyboard.press('Enter')
  await expect(dialog.getByText('This field is required.').first()).toBeVisible()
  await expect(dialog.getByRole('textbox', { name: 'First Name' })).toBeFocused()
  await expectAccessible(page, 'Add New Contact with messages')
  const stamp = Date.now().toString().slice(-6)
  await dialog.getByRole('textbox', { name: 'First Name' }).fill('Robin')
  await dialog.getByRole('textbox', { name: 'Last Name' }).fill(`Keys${stamp}`)
  await dialog.getByRole('textbox', { name: 'Email' }).fill(`robin.${stamp}@example.com`)
  await dialog.getByRole('textbox', { name: 'Phone' }).fill('01632 960 321')
  await add.click()
  await expect(dialog).toBeHidden()
  await expect(page.locator('#contact-change')).toBeFocused()
  await expect(page.locator('#contact-lastName')).toHaveValue(`Keys${stamp}`)
  // The demo account is shared with other tests: its own contact is chosen again.
  await page.locator('#contact-change').click()
  const change = page.getByRole('dialog', { name: 'Change Contact' })
  await change.getByRole('button', { name: /demo@harbour-safety\.example/ }).click()
  await expect(change).toBeHidden()
  await expect(page.locator('#contact-change')).toBeFocused()
  await expect(page.locator('#contact-email')).toHaveValue('demo@harbour-safety.example')
  await page.reload()
  await expect(page.locator('#contact-email')).toHaveValue('demo@harbour-safety.example')
})

test('a customer who logs out at checkout goes on as a guest with the same basket and buys it', async ({
  page,
}) => {
  test.setTimeout(150_000)
  await page.goto('/login')
  await page.getByRole('textbox', { name: 'Email' }).fill('demo@harbour-safety.example')
  await page.getByLabel('Password').fill('Harbour-demo-2026')
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).not.toHaveURL(/\/login/)
  await fillBasket(page, '', harbour)
  await expect(page.getByTestId('step-2')).toHaveAttribute('data-open', 'true')
  await tabTo(page, page.getByRole('button', { name: 'Not you? Log Out' }))
  await page.keyboard.press('Enter')
  // Forgotten here, the steps reset, the page stays the checkout with its basket.
  await expect(page.getByRole('button', { name: 'Not you? Log Out' })).toHaveCount(0)
  // The header follows: no account menu, the basket still counted.
  await expect(page.getByRole('banner').getByRole('button', { name: 'My Account' })).toHaveCount(0)
  await expect(
    page
      .getByRole('banner')
      .getByRole('link', { name: /Log ?in/i })
      .first(),
  ).toBeVisible()
  await expect(page.getByTestId('step-1')).toHaveAttribute('data-open', 'true')
  await expect(page).toHaveURL(/\/checkout$/)
  // The server agrees: no customer any more, and the same basket.
  expect((await page.request.get('/customer/data', { headers: { accept: 'application/json' } })).ok()).toBe(
    false,
  )
  await chooseMethod(page, /Purchase Order/)
  await continueTo(page, 2)
  await fillGuest(page, 'GB', 'not.you@example.com', '01632 960 999')
  await continueTo(page, 3)
  await expect(page.getByTestId('order-summary')).toContainText('not.you@example.com')
  await tabTo(page, page.getByTestId('complete-order'))
  await page.keyboard.press('Enter')
  // Placed from the basket the session kept (without it the server would send the guest to /cart).
  await expectPlaced(page)
})

for (const site of ['GB', 'US'] as const)
  test(`a keyboard-only PayPal purchase on the ${site === 'GB' ? 'GBP' : 'USD'} site, the focus on each new step’s heading`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(150_000)
    const base = site === 'US' ? baseURL!.replace('localhost', '127.0.0.1') : ''
    await fillBasket(page, base, site === 'GB' ? harbour : northgate)
    await chooseMethod(page, /PayPal/)
    await continueTo(page, 2)
    const button = page.getByTestId('paypal-button').getByRole('button', { name: 'Pay with PayPal' })
    await tabTo(page, button)
    const popupOpened = page.waitForEvent('popup')
    await page.keyboard.press('Enter')
    // PayPal's window (the simulator, another origin), driven with the keyboard too.
    const popup = await popupOpened
    await tabOnProviderPage(popup, popup.getByRole('button', { name: 'Pay with balance' }))
    // Enter approves on its key-down and the window closes itself, so the key-up may find it gone.
    await popup.keyboard.press('Enter').catch((err: unknown) => {
      if (!popup.isClosed()) throw err
    })
    await expect(page.getByTestId('paypal-approved')).toBeVisible({ timeout: 20_000 })
    await expectAccessible(page, 'step 2 approved by PayPal')
    await continueTo(page, 3)
    await expect(page.getByTestId('wallet-payment')).toHaveText('Paying with PayPal: approved.')
    await expectAccessible(page, 'step 3 with PayPal')
    await tabTo(page, page.getByTestId('complete-order'))
    await page.keyboard.press('Enter')
    await expectPlaced(page, base)
  })

test('a keyboard-only Amazon Pay purchase on the GBP site, the focus on each new step’s heading', async ({
  page,
}) => {
  test.setTimeout(150_000)
  await fillBasket(page, '', harbour)
  await chooseMethod(page, /Amazon Pay/)
  await continueTo(page, 2)
  await tabTo(page, page.getByTestId('amazon-button').getByRole('button', { name: 'Pay with Amazon' }))
  await page.keyboard.press('Enter')
  // Amazon's page (the simulator, another origin), driven with the keyboard.
  await expect(page.getByText('Amazon Pay simulator')).toBeVisible()
  await tabOnProviderPage(page, page.getByRole('button', { name: 'Continue to checkout' }))
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/checkout\?amazonCheckoutSessionId=/)
  await expect(page.getByTestId('amazon-descriptor')).toHaveText('Paying with Amazon Pay: Visa ****1111')
  await expect(page.getByTestId('step-2')).toHaveAttribute('data-open', 'true')
  await expectAccessible(page, 'step 2 back from Amazon')
  await continueTo(page, 3)
  await expect(page.getByTestId('wallet-payment')).toHaveText('Paying with Amazon Pay: Visa ****1111')
  await expectAccessible(page, 'step 3 with Amazon Pay')
  await tabTo(page, page.getByTestId('complete-order'))
  await page.keyboard.press('Enter')
  await expectPlaced(page)
})

for (const site of ['GB', 'US'] as const) {
  const base = (baseURL: string) => (site === 'US' ? baseURL.replace('localhost', '127.0.0.1') : '')

  test(`a keyboard-only purchase order on the ${site === 'GB' ? 'GBP' : 'USD'} site, the focus on each new step's heading`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(150_000)
    await fillBasket(page, base(baseURL!), site === 'GB' ? harbour : northgate)
    await chooseMethod(page, /Purchase Order/)
    await continueTo(page, 2)
    await fillGuest(
      page,
      site,
      `po.${site.toLowerCase()}@example.com`,
      site === 'GB' ? '01632 960 111' : '(555) 010-2222',
    )
    await expectAccessible(page, 'step 2')
    await continueTo(page, 3)
    // Edit goes back to step 2 with the focus on its heading.
    await tabTo(page, page.getByRole('button', { name: 'Edit Delivery Address' }))
    await page.keyboard.press('Enter')
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('step-2-heading')
    await expectFocusNotHidden(page)
    await continueTo(page, 3)
    await expectAccessible(page, 'step 3')
    await tabTo(page, page.getByTestId('complete-order'))
    await page.keyboard.press('Enter')
    await expectPlaced(page, base(baseURL!))
  })

  test(`a keyboard-only card purchase on the ${site === 'GB' ? 'GBP' : 'USD'} site`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(150_000)
    await fillBasket(page, base(baseURL!), site === 'GB' ? harbour : northgate)
    await chooseMethod(page, /Credit \/ Debit Card/)
    await continueTo(page, 2)
    await fillGuest(
      page,
      site,
      `card.${site.toLowerCase()}@example.com`,
      site === 'GB' ? '01632 960 777' : '(555) 010-7777',
    )
    await continueTo(page, 3)
    await expect(page.getByTestId('test-mode')).toContainText('Test mode')
    await expectAccessible(page, 'step 3 with the card form')
    if (site === 'GB') {
      // Opayo's drop-in: its fields are in its frame; typed with the keyboard.
      const frame = page.frameLocator('#sp-container iframe')
      for (const [label, value] of [
        ['Name on card', 'Kay Board'],
        ['Card number', '4929000000006'],
        ['Expiry (MMYY)', '1230'],
        ['Security code', '123'],
      ] as const) {
        await frame.getByLabel(label).focus()
        await page.keyboard.type(value)
      }
      const posted = page.waitForRequest(
        (r) => r.url().endsWith('/checkout/complete') && r.method() === 'POST',
      )
      await tabTo(page, page.getByTestId('complete-order'))
      await page.keyboard.press('Enter')
      // §3: sagepay's paymentDetails carry the card identifier (§7 names no field of its own);
      // §6: a guest's order says force_logout.
      const body = (await posted).postDataJSON() as {
        transactions: { paymentDetails: Record<string, unknown> }[]
        card_identifier?: string
        force_logout?: boolean
      }
      expect(body.transactions[0]!.paymentDetails.card_identifier).toBeTruthy()
      expect(body.card_identifier).toBeUndefined()
      expect(body.force_logout).toBe(true)
    } else {
      // Paya's hosted form: its own Submit payment is the one action that completes the order.
      await expect(page.getByTestId('complete-order')).toHaveCount(0)
      const frame = page.frameLocator('[data-testid="paya-frame"]')
      for (const [label, value] of [
        ['Card number', '4111111111111111'],
        ['Expiry (MMYY)', '1230'],
        ['CVV', '999'],
      ] as const) {
        await frame.getByLabel(label).focus()
        await page.keyboard.type(value)
      }
      await frame.getByRole('button', { name: 'Submit payment' }).focus()
      await page.keyboard.press('Enter')
    }
    await expectPlaced(page, base(baseURL!))
  })
}
