import { describe, expect, it } from 'vitest'
import { endSentence } from './text.ts'

describe('endSentence', () => {
  it('adds one full stop, never a second after an abbreviation', () => {
    expect(endSentence('Northgate Workplace Inc.')).toBe('Northgate Workplace Inc.')
    expect(endSentence('Harbour Safety Supplies Ltd')).toBe('Harbour Safety Supplies Ltd.')
    expect(endSentence('Really? ')).toBe('Really?')
  })
})
