import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)
}

/** Fails the test on any console error or uncaught exception. */
function watchErrors(page: Page): string[] {
  const problems: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text())
  })
  page.on('pageerror', (e) => problems.push(e.message))
  return problems
}

test.describe('content blocks', () => {
  test('text read-more reveals the whole text and hides it again', async ({ page }) => {
    await page.goto('/about-us')
    const block = page.getByTestId('read-more')
    await expect(block).toContainText('began in 1998')
    await expect(block).not.toContainText('Today we despatch')
    await block.getByRole('button', { name: 'Read more' }).click()
    await expect(block).toContainText('Today we despatch')
    await block.getByRole('button', { name: 'Read less' }).click()
    await expect(block).not.toContainText('Today we despatch')
  })

  test('accordion items toggle on desktop', async ({ page }) => {
    await page.goto('/delivery-information')
    const button = page.getByRole('button', { name: 'Do you deliver on Saturdays?' })
    const answer = page.getByText('Saturday delivery is available on request')
    await expect(answer).toBeHidden()
    await button.click()
    await expect(answer).toBeVisible()
    await expect(button).toHaveAttribute('aria-expanded', 'true')
    await button.click()
    await expect(answer).toBeHidden()
  })

  test('an accordion forced open on desktop is open above 767 px and toggles at 390 px', async ({ page }) => {
    await page.goto('/contact-us')
    await expect(page.getByText('Monday to Friday, 8am to 5pm.')).toBeVisible()
    await page.setViewportSize({ width: 390, height: 800 })
    await page.goto('/contact-us')
    const answer = page.getByText('Monday to Friday, 8am to 5pm.')
    await expect(answer).toBeHidden()
    await page.getByRole('button', { name: 'Sales office' }).click()
    await expect(answer).toBeVisible()
  })

  test('the slider moves with its buttons, the keyboard and a swipe', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 })
    await page.goto('/')
    const slider = page.getByTestId('slider')
    await expect(slider).toHaveAttribute('data-selected', '0')
    await slider.getByRole('button', { name: 'Next slide' }).click()
    await expect(slider).toHaveAttribute('data-selected', '1')
    const viewport = slider.getByRole('region')
    await viewport.focus()
    await page.keyboard.press('ArrowRight')
    await expect(slider).toHaveAttribute('data-selected', '2')
    await page.keyboard.press('ArrowLeft')
    await expect(slider).toHaveAttribute('data-selected', '1')
    // Swipe left with the mouse (Embla treats pointer drags like touch swipes).
    const box = (await viewport.boundingBox())!
    const y = box.y + box.height / 3
    await page.mouse.move(box.x + box.width * 0.8, y)
    await page.mouse.down()
    await page.mouse.move(box.x + box.width * 0.5, y, { steps: 5 })
    await page.mouse.move(box.x + box.width * 0.1, y, { steps: 5 })
    await page.mouse.up()
    await expect(slider).toHaveAttribute('data-selected', '2')
  })

  test('the modal opens from its button and closes with Escape and with the close button', async ({
    page,
  }) => {
    await page.goto('/about-us')
    await page.getByRole('button', { name: 'Read our quality promise' }).click()
    const dialog = page.getByRole('dialog', { name: 'Our quality promise' })
    await expect(dialog).toBeVisible()
    await expect(dialog).toContainText('British and European standards')
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await page.getByRole('button', { name: 'Read our quality promise' }).click()
    await dialog.getByRole('button', { name: 'Close' }).click()
    await expect(dialog).toBeHidden()
  })

  test('a video makes no third-party request until the visitor presses play', async ({ page }) => {
    const thirdParty: string[] = []
    page.on('request', (r) => {
      if (!/^http:\/\/(localhost|127\.0\.0\.1)/.test(r.url())) thirdParty.push(r.url())
    })
    await page.route(/youtube-nocookie\.com/, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<p>player</p>' }),
    )
    await page.goto('/about-us')
    await page.waitForLoadState('networkidle')
    expect(thirdParty).toEqual([])
    await page.getByRole('button', { name: /Play video: A tour of our warehouse/ }).click()
    const frame = page.frameLocator('iframe[title="A tour of our warehouse"]')
    await expect(frame.getByText('player')).toBeVisible()
    expect(thirdParty.some((u) => u.startsWith('https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ'))).toBe(
      true,
    )
  })

  test('the reviews widget renders nothing when it is not configured', async ({ page }) => {
    await page.goto('/about-us')
    await expect(page.getByTestId('reviews-widget')).toHaveCount(0)
    await expect(page.locator('script[data-reviews-widget]')).toHaveCount(0)
  })

  test('tables render headers, cells, colspan and alignment', async ({ page }) => {
    await page.goto('/delivery-information')
    const simple = page.getByRole('table', { name: 'Delivery charges by order value' })
    await expect(simple.getByRole('columnheader')).toHaveText(['Order value', 'Charge'])
    await expect(simple.getByRole('cell', { name: 'Free' })).toBeVisible()
    const complex = page.getByRole('table', { name: 'Delivery times by region' })
    const spanning = complex.getByRole('cell', { name: '3–5 working days, charged at cost' })
    await expect(spanning).toHaveAttribute('colspan', '2')
    await expect(spanning).toHaveClass(/text-center/)
    await expect(complex.getByRole('rowheader', { name: 'Mainland UK' })).toBeVisible()
  })
})

