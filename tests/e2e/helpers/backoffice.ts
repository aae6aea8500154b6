/**
 * The back office's browser helpers, shared by the back-office specs: the demo owner, signing in
 * with a fresh TOTP code (each 30-second step works once per secret), inviting and accepting.
 */
import AxeBuilder from '@axe-core/playwright'
import {
  expect,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from '@playwright/test'
import { readFile } from 'node:fs/promises'
import { generateSync } from 'otplib'
import { MAIL_FILE } from './paths.ts'

export const OWNER = {
  email: 'owner@shop.example',
  password: 'Owner-demo-2026!',
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
}
/** The demo customer's seeded orders are delivered here (src/server/db/seed/account.ts). */
export const DEMO_POSTCODE = 'BS1 4DJ'

export async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)
}

export async function invitationLink(to: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const text = await readFile(MAIL_FILE, 'utf8').catch(() => '')
    const mail = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { to: string; text: string })
      .filter((m) => m.to === to)
      .at(-1)
    const match = mail ? /https?:\/\/\S+\/admin\/invitations\/[A-Za-z0-9_-]+/.exec(mail.text) : null
    if (match) return new URL(match[0]).pathname
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`no invitation mail to ${to}`)
}

/** A code for the next time step not used yet by this secret (each step works once). */
const usedSteps = new Map<string, number>()
export async function freshCode(secret: string): Promise<string> {
  for (;;) {
    const step = Math.floor(Date.now() / 30_000)
    if ((usedSteps.get(secret) ?? -1) < step) {
      usedSteps.set(secret, step)
      return generateSync({ secret, epoch: Math.floor(Date.now() / 1000) })
    }
    await new Promise((r) => setTimeout(r, 1000))
  }
}

/** The demo owner's signed-in session, kept by `signIn` for `ownerPage`. */
let ownerState: Awaited<ReturnType<BrowserContext['storageState']>> | null = null

export async function signIn(page: Page, email: string, password: string, secret: string) {
  await page.goto('/admin/login')
  await expect(page.getByRole('heading', { name: 'Sign in to the back office' })).toBeVisible()
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible()
  await page.getByLabel('Code').fill(await freshCode(secret))
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByRole('heading', { name: 'Orders', level: 1 })).toBeVisible()
  if (email === OWNER.email) ownerState = await page.context().storageState()
}

/**
 * A new page signed in as the demo owner. The first call signs in (one TOTP step); later calls
 * in the same test worker open a new context on that session, so a spec does not wait up to 30 s
 * for a fresh step each time. A session that has ended (signed out, expired) is signed in again.
 */
export async function ownerPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  if (ownerState) {
    const context = await browser.newContext({ ...options, storageState: ownerState })
    const page = await context.newPage()
    await page.goto('/admin/orders')
    if (await page.getByRole('heading', { name: 'Orders', level: 1 }).isVisible()) return page
    await context.close()
  }
  const page = await (await browser.newContext(options)).newPage()
  await signIn(page, OWNER.email, OWNER.password, OWNER.secret)
  return page
}

export async function invite(page: Page, name: string, email: string, role: string) {
  await page.getByRole('link', { name: 'Staff' }).click()
  await expect(page.getByRole('heading', { name: 'Staff', level: 1 })).toBeVisible()
  await page.getByLabel('Name').fill(name)
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Role', { exact: true }).selectOption(role)
  await page.getByRole('button', { name: 'Send invitation' }).click()
  await expect(
    page.getByRole('status').filter({ hasText: `An invitation was sent to ${email}.` }),
  ).toBeVisible()
}

/** Follows the e-mailed link, sets a password and two-factor; returns the TOTP secret. */
export async function accept(page: Page, email: string, password: string): Promise<string> {
  await page.goto(await invitationLink(email))
  await expect(page.getByRole('heading', { name: 'Join the back office' })).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
  await page.locator('input[name="password"]').fill(password)
  await page.locator('input[name="password_confirmation"]').fill(password)
  await page.getByRole('button', { name: 'Set password' }).click()
  await expect(page.getByRole('heading', { name: 'Set up two-factor authentication' })).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim()
  await page.getByRole('textbox', { name: 'Code' }).fill(await freshCode(secret))
  await page.getByRole('button', { name: 'Turn on two-factor' }).click()
  await expect(page.getByRole('heading', { name: 'Orders', level: 1 })).toBeVisible()
  return secret
}
