import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { readFile } from 'node:fs/promises'
import { generateSync } from 'otplib'
import { MAIL_FILE } from './helpers/paths.ts'

const TWO_FA = { email: 'twofactor@harbour-safety.example', password: 'Harbour-2fa-2026!' }
const TWO_FA_SECRET = 'KVKFKRCPNZQUYMLXOVYDSQKJKZDTSRLD'

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)
}

/**
 * The newest link to `path` in a mail to `to`, waiting for the mail to arrive. Account mails are
 * sent after the answer (a deferred task 150–650 ms later, ADR 0012), so allow a busy machine 20 s.
 */
async function linkFromMail(to: string, path: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const text = await readFile(MAIL_FILE, 'utf8').catch(() => '')
    const mails = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { to: string; text: string })
      .filter((m) => m.to === to)
    const match = mails.length
      ? new RegExp(`https?://[^\\s]+${path.replace(/[/?]/g, '\\$&')}[^\\s]*`).exec(mails.at(-1)!.text)
      : null
    if (match) return new URL(match[0]).pathname + new URL(match[0]).search
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`no mail to ${to} with ${path}`)
}

/** A fresh TOTP code, waiting for the next time step when the current one was used already. */
function totp(secret: string, offset = 0) {
  return generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 })
}

async function logOutFromHeader(page: Page) {
  // A click before hydration does nothing: retry until the menu opens.
  const menu = page.getByRole('button', { name: 'My Account' })
  // The header's own Log Out (account pages have one more beside the greeting).
  const logOut = page.getByRole('banner').getByRole('button', { name: 'Log Out' })
  await expect(async () => {
    if (!(await logOut.isVisible())) await menu.click()
    await expect(logOut).toBeVisible({ timeout: 1000 })
  }).toPass()
  await logOut.click()
  await expect(page.getByRole('link', { name: 'Login', exact: true }).first()).toBeVisible()
}

async function logIn(page: Page, email: string, password: string, remember = false) {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  if (remember) await page.getByLabel('Remember me').check()
  await page.getByRole('button', { name: 'Log In' }).click()
}

test.describe('authentication pages', () => {
  test('have the spec titles, the logo link home and no serious accessibility violations', async ({
    page,
  }) => {
    const pages: [string, string][] = [
      ['/login', 'Log In | Harbour Safety Supplies'],
      ['/register', 'Register | Harbour Safety Supplies'],
      ['/register/club', 'Club Registration | Harbour Safety Supplies'],
      ['/forgot-password', 'Reset Password | Harbour Safety Supplies'],
      ['/reset-password?token=abc&email=a%40example.com', 'Change Password | Harbour Safety Supplies'],
    ]
    for (const [path, title] of pages) {
      await page.goto(path)
      await expect(page).toHaveTitle(title)
      await expect(page.getByRole('banner').getByTestId('site-logo')).toHaveAttribute('href', '/')
      // Before hydration a submit must never put a password in the address bar.
      await expect(page.locator('main form').first()).toHaveAttribute('method', 'post')
      expect(await seriousViolations(page), path).toEqual([])
    }
  })

  test('checks the password rules on blur and on submit, and blocks the submit', async ({ page }) => {
    await page.goto('/register')
    await page.locator('input[name=password]').fill('short')
    await page.locator('input[name=password]').blur()
    await expect(
      page.getByText('Password must be at least 10 characters and include a number, letter, and symbol.'),
    ).toBeVisible()
    await page.locator('input[name=password]').fill('Sturdy-pass-42')
    await page.getByLabel('Confirm Password').fill('Sturdy-pass-43')
    await page.getByLabel('Confirm Password').blur()
    await expect(page.getByText('Passwords do not match.')).toBeVisible()
    await expect(page.getByText('Password must be at least 10 characters')).toHaveCount(0)
    await page.getByRole('button', { name: 'Register' }).click()
    await expect(page.getByTestId('error-first_name')).toHaveText('This field is required.')
    await expect(page.getByTestId('error-email')).toHaveText('This field is required.')
    await expect(page).toHaveURL(/\/register$/)
  })

  test('shows password_raw as the password error and removes it from the address', async ({ page }) => {
    await page.goto('/register?password_raw=That%20password%20has%20appeared%20in%20a%20data%20breach.')
    await expect(page.getByTestId('error-password')).toHaveText(
      'That password has appeared in a data breach.',
    )
    await expect(page).toHaveURL(/\/register$/)
  })

  test('lists login errors in red and clears the password', async ({ page }) => {
    await logIn(page, 'nobody@example.com', 'Wrong-password-1')
    const list = page.getByTestId('error-list')
    await expect(list).toContainText('These credentials do not match our records.')
    await expect(list).toHaveClass(/text-red-800/)
    await expect(page.getByLabel('Password')).toHaveValue('')
  })
})

