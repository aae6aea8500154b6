import { describe, expect, it } from 'vitest'
import { linesOf } from './check-file-size.ts'

describe('the file size check', () => {
  it('counts the lines of a file whether or not it ends with a new line', () => {
    expect(linesOf('a\nb\n')).toBe(2)
    expect(linesOf('a\nb')).toBe(2)
    expect(linesOf('')).toBe(1)
  })
})
