// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makePage, mockMatchMedia, renderPage, type Rendered } from '../../test/render.tsx'
import VerifyEmail from '../../pages/Auth/VerifyEmail.tsx'

let rendered: Rendered | undefined
beforeEach(() => mockMatchMedia(() => false))
afterEach(() => rendered?.unmount())

const customer = { id: 3, firstName: 'Vera', lastName: 'Fy', email: 'vera@example.com' }

describe('the verify-e-mail page', () => {
  it('shows a customer who logged in before verifying as signed in, in the header and on the page', async () => {
    rendered = await renderPage(
      VerifyEmail as never,
      makePage('Auth/VerifyEmail', { email: customer.email, auth: { customer } }),
    )
    const header = rendered.container.querySelector('header')!
    expect(header.textContent).toContain('My Account')
    expect(header.querySelector('a[href^="/login"]')).toBeNull()
    expect(rendered.container.querySelector('main')!.textContent).toContain('Log Out')
  })

  it('shows someone who has only just registered (registering never logs in) as not signed in', async () => {
    rendered = await renderPage(
      VerifyEmail as never,
      makePage('Auth/VerifyEmail', { email: 'new@example.com', auth: { customer: null } }),
    )
    const header = rendered.container.querySelector('header')!
    expect(header.querySelector('a[href^="/login"]')?.textContent).toBe('Login')
    expect(header.textContent).not.toContain('My Account')
  })
})
