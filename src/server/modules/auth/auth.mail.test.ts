import { describe, expect, it } from 'vitest'
import {
  accountCreatedMail,
  alreadyRegisteredMail,
  passwordResetMail,
  verificationMail,
  welcomeMail,
  type MailBrand,
} from './auth.mail.ts'

const brand: MailBrand = {
  siteName: 'Harbour Safety Supplies',
  baseUrl: 'http://localhost:3000',
  logoUrl: 'http://localhost:3000/brands/harbour.svg',
  contactEmail: 'sales@harbour-safety.example',
}

describe('auth e-mails', () => {
  it('carry the link in both the text and the HTML part, in the brand', () => {
    const url = 'http://localhost:3000/reset-password?token=abc&email=a%40b.c'
    const m = passwordResetMail(brand, 'a@b.c', url)
    expect(m).toMatchObject({ to: 'a@b.c', subject: 'Reset your password - Harbour Safety Supplies' })
    expect(m.text).toContain(url)
    expect(m.text).toContain('expire in 60 minutes')
    expect(m.html).toContain('token=abc&amp;email=a%40b.c')
    expect(m.html).toContain('alt="Harbour Safety Supplies"')
  })

  it('escapes names in the HTML part', () => {
    const m = verificationMail(
      brand,
      'x@y.z',
      '<script>alert(1)</script>',
      'http://localhost:3000/email/verify/1/t',
    )
    expect(m.html).not.toContain('<script>')
    expect(m.html).toContain('&lt;script&gt;')
    expect(m.text).toContain('Hello <script>alert(1)</script>,')
  })

  it('has a welcome and an already-registered message', () => {
    expect(welcomeMail(brand, 'a@b.c', 'Ann', 'http://localhost:3000/customer').subject).toBe(
      'Welcome to Harbour Safety Supplies',
    )
    const again = alreadyRegisteredMail(
      brand,
      'a@b.c',
      'http://localhost:3000/login',
      'http://localhost:3000/forgot-password',
    )
    expect(again.text).toContain('http://localhost:3000/forgot-password')
  })

  it('welcomes a wallet buyer whose order created the account with a set-password link, not a reset', () => {
    const url = 'http://localhost:3000/reset-password?token=abc&email=sam%40b.c'
    const m = accountCreatedMail(brand, 'sam@b.c', 'Sam', 100123, url)
    expect(m.subject).toBe('Your account has been created - Harbour Safety Supplies')
    expect(m.text).toBe(
      [
        'Your account has been created',
        '',
        'Hello Sam,',
        '',
        'Thank you for your order 100123. We created an account at Harbour Safety Supplies for sam@b.c with this order, so that you can follow your orders and order again.',
        '',
        'Your account has no password yet. To choose one, use the button below. The link expires in 60 minutes and works once; after that, choose "Forgot your password?" on the login page to get a new one.',
        '',
        'If you did not place this order, please contact us.',
        '',
        `Set Your Password: ${url}`,
        '',
        'Harbour Safety Supplies',
      ].join('\n'),
    )
    expect(m.text).not.toMatch(/reset request|Reset your password/)
    expect(m.html).toContain('token=abc&amp;email=sam%40b.c')
  })
})
