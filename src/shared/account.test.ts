import { describe, expect, it } from 'vitest'
import { changePasswordSchema, marketingUpdateSchema, orderStatusText, reorderSchema } from './account.ts'

describe('the account area’s shared rules', () => {
  it('words maginus_status exactly as the spec’s table, empty being processed', () => {
    expect(orderStatusText(null)).toBe('BEING PROCESSED')
    expect(orderStatusText(1)).toBe("ORDER HELD (we're checking a few things)")
    expect(orderStatusText(2)).toBe('COMPLETED/SHIPPED')
    expect(orderStatusText(3)).toBe('ORDER CANCELLED/REJECTED (check email)')
  })

  it('asks for a reorder quantity of at least 1', () => {
    expect(reorderSchema.safeParse({ items: [{ id: 1, quantity: 1 }] }).success).toBe(true)
    const zero = reorderSchema.safeParse({ items: [{ id: 1, quantity: 0 }] })
    expect(zero.success).toBe(false)
    expect(zero.error?.issues[0]?.message).toBe('The quantity must be at least 1.')
    expect(reorderSchema.safeParse({}).success).toBe(true)
  })

  it('applies the shared password rule and the confirmation to a change', () => {
    const base = {
      current_password: 'old',
      password: 'Sturdy-pass-42',
      password_confirmation: 'Sturdy-pass-42',
    }
    expect(changePasswordSchema.safeParse(base).success).toBe(true)
    const weak = changePasswordSchema.safeParse({
      ...base,
      password: 'weakpassword',
      password_confirmation: 'weakpassword',
    })
    expect(weak.error?.issues.map((i) => i.message)).toContain(
      'Password must be at least 10 characters and include a number, letter, and symbol.',
    )
    const mismatch = changePasswordSchema.safeParse({ ...base, password_confirmation: 'Sturdy-pass-43' })
    expect(mismatch.error?.issues[0]?.message).toBe('Passwords do not match.')
  })

  it('accepts only named marketing preferences, each once', () => {
    expect(marketingUpdateSchema.safeParse({ preferences: [{ name: 'email', status: true }] }).success).toBe(
      true,
    )
    expect(marketingUpdateSchema.safeParse({ preferences: [{ name: 'fax', status: true }] }).success).toBe(
      false,
    )
    expect(
      marketingUpdateSchema.safeParse({
        preferences: [
          { name: 'email', status: true },
          { name: 'email', status: false },
        ],
      }).success,
    ).toBe(false)
  })
})
