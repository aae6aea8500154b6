// @vitest-environment happy-dom
import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { useMessages } from '../lib/messages.tsx'
import { makePage, mockMatchMedia, renderPage, testSite, type Rendered } from '../test/render.tsx'

function Probe() {
  const { pushError, pushWarning } = useMessages()
  return (
    <>
      <h1>Probe</h1>
      <button type="button" onClick={() => pushError('Could not update the basket.')}>
        push error
      </button>
      <button type="button" onClick={() => pushWarning('Stock is low.')}>
        push warning
      </button>
    </>
  )
}

const customer = { id: 7, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' }

let rendered: Rendered | undefined
let container: HTMLElement
const stopLinks = (e: Event) => e.preventDefault() // keep Inertia links from issuing requests

async function render(props: Record<string, unknown> = {}, extra = {}) {
  rendered = await renderPage(Probe, makePage('Probe', props, extra))
  container = rendered.container
  container.addEventListener('click', stopLinks, true)
}

function byText(selector: string, text: string): HTMLElement {
  const el = [...container.querySelectorAll<HTMLElement>(selector)].find(
    (e) => e.textContent?.trim() === text,
  )
  if (!el) throw new Error(`No ${selector} with text ${text}`)
  return el
}

async function click(el: Element) {
  await act(async () => {
    ;(el as HTMLElement).click()
  })
}

beforeEach(() => {
  mockMatchMedia(() => false)
  window.sessionStorage.clear()
  document.body.style.overflow = ''
})
afterEach(() => rendered?.unmount())

describe('site layout', () => {
  it('puts a skip-to-main-content link first and the page inside main#main-content', async () => {
    await render()
    const first = container.querySelector('a')
    expect(first?.textContent).toBe('Skip to main content')
    expect(first?.getAttribute('href')).toBe('#main-content')
    expect(container.querySelector('main#main-content h1')?.textContent).toBe('Probe')
  })

  it("puts no heading before the page's h1 when the site shows its sidebar (Northgate)", async () => {
    await render({ site: { ...testSite, showSidebar: true } })
    const sidebar = container.querySelector('aside')!
    expect(sidebar.textContent).toContain('Shop by category')
    expect(container.querySelector('h1, h2, h3, h4, h5, h6')?.tagName).toBe('H1')
    expect(container.querySelector('nav[aria-labelledby]')?.getAttribute('aria-labelledby')).toBe(
      sidebar.querySelector('p')?.id,
    )
  })

  it('sets the site theme as CSS custom properties on the layout root', async () => {
    await render()
    const root = container.querySelector<HTMLElement>('.site-root')
    expect(root?.style.getPropertyValue('--colour-primary')).toBe('#003366')
    expect(root?.style.getPropertyValue('--page-width')).toBe('1280px')
  })

  it('links the footer contact number and email', async () => {
    await render()
    expect(container.querySelector('footer a[href="tel:01234567890"]')?.textContent).toBe('01234 567890')
    expect(container.querySelector('footer a[href="mailto:help@example.com"]')).not.toBeNull()
  })

  it('renders a bare layout when the page has no site (unknown host)', async () => {
    await render({ site: undefined })
    expect(container.querySelector('header')).toBeNull()
    expect(container.querySelector('footer')).toBeNull()
    expect(container.querySelector('main#main-content h1')?.textContent).toBe('Probe')
  })

  it('shows the cart count and a zero total for a visitor, with a Login link', async () => {
    await render()
    const cart = container.querySelector('a[href="/cart"]')
    expect(cart?.textContent).toContain('£0.00')
    expect(cart?.textContent).toContain('0 items')
    expect(container.querySelector('header a[href="/login"]')?.textContent).toBe('Login')
  })

  it('formats the cart total in the site currency', async () => {
    await render({ cart: { count: 2, total: 4599 }, site: { ...testSite, currency: 'USD', locale: 'en-US' } })
    expect(container.querySelector('a[href="/cart"]')?.textContent).toContain('$45.99')
  })

  it('gives a logged-in customer the account menu with every account link and Log Out', async () => {
    await render({ auth: { customer } })
    expect(container.querySelector('header a[href="/login"]')).toBeNull()
    const toggle = byText('header button', 'My Account')
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    await click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    const menu = container.querySelector(`[id="${toggle.getAttribute('aria-controls')}"]`)!
    const links = [...menu.querySelectorAll('a')].map((a) => [a.getAttribute('href'), a.textContent])
    expect(links).toEqual([
      ['/customer', 'Account Dashboard'],
      ['/customer/password/change', 'Change Your Password'],
      ['/customer/orders', 'View Order History/Reorder'],
      ['/customer/update', 'Edit Your Details'],
      ['/customer/invoices', 'Invoices'],
      ['/customer/marketing-preferences', 'Marketing Preferences'],
      ['/customer/carts', 'Save & Load Basket'],
      ['/orders', 'Buy Again'],
    ])
    expect(menu.querySelector('a[href="/orders"]')?.closest('li')?.hidden).toBe(true)
    expect([...menu.querySelectorAll('button')].map((b) => b.textContent)).toContain('Log Out')
  })

  it('shows a flash error once in the red box and dismisses it with the cross', async () => {
    await render({}, { flash: { error: 'Payment failed.' } })
    const box = container.querySelector('[data-testid="error-box"]')
    expect(box?.getAttribute('role')).toBe('alert')
    expect(box?.textContent).toContain('Payment failed.')
    await click(container.querySelector('button[aria-label="Dismiss error"]')!)
    expect(container.querySelector('[data-testid="error-box"]')).toBeNull()
  })

  it('shows a flash warning in the orange box', async () => {
    await render({}, { flash: { warning: 'Some items are out of stock.' } })
    expect(container.querySelector('[data-testid="warning-box"]')?.textContent).toContain(
      'Some items are out of stock.',
    )
  })

  it('lets components push errors and warnings into the boxes', async () => {
    await render()
    await click(byText('button', 'push error'))
    await click(byText('button', 'push warning'))
    expect(container.querySelector('[data-testid="error-box"]')?.textContent).toContain(
      'Could not update the basket.',
    )
    expect(container.querySelector('[data-testid="warning-box"]')?.textContent).toContain('Stock is low.')
    await click(container.querySelector('button[aria-label="Dismiss warning"]')!)
    expect(container.querySelector('[data-testid="warning-box"]')).toBeNull()
    expect(container.querySelector('[data-testid="error-box"]')).not.toBeNull()
  })
})

describe('mobile menu', () => {
  beforeEach(() => mockMatchMedia((q) => q === '(max-width: 767px)' || q === '(max-width: 640px)'))

  async function openMenu() {
    const toggle = container.querySelector<HTMLButtonElement>('header button[aria-controls]')!
    await click(toggle)
    return toggle
  }

  it('renders its links on the first open, not before, and keeps them once closed', async () => {
    await render()
    const toggle = container.querySelector<HTMLButtonElement>('header button[aria-controls]')!
    const panel = container.querySelector(`[id="${toggle.getAttribute('aria-controls')}"]`)!
    expect(panel.getAttribute('role')).toBe('dialog')
    expect(panel.querySelector('a')).toBeNull()
    await openMenu()
    expect(panel.querySelector('a[href="/signs"]')).not.toBeNull()
    await click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(panel.querySelector('a[href="/signs"]')).not.toBeNull()
  })

  it('moves focus to its close button on opening and back to the toggle on Escape', async () => {
    await render()
    const toggle = await openMenu()
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Close menu')
    await act(async () => {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    })
    expect(document.activeElement).toBe(toggle)
  })

  it('opens from a labelled toggle and locks page scroll', async () => {
    await render()
    const toggle = container.querySelector<HTMLButtonElement>('header button[aria-controls]')!
    expect(toggle.textContent).toBe('Open menu')
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    await openMenu()
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    expect(toggle.textContent).toBe('Close menu')
    expect(document.body.style.overflow).toBe('hidden')
  })

  it('closes on Escape and unlocks scrolling', async () => {
    await render()
    const toggle = await openMenu()
    await act(async () => {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(document.body.style.overflow).toBe('')
  })

  it('closes when any link inside it is clicked', async () => {
    await render()
    const toggle = await openMenu()
    const panel = container.querySelector(`[id="${toggle.getAttribute('aria-controls')}"]`)!
    await click(panel.querySelector('a[href="/signs"]')!)
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(document.body.style.overflow).toBe('')
  })

  it('shows a Login link to visitors and account links with Log Out to customers', async () => {
    await render({ auth: { customer } })
    const toggle = await openMenu()
    const panel = container.querySelector(`[id="${toggle.getAttribute('aria-controls')}"]`)!
    expect(panel.querySelector('a[href="/customer/carts"]')?.textContent).toBe('Save & Load Basket')
    expect([...panel.querySelectorAll('button')].map((b) => b.textContent)).toContain('Log Out')
    expect(panel.querySelector('a[href="/login"]')).toBeNull()
  })
})

describe('header message', () => {
  const headerMessage = {
    display: true,
    title: 'Christmas opening hours',
    text: '<p>Closed 25 December</p>',
    show_more_text: '<p>Orders resume on the 27th</p>',
  }

  function bannerButton() {
    return container.querySelector<HTMLButtonElement>('aside[aria-label="Announcement"] button')!
  }

  it('is open by default at 768 px and wider', async () => {
    mockMatchMedia((q) => q === '(min-width: 768px)')
    await render({ site: { ...testSite, headerMessage } })
    expect(bannerButton().getAttribute('aria-expanded')).toBe('true')
    expect(container.textContent).toContain('Closed 25 December')
  })

  it('is closed by default below 768 px', async () => {
    mockMatchMedia(() => false)
    await render({ site: { ...testSite, headerMessage } })
    expect(bannerButton().getAttribute('aria-expanded')).toBe('false')
  })

  it('remembers the open or closed choice for the browser session', async () => {
    mockMatchMedia((q) => q === '(min-width: 768px)')
    await render({ site: { ...testSite, headerMessage } })
    await click(bannerButton())
    expect(bannerButton().getAttribute('aria-expanded')).toBe('false')
    expect(window.sessionStorage.getItem('headerMessageOpen')).toBe('0')
    rendered?.unmount()
    await render({ site: { ...testSite, headerMessage } })
    expect(bannerButton().getAttribute('aria-expanded')).toBe('false')
  })

  it('reveals the show-more text on request', async () => {
    mockMatchMedia((q) => q === '(min-width: 768px)')
    await render({ site: { ...testSite, headerMessage } })
    const more = byText('aside button', 'Show more')
    const extra = container.querySelector<HTMLElement>(`[id="${more.getAttribute('aria-controls')}"]`)!
    expect(extra.hidden).toBe(true)
    await click(more)
    expect(extra.hidden).toBe(false)
    expect(more.textContent).toBe('Show less')
  })

  it('is not shown when the message is switched off', async () => {
    await render({ site: { ...testSite, headerMessage: { ...headerMessage, display: false } } })
    expect(container.querySelector('aside[aria-label="Announcement"]')).toBeNull()
  })
})