test.describe('newsletter', () => {
  test('goes idle → Signing up... → the configured message, and ignores a second submit', async ({
    page,
  }) => {
    let requests = 0
    let release: () => void = () => {}
    const held = new Promise<void>((r) => (release = r))
    await page.route('**/newsletter/subscribe', async (route) => {
      requests++
      await held
      await route.continue()
    })
    await page.goto('/')
    const form = page.getByTestId('newsletter')
    await form.getByLabel('First name (required)').fill('Ann')
    await form.getByLabel('Email address (required)').fill('ann.e2e@example.com')
    await form.getByRole('button', { name: 'Sign up' }).click()
    await expect(form.getByRole('button', { name: 'Signing up...' })).toBeDisabled()
    release()
    await expect(form.getByRole('status')).toHaveText('Thanks for signing up! Look out for our next issue.')
    // A second submit (Enter in the email field) is ignored.
    await form.getByLabel('Email address (required)').press('Enter')
    await page.waitForTimeout(300)
    expect(requests).toBe(1)
  })

  test('shows "Signed up!" when no message is configured', async ({ page }) => {
    await page.goto('http://127.0.0.1:' + (process.env.E2E_PORT ?? 4173) + '/')
    const form = page.getByTestId('newsletter')
    await form.getByLabel('Email address (required)').fill('us.e2e@example.com')
    await form.getByRole('button', { name: 'Sign up' }).click()
    await expect(form.getByRole('status')).toHaveText('Signed up!')
  })

  test('returns to idle with the error message when the server fails, and stays usable', async ({ page }) => {
    let fail = true
    await page.route('**/newsletter/subscribe', (route) =>
      fail
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"x"}' })
        : route.continue(),
    )
    await page.goto('/')
    const form = page.getByTestId('newsletter')
    await form.getByLabel('First name (required)').fill('Bo')
    await form.getByLabel('Email address (required)').fill('bo.e2e@example.com')
    await form.getByRole('button', { name: 'Sign up' }).click()
    await expect(
      form.getByText('There was an error submitting the form. Please try again later.'),
    ).toBeVisible()
    await expect(form.getByRole('button', { name: 'Sign up' })).toBeEnabled()
    fail = false
    await form.getByRole('button', { name: 'Sign up' }).click()
    await expect(form.getByRole('status')).toContainText('Thanks for signing up!')
  })

  test('asks for a valid email and the required first name without sending anything', async ({ page }) => {
    let requests = 0
    await page.route('**/newsletter/subscribe', (route) => {
      requests++
      return route.continue()
    })
    await page.goto('/')
    const form = page.getByTestId('newsletter')
    await form.getByLabel('Email address (required)').fill('nope')
    await form.getByRole('button', { name: 'Sign up' }).click()
    await expect(form.getByText('Please enter a valid email address.')).toBeVisible()
    await expect(form.getByText('Please enter your first name.')).toBeVisible()
    expect(requests).toBe(0)
  })
})

