/**
 * The builders in Chromium on the demo shop (Harbour): Design A Sign, numbered sign sets and the
 * custom workwear builder, from their categories to the basket and back.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import sharp from 'sharp'

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)
}

function watchErrors(page: Page): string[] {
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(e.message))
  return problems
}

/** Tabs forward from the focused element until `target` has focus (at most `limit` presses). */
async function tabTo(page: Page, target: ReturnType<Page['locator']>, limit = 80) {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return
    await page.keyboard.press('Tab')
  }
  throw new Error('not reachable with the keyboard')
}

async function openDesigner(page: Page) {
  await page.goto('/design-your-own-sign')
  await page.getByRole('link', { name: 'Design A Sign' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Design A Sign' })).toBeVisible()
}

test.setTimeout(120_000)

test('a customer designs a sign, adds it, edits it from the basket and orders numbered sets', async ({
  page,
}) => {
  const problems = watchErrors(page)
  await openDesigner(page)
  await expect(page).toHaveTitle(/^Design A Sign \| /)
  expect(await seriousViolations(page)).toEqual([])

  // Keyboard: type, symbol, text and quantity, then submit, without the mouse.
  await page.getByLabel('Warning (yellow triangle)').focus()
  await page.keyboard.press('Space')
  await page.getByRole('radio', { name: /Flame/ }).focus()
  await page.keyboard.press('Space')
  await page.getByLabel('Line 1').focus()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.type('Highly flammable')
  await page.keyboard.press('Tab')
  await page.keyboard.type('No naked flames')
  const preview = page.getByTestId('sign-preview')
  await expect(preview).toHaveAttribute(
    'alt',
    'Preview of your sign, which reads: Highly flammable / No naked flames',
  )
  await expect(preview).toHaveAttribute('src', /Highly%20flammable/)
  await page.getByLabel('Quantity', { exact: true }).fill('2')
  const add = page.getByRole('button', { name: 'Add to basket' })
  await tabTo(page, add)
  await page.keyboard.press('Enter')

  await expect(page).toHaveURL(/\/cart$/)
  const line = page.getByTestId('cart-line').filter({ hasText: 'Highly flammable / No naked flames' })
  await expect(line).toHaveCount(1)
  await expect(line.getByRole('link', { name: 'Proof (PDF)' })).toHaveAttribute(
    'href',
    /\/design-a-sign\/proof\/\d+\.pdf/,
  )
  await expect(line.locator('img').first()).toHaveAttribute('src', /\/design-a-sign\/preview\/\d+\.svg/)

  // Edit from the basket: the designer opens with the design; saving replaces the line.
  await line.getByRole('link', { name: 'Edit sign' }).click()
  await expect(page.getByTestId('editing-note')).toBeVisible()
  await expect(page.getByLabel('Line 1')).toHaveValue('Highly flammable')
  await page.getByLabel('Line 2').fill('No smoking')
  await page.getByRole('button', { name: 'Save changes to basket' }).click()
  await expect(page).toHaveURL(/\/cart$/)
  await expect(page.getByTestId('cart-line').filter({ hasText: 'Sign reads:' })).toHaveCount(1)
  await expect(page.getByText('Sign reads: Highly flammable / No smoking')).toBeVisible()

  // A numbered set of 20: one sequence, priced at the bracket of 20.
  await openDesigner(page)
  await page.getByLabel('Fire equipment (red)').check()
  await page.getByRole('radio', { name: /Fire alarm call point/ }).check()
  await page.getByLabel('Line 1').fill('Fire point')
  await page.getByLabel(/Numbered set/).check()
  await page.getByLabel('First number').fill('1')
  await page.getByLabel('Last number').fill('20')
  await page.getByLabel('Before the number').fill('FP')
  expect(await seriousViolations(page)).toEqual([])
  await page.getByRole('button', { name: 'Add to basket' }).click()
  await expect(page).toHaveURL(/\/cart$/)
  await expect(page.getByText('Numbered set of 20 signs')).toBeVisible()
  await expect(page.getByTestId('cart-line').filter({ hasText: /Number: FP\d+/ })).toHaveCount(20)

  // A second set, removed with its one Remove.
  await openDesigner(page)
  await page.getByLabel('Line 1').fill('Bay')
  await page.getByLabel(/Numbered set/).check()
  await page.getByLabel('First number').fill('1')
  await page.getByLabel('Last number').fill('3')
  await page.getByRole('button', { name: 'Add to basket' }).click()
  await expect(page.getByText('Numbered set of 3 signs')).toBeVisible()
  const bays = page.getByTestId('cart-line').filter({ hasText: 'Sign reads: Bay /' })
  await expect(bays).toHaveCount(3)
  await bays.first().getByRole('button', { name: 'Remove sign set' }).click()
  await expect(bays).toHaveCount(0)
  await expect(page.getByText('Numbered set of 20 signs')).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
  expect(problems).toEqual([])
})

test('a customer builds a workwear order with an uploaded logo and reopens it from the basket', async ({
  page,
}) => {
  const problems = watchErrors(page)
  await page.goto('/personalised-workwear')
  await page.getByRole('link', { name: 'Build your workwear' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Build Your Workwear' })).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])

  await page.getByRole('radio', { name: 'Polo shirt' }).check()
  await page.getByRole('radio', { name: 'Bottle green' }).check()
  await page.getByLabel('M', { exact: true }).fill('5')
  await page.getByLabel('L', { exact: true }).fill('7')
  await page.getByRole('checkbox', { name: /Back/ }).check()
  await page.getByLabel(/^Text/).fill('Harbour Crew')
  const logo = await sharp({ create: { width: 80, height: 40, channels: 3, background: '#0a5' } })
    .png()
    .toBuffer()
  await page.getByLabel(/Your logo/).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo })
  await expect(page.getByTestId('workwear-preview')).toHaveAttribute('src', /image%2Fpng%3Bbase64/)
  const add = page.getByRole('button', { name: 'Add to basket' })
  await add.focus()
  await page.keyboard.press('Enter')

  await expect(page).toHaveURL(/\/cart$/)
  const lines = page.getByTestId('cart-line').filter({ has: page.getByTestId('workwear-details') })
  await expect(lines).toHaveCount(2)
  await expect(lines.first()).toContainText('Polo shirt, Bottle green, size M')
  await expect(lines.first()).toContainText('Logo: Left chest')
  await expect(lines.first()).toContainText('Logo: Back')
  await expect(lines.first()).toContainText('Text: Harbour Crew')

  await lines.first().getByRole('link', { name: 'Edit design' }).click()
  await expect(page.getByTestId('editing-note')).toBeVisible()
  await expect(page.getByLabel('L', { exact: true })).toHaveValue('7')
  await expect(page.getByRole('img', { name: 'Your current logo' })).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
  await page.getByLabel('XL', { exact: true }).fill('3')
  await page.getByRole('button', { name: 'Save changes to basket' }).click()
  await expect(page).toHaveURL(/\/cart$/)
  await expect(lines).toHaveCount(3)
  expect(problems).toEqual([])
})

/** What the keyboard user sees of the focused control: its name and whether focus is drawn. */
async function focusedControl(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    if (!el || el === document.body) return null
    const style = getComputedStyle(el)
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0
    const ring = style.boxShadow !== 'none' && style.boxShadow !== ''
    const label =
      el.getAttribute('aria-label') ||
      (el instanceof HTMLInputElement ? (el.labels?.[0]?.textContent ?? '') : '') ||
      el.textContent ||
      ''
    return {
      tag: el.tagName.toLowerCase(),
      type: 'type' in el && typeof el.type === 'string' ? el.type : '',
      name: label.replace(/\s+/g, ' ').trim(),
      visible: outline || ring,
    }
  })
}

