/**
 * Spec §3/§4/§7 in Chromium: pages keep the cart in session storage (POST /cart/init when none is
 * stored) and logging out forgets the local cart and customer.
 */
import { expect, test, type Page } from '@playwright/test'

const DEMO = { email: 'demo@harbour-safety.example', password: 'Harbour-demo-2026' }

const stored = (page: Page, key: string) =>
  page.evaluate((k) => JSON.parse(window.sessionStorage.getItem(k) ?? 'null') as unknown, key)

test('a page stores the cart from /cart/init, and logging out forgets the local cart and customer', async ({
  page,
}) => {
  const init = page.waitForRequest((r) => r.url().endsWith('/cart/init') && r.method() === 'POST')
  await page.goto('/')
  await init
  await expect.poll(() => stored(page, 'cart')).toMatchObject({ count: 0, total: 0 })

  // A second page finds the cart stored and asks the server for nothing.
  const calls: string[] = []
  page.on('request', (r) => {
    if (r.url().endsWith('/cart/init')) calls.push(r.url())
  })
  await page.goto('/sitemap')
  expect(calls).toEqual([])

  await page.goto('/login')
  // Typing before hydration is lost when React takes the fields over: wait for the page's scripts.
  await page.waitForLoadState('networkidle')
  await page.getByLabel('Email').fill(DEMO.email)
  await page.getByLabel('Password').fill(DEMO.password)
  await expect(page.getByLabel('Email')).toHaveValue(DEMO.email)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page.getByRole('button', { name: /My Account/ })).toBeVisible()
  await expect.poll(() => stored(page, 'customer')).toMatchObject({ email: DEMO.email })

  await page.getByRole('button', { name: /My Account/ }).click()
  await page.getByRole('banner').getByRole('button', { name: 'Log Out' }).click()
  await expect(page.getByRole('link', { name: 'Login' })).toBeVisible()
  await expect.poll(() => stored(page, 'customer')).toBeNull()
  // The forgotten cart is initialised again for the logged-out visitor.
  await expect.poll(() => stored(page, 'cart')).toMatchObject({ count: 0 })
})