test.describe('countdown', () => {
  test('ticks every second to the 2pm cut-off with a fixed clock', async ({ page }) => {
    await page.clock.install({ time: new Date('2026-06-10T09:30:05Z') })
    await page.goto('/delivery-information')
    await expect(page.getByTestId('countdown-time')).toBeVisible()
    await page.clock.pauseAt(new Date('2026-06-10T09:30:15Z'))
    const time = page.getByTestId('countdown-time')
    await expect(time).toHaveText('03:29:45')
    await page.clock.runFor(2000)
    await expect(time).toHaveText('03:29:43')
    await expect(page.getByTestId('countdown')).toContainText('Order within 03:29:43 for same-day despatch')
  })

  test('shows the message after the deadline', async ({ page }) => {
    await page.clock.install({ time: new Date('2026-06-10T12:59:50Z') })
    await page.goto('/delivery-information')
    await expect(page.getByTestId('countdown-time')).toBeVisible()
    await page.clock.pauseAt(new Date('2026-06-10T12:59:58Z'))
    await expect(page.getByTestId('countdown-time')).toHaveText('00:00:02')
    await page.clock.runFor(3000)
    await expect(page.getByTestId('countdown')).toHaveText('Order now for despatch on the next working day.')
  })

  test('is replaced before a bank holiday (Good Friday)', async ({ page }) => {
    await page.clock.install({ time: new Date('2026-04-02T09:00:00Z') })
    await page.goto('/delivery-information')
    await expect(page.getByTestId('countdown')).toHaveText(
      'Orders placed today are despatched on the next working day after the bank holiday.',
    )
  })

  test('stays hidden when the bank holidays cannot be fetched', async ({ page }) => {
    await page.clock.install({ time: new Date('2026-06-10T09:30:15Z') })
    await page.route('**/bank-holidays', (route) => route.fulfill({ status: 503, body: '' }))
    await page.goto('/delivery-information')
    await page.clock.runFor(2000)
    await expect(page.getByTestId('countdown')).toHaveCount(0)
  })
})

test.describe('contact form', () => {
  test('shows field messages, then the thank-you message', async ({ page }) => {
    await page.goto('/contact-us')
    const form = page.getByTestId('content-form')
    await form.getByRole('button', { name: 'Send message' }).click()
    await expect(form.getByText('Your name is required.')).toBeVisible()
    await form.getByLabel('Your name (required)').fill('Dee')
    await form.getByLabel('Email address (required)').fill('dee.e2e@example.com')
    await form.getByLabel('Message (required)').fill('Do you sell ladders?')
    await form.getByRole('button', { name: 'Send message' }).click()
    await expect(page.getByRole('status')).toHaveText(
      'Thank you for your message. We reply within one working day.',
    )
  })
})

test.describe('blog and sitemap', () => {
  test('goes from a category to a post and back', async ({ page }) => {
    const problems = watchErrors(page)
    await page.goto('/blog/fire-safety')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Fire Safety')
    await expect(page).toHaveTitle(/Fire Safety/)
    const tree = page.getByRole('navigation', { name: 'Blog categories' })
    await expect(tree.getByRole('link', { name: 'Fire Safety' })).toHaveAttribute('aria-current', 'page')
    await expect(tree.getByRole('link', { name: 'Fire Extinguishers' })).toBeVisible()
    await page.getByRole('link', { name: 'Read More: Fire exit signs: what the law requires' }).click()
    await expect(page).toHaveURL(/\/blog\/fire-exit-signs-what-the-law-requires$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Fire exit signs: what the law requires')
    const trail = page.getByRole('navigation', { name: 'Breadcrumb' })
    await expect(trail.getByRole('link')).toHaveText(['Blog', 'Fire Safety'])
    await page.goBack()
    await expect(page).toHaveURL(/\/blog\/fire-safety$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Fire Safety')
    expect(problems).toEqual([])
  })

  test('the footer links to the blog and the sitemap', async ({ page }) => {
    await page.goto('/')
    const footer = page.getByRole('navigation', { name: 'Footer' })
    await footer.getByRole('link', { name: 'Blog' }).click()
    await expect(page).toHaveURL(/\/blog$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Blog')
    await footer.getByRole('link', { name: 'Sitemap' }).click()
    await expect(page).toHaveURL(/\/sitemap$/)
  })

  test('hides the category tree on small screens', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 })
    await page.goto('/blog')
    await expect(page.getByRole('navigation', { name: 'Blog categories' })).toBeHidden()
  })

  test('shows the sitemap sections with capitalised headings', async ({ page }) => {
    await page.goto('/sitemap')
    await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveText([
      'Categories',
      'Pages',
      'Blog categories',
      'Blog posts',
    ])
    await page.getByRole('link', { name: 'Terms and Conditions', exact: true }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms and Conditions')
  })
})

test.describe('accessibility', () => {
  for (const path of [
    '/',
    '/about-us',
    '/delivery-information',
    '/contact-us',
    '/blog',
    '/blog/fire-safety',
    '/blog/how-often-should-fire-extinguishers-be-serviced',
    '/sitemap',
  ]) {
    test(`has no serious or critical violations on ${path}`, async ({ page }) => {
      await page.goto(path)
      expect(await seriousViolations(page)).toEqual([])
    })
  }
})