test('the workwear builder is walked and used from the keyboard alone, with focus always visible', async ({
  page,
}) => {
  const problems = watchErrors(page)
  await page.goto('/personalised-workwear')
  const open = page.getByRole('link', { name: 'Build your workwear' })
  await open.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: 'Build Your Workwear' })).toBeVisible()
  await expect(page).toHaveTitle(/^Build Your Workwear \| /)

  // Walk the whole form with Tab: every control is reached once, in reading order, with focus drawn.
  const firstGarment = page.getByRole('radio').first()
  await tabTo(page, page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link'), 200)
  const seen: { tag: string; type: string; name: string; visible: boolean }[] = []
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab')
    const now = await focusedControl(page)
    if (!now) break
    seen.push(now)
    if (now.tag === 'button' && /Add to basket/.test(now.name)) break
  }
  expect(seen.filter((c) => !c.visible)).toEqual([])
  const names = seen.map((c) => `${c.type || c.tag}:${c.name}`)
  // One stop per radio group (arrows move inside it), each size, each position, the file, the text.
  expect(names.filter((n) => n.startsWith('radio:'))).toHaveLength(2)
  for (const size of ['S', 'M', 'L', 'XL']) expect(names).toContain(`number:${size}`)
  expect(names.filter((n) => n.startsWith('checkbox:')).length).toBeGreaterThanOrEqual(2)
  expect(names.some((n) => n.startsWith('file:Your logo'))).toBe(true)
  expect(names.some((n) => n.startsWith('text:Text'))).toBe(true)
  expect(names.at(-1)).toMatch(/^submit:Add to basket/)
  await expect(firstGarment).toBeChecked()

  // A refused save says why and puts focus on the first field to fix.
  await page.keyboard.press('Enter')
  await expect(page.getByText('Enter a quantity for at least one size.').first()).toBeVisible()
  await expect(page.getByLabel('S', { exact: true })).toBeFocused()

  // Operate every kind of control without the mouse.
  const garments = page.getByRole('group', { name: 'Garment' }).getByRole('radio')
  await tabTo(page, firstGarment, 200)
  while (!(await page.getByRole('radio', { name: 'Polo shirt' }).isChecked()))
    await page.keyboard.press('ArrowRight')
  expect(await garments.count()).toBe(3)
  await page.keyboard.press('Tab')
  await expect(page.getByRole('radio', { name: 'Navy' })).toBeFocused()
  await page.keyboard.press('ArrowRight')
  await expect(page.getByRole('radio', { name: 'Black' })).toBeChecked()
  await tabTo(page, page.getByLabel('M', { exact: true }))
  await page.keyboard.type('4')
  await page.keyboard.press('Tab')
  await page.keyboard.type('2')
  await page.keyboard.press('ArrowUp')
  await expect(page.getByLabel('L', { exact: true })).toHaveValue('3')
  const back = page.getByRole('checkbox', { name: /Back/ })
  await tabTo(page, back)
  await page.keyboard.press('Space')
  await expect(back).toBeChecked()
  const leftChest = page.getByRole('checkbox', { name: /Left chest/ })
  await expect(leftChest).toBeChecked()

  // The file input opens the chooser from the keyboard (Space), and the choice is shown.
  const logo = await sharp({ create: { width: 60, height: 60, channels: 3, background: '#c33' } })
    .png()
    .toBuffer()
  await tabTo(page, page.getByLabel(/Your logo/))
  const chooser = page.waitForEvent('filechooser')
  await page.keyboard.press('Space')
  await (await chooser).setFiles({ name: 'crest.png', mimeType: 'image/png', buffer: logo })
  await expect(page.getByTestId('workwear-preview')).toHaveAttribute('src', /image%2Fpng%3Bbase64/)

  await page.keyboard.press('Tab')
  await page.keyboard.type('Night shift')
  await expect(page.getByTestId('workwear-price')).toContainText('Garments7')
  await tabTo(page, page.getByRole('button', { name: 'Add to basket' }))
  await page.keyboard.press('Enter')

  await expect(page).toHaveURL(/\/cart$/)
  const lines = page.getByTestId('cart-line').filter({ has: page.getByTestId('workwear-details') })
  await expect(lines).toHaveCount(2)
  await expect(lines.first()).toContainText('Polo shirt, Black, size M')
  await expect(lines.first()).toContainText('Logo: Back')
  await expect(lines.first()).toContainText('Text: Night shift')

  // Reopen from the basket with the keyboard too.
  await tabTo(page, lines.first().getByRole('link', { name: 'Edit design' }), 200)
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('editing-note')).toBeVisible()
  await expect(page.getByLabel('L', { exact: true })).toHaveValue('3')
  expect(problems).toEqual([])
})
