import { describe, expect, it } from 'vitest'
import {
  AUTH_MESSAGES,
  fieldErrors,
  isStrongPassword,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
  twoFactorSchema,
} from './auth.ts'

const valid = {
  first_name: 'Ann',
  last_name: 'Example',
  email: 'ann@example.com',
  password: 'Sturdy-pass-42',
  password_confirmation: 'Sturdy-pass-42',
}

describe('password rule', () => {
  it.each([
    ['Sturdy-pass-42', true],
    ['abcdefgh1!', true],
    ['abcdefg1!', false], // 9 characters
    ['abcdefghij1', false], // no symbol
    ['abcdefghij!', false], // no digit
    ['1234567890!', false], // no letter
    ['Ünïcödé-pw-9', true],
    ['x'.repeat(120) + '1!', true],
  ])('judges %s as strong: %s', (password, strong) => {
    expect(isStrongPassword(password)).toBe(strong)
  })

  it('uses the spec message word for word', () => {
    expect(
      fieldErrors(registerSchema, { ...valid, password: 'short', password_confirmation: 'short' }),
    ).toEqual({
      password: 'Password must be at least 10 characters and include a number, letter, and symbol.',
    })
  })

  it('never trims a password', () => {
    const r = loginSchema.parse({ email: 'a@b.c', password: '  spaced  ' })
    expect(r.password).toBe('  spaced  ')
  })
})

describe('registration rules', () => {
  it('accepts a complete form and lower-cases the e-mail', () => {
    expect(registerSchema.parse({ ...valid, email: ' Ann@Example.COM ' }).email).toBe('ann@example.com')
  })

  it('says Passwords do not match. on the confirmation', () => {
    expect(fieldErrors(registerSchema, { ...valid, password_confirmation: 'Sturdy-pass-43' })).toEqual({
      password_confirmation: 'Passwords do not match.',
    })
  })

  it('requires first name, last name, e-mail, password and confirmation', () => {
    expect(Object.keys(fieldErrors(registerSchema, {})).sort()).toEqual([
      'email',
      'first_name',
      'last_name',
      'password',
      'password_confirmation',
    ])
  })

  it('limits the errors to touched fields for checks on blur', () => {
    expect(fieldErrors(registerSchema, {}, ['email'])).toEqual({ email: AUTH_MESSAGES.required })
  })

  it('requires an @ in the e-mail address', () => {
    expect(fieldErrors(registerSchema, { ...valid, email: 'annexample.com' })).toEqual({
      email: 'This email provided is invalid.',
    })
  })
})

describe('login, reset and two-factor rules', () => {
  it('reads remember as on or empty', () => {
    expect(loginSchema.parse({ email: 'a@b.c', password: 'x', remember: 'on' }).remember).toBe(true)
    expect(loginSchema.parse({ email: 'a@b.c', password: 'x', remember: '' }).remember).toBe(false)
    expect(loginSchema.parse({ email: 'a@b.c', password: 'x' }).remember).toBe(false)
  })

  it('needs a token on the reset form', () => {
    expect(
      Object.keys(
        fieldErrors(resetPasswordSchema, {
          email: 'a@b.c',
          password: valid.password,
          password_confirmation: valid.password,
        }),
      ),
    ).toEqual(['token'])
  })

  it('needs either a code or a recovery code', () => {
    expect(twoFactorSchema.safeParse({}).success).toBe(false)
    expect(twoFactorSchema.safeParse({ code: '123456' }).success).toBe(true)
    expect(twoFactorSchema.safeParse({ recovery_code: 'abcde-fghij-klmno' }).success).toBe(true)
  })
})
