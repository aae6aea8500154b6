import { describe, expect, it } from 'vitest'
import {
  dummyVerify,
  hashPassword,
  normaliseRecoveryCode,
  recoveryCode,
  SecretBox,
  verifyPassword,
} from './auth.crypto.ts'

describe('password hashing', () => {
  it('hashes with argon2id m=19456 t=2 p=1 and verifies exactly the password given', async () => {
    const h = await hashPassword('Sturdy-pass-42')
    expect(h).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(await verifyPassword(h, 'Sturdy-pass-42')).toBe(true)
    expect(await verifyPassword(h, 'Sturdy-pass-42 ')).toBe(false)
    expect(await verifyPassword('not a hash', 'x')).toBe(false)
  })

  it('does the same work for an unknown account and always says no', async () => {
    expect(await dummyVerify('anything')).toBe(false)
  })
})

describe('secret box', () => {
  it('seals and opens a TOTP secret, and refuses a tampered or foreign box', () => {
    const box = new SecretBox('a'.repeat(40))
    const sealed = box.seal('KVKFKRCPNZQUYMLX')
    expect(sealed).not.toContain('KVKFKRCPNZQUYMLX')
    expect(box.open(sealed)).toBe('KVKFKRCPNZQUYMLX')
    expect(new SecretBox('b'.repeat(40)).open(sealed)).toBeNull()
    expect(box.open(sealed.slice(0, -2) + 'AA')).toBeNull()
  })
})

describe('recovery codes', () => {
  it('are 15 characters in three groups and normalise from any case or spacing', () => {
    const c = recoveryCode()
    expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}-[a-z2-9]{5}$/)
    expect(normaliseRecoveryCode(` ${c.toUpperCase().replace(/-/g, ' ')} `)).toBe(c)
  })
})