test('register, verify from the mail, log out, log in with remember, set up two-factor, and log in with a code and a recovery code', async ({
  page,
}) => {
  const email = `e2e.${Date.now()}@example.com`
  const password = 'Sturdy-pass-42'
  await page.goto('/register')
  await page.getByLabel('First Name').fill('Eve')
  await page.getByLabel('Last Name').fill('Twoe')
  await page.getByLabel('Email').fill(email)
  await page.locator('input[name=password]').fill(password)
  await page.getByLabel('Confirm Password').fill(password)
  await page.getByLabel('I agree to the terms and conditions').check()
  await page.getByRole('button', { name: 'Register' }).click()

  await expect(page).toHaveURL(/\/email\/verify$/)
  await expect(page).toHaveTitle('Verify Your Email Address | Harbour Safety Supplies')
  expect(await seriousViolations(page)).toEqual([])
  await page.getByRole('button', { name: 'Resend Verification Email' }).click()
  await expect(page.getByTestId('status')).toHaveText(
    'A new verification link has been sent to the email address you provided during registration.',
  )

  // The link asks for a click and logs nobody in; the customer then logs in as usual.
  await page.goto(await linkFromMail(email, '/email/verify/'))
  await page.getByRole('button', { name: 'Verify Email Address' }).click()
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByText('Thank you, your email address has been verified.')).toBeVisible()

  await logIn(page, email, password, true)
  await expect(page.getByRole('button', { name: 'My Account' })).toBeVisible()
  const remember = (await page.context().cookies()).find((c) => c.name === 'shop_remember')
  expect(remember?.httpOnly).toBe(true)

  // Two-factor set-up sits behind the confirm-password gate.
  await page.goto('/customer/two-factor')
  await expect(page).toHaveURL(/\/user\/confirm-password$/)
  await expect(
    page.getByText(
      'This is a secure area of the application. Please confirm your password before continuing.',
    ),
  ).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Confirm' }).click()
  await expect(page).toHaveURL(/\/customer\/two-factor$/)
  await page.getByRole('button', { name: 'Turn On Two-Factor Authentication' }).click()
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim()
  await page.locator('input[name=code]').fill(totp(secret))
  await page.getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByTestId('recovery-codes').locator('li')).toHaveCount(8)
  await expect(page.getByRole('heading', { name: 'Two-factor authentication is on' })).toBeVisible()
  const codes = await page.getByTestId('recovery-codes').locator('li').allTextContents()
  await logOutFromHeader(page)
  await page.context().clearCookies({ name: 'shop_remember' })

  await logIn(page, email, password)
  await expect(page).toHaveURL(/\/two-factor-challenge$/)
  expect(await seriousViolations(page)).toEqual([])
  // The code used at set-up is spent; the next time step's code is accepted (±1 step of drift).
  await page.locator('input[name=code]').fill(totp(secret, 1))
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page.getByRole('button', { name: 'My Account' })).toBeVisible()
  await logOutFromHeader(page)

  await logIn(page, email, password)
  await page.getByRole('button', { name: 'Use a recovery code' }).click()
  await page.getByLabel('Recovery Code').fill(codes[0]!)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page.getByRole('button', { name: 'My Account' })).toBeVisible()
})

test('the seeded two-factor customer logs in with a code from the documented secret', async ({ page }) => {
  await logIn(page, TWO_FA.email, TWO_FA.password)
  await expect(page).toHaveTitle('Two-Factor Authentication | Harbour Safety Supplies')
  await page.locator('input[name=code]').fill('000000')
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page.getByTestId('error-list')).toContainText(
    'The provided two factor authentication code was invalid.',
  )
  await page.locator('input[name=code]').fill(totp(TWO_FA_SECRET))
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page.getByRole('button', { name: 'My Account' })).toBeVisible()
})

test('forgot password, reset from the mailed link, and log in with the new password', async ({ page }) => {
  const email = `reset.${Date.now()}@example.com`
  await page.goto('/register')
  await page.getByLabel('First Name').fill('Rita')
  await page.getByLabel('Last Name').fill('Reset')
  await page.getByLabel('Email').fill(email)
  await page.locator('input[name=password]').fill('Original-pass-1')
  await page.getByLabel('Confirm Password').fill('Original-pass-1')
  await page.getByLabel('I agree to the terms and conditions').check()
  await page.getByRole('button', { name: 'Register' }).click()
  await expect(page).toHaveURL(/\/email\/verify$/)
  await page.getByRole('button', { name: 'Log Out' }).click()

  await page.goto('/forgot-password')
  await page.getByLabel('Email').fill(email)
  await page.getByRole('button', { name: 'Email Password Reset Link' }).click()
  await expect(page.getByTestId('status')).toHaveText(
    'If an account exists for that email address, we have emailed a password reset link.',
  )

  await page.goto(await linkFromMail(email, '/reset-password?'))
  await expect(page).toHaveTitle('Change Password | Harbour Safety Supplies')
  await expect(page.getByLabel('Email')).toHaveValue(email)
  await page.getByLabel('New Password').fill('Replaced-pass-2')
  await page.getByLabel('Confirm Password').fill('Replaced-pass-2')
  await page.getByRole('button', { name: 'Reset Password' }).click()
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByTestId('status')).toHaveText(
    'Your password has been reset. Please log in with your new password.',
  )
  await expect(page.getByTestId('status')).toHaveClass(/text-green-800/)

  await logIn(page, email, 'Replaced-pass-2')
  await expect(page).toHaveURL(/\/email\/verify$/)
})

test('club registration asks for the club details', async ({ page }) => {
  await page.goto('/register/club')
  for (const label of ['Club Name', 'Address', 'Town', 'Postcode', 'Contact Number']) {
    await expect(page.getByLabel(label)).toBeVisible()
  }
  await page.getByLabel('First Name').fill('Cole')
  await page.getByLabel('Last Name').fill('Club')
  await page.getByLabel('Email').fill(`club.${Date.now()}@example.com`)
  await page.getByLabel('Club Name').fill('Riverside Rowing Club')
  await page.getByLabel('Address').fill('1 Towpath')
  await page.getByLabel('Town').fill('Henley')
  await page.getByLabel('Postcode').fill('RG9 1AA')
  await page.getByLabel('Contact Number').fill('01491 000 000')
  await page.locator('input[name=password]').fill('Sturdy-pass-42')
  await page.getByLabel('Confirm Password').fill('Sturdy-pass-42')
  await page.getByLabel('I agree to the terms and conditions').check()
  await page.getByRole('button', { name: 'Register' }).click()
  await expect(page).toHaveURL(/\/email\/verify$/)
})
