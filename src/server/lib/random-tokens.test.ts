import { describe, expect, it } from 'vitest'
import { randomTokens } from './random-tokens.ts'

describe('random tokens', () => {
  it('gives tokens of the asked number of bytes, all different, across refills of the pool', () => {
    const next = randomTokens(16, 4)
    const tokens = Array.from({ length: 50 }, next)
    for (const token of tokens) expect(Buffer.from(token, 'base64')).toHaveLength(16)
    expect(new Set(tokens).size).toBe(tokens.length)
  })

  it('keeps separate pools for separate sources', () => {
    const a = randomTokens(16)
    const b = randomTokens(16)
    const fromA = Array.from({ length: 300 }, a)
    const fromB = Array.from({ length: 300 }, b)
    expect(new Set([...fromA, ...fromB]).size).toBe(600)
  })
})
