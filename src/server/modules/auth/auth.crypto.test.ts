import { generateSecret, generateSync } from 'otplib'
import { describe, expect, it } from 'vitest'
import {
  dummyVerify,
  hashPassword,
  normaliseRecoveryCode,
  recoveryCode,
  SecretBox,
  totpStep,
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

describe('the TOTP code check', () => {
  const secret = generateSecret()
  const now = 1_800_000_000_000
  const step = Math.floor(now / 1000 / 30)
  const codeAt = (offsetSteps: number) =>
    generateSync({ secret, epoch: Math.floor(now / 1000) + offsetSteps * 30 })

  it("answers the time step of this step's code, and of the steps either side (drift)", () => {
    expect(totpStep(secret, codeAt(0), null, now)).toBe(step)
    expect(totpStep(secret, codeAt(-1), null, now)).toBe(step - 1)
    expect(totpStep(secret, codeAt(1), null, now)).toBe(step + 1)
  })

  it('refuses a code of a step already used or older, a code two steps away, and anything not six digits', () => {
    expect(totpStep(secret, codeAt(0), step, now)).toBeNull()
    expect(totpStep(secret, codeAt(-1), step - 1, now)).toBeNull()
    expect(totpStep(secret, codeAt(0), step - 1, now)).toBe(step)
    expect(totpStep(secret, codeAt(-3), null, now)).toBeNull()
    expect(totpStep(secret, '12345', null, now)).toBeNull()
    expect(totpStep(secret, '12345a', null, now)).toBeNull()
    expect(totpStep('not base32 !', '123456', null, now)).toBeNull()
  })
})
