import { describe, expect, it } from 'vitest'
import { loginHref } from './account-links.ts'

describe('the Login link', () => {
  it('names the basket, the checkout or any shop page as the page to come back to', () => {
    expect(loginHref('/cart')).toBe('/login?intended=%2Fcart')
    expect(loginHref('/checkout')).toBe('/login?intended=%2Fcheckout')
    expect(loginHref('/search?q=exit sign')).toBe('/login?intended=%2Fsearch%3Fq%3Dexit%20sign')
  })

  it('is plain /login from the home page, the sign-in pages themselves and anything not a path', () => {
    for (const url of [
      '/',
      '/login',
      '/login?intended=%2Fcart',
      '/register',
      '/forgot-password',
      '/two-factor-challenge',
      '/email/verify',
      '//evil.example/x',
      'https://evil.example/',
      undefined,
    ]) {
      expect(loginHref(url), String(url)).toBe('/login')
    }
  })
})
