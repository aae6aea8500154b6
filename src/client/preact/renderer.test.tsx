import { createElement as preactCreateElement } from 'preact/compat'
import { createElement } from 'react'
import { createRoot } from 'react-dom/client'
import { createRoot as preactCreateRoot } from 'preact/compat/client'
import { describe, expect, it } from 'vitest'

describe('the component tests’ renderer (ADR 0155)', () => {
  it('is Preact’s React layer, as in the shipped builds', () => {
    expect(createElement).toBe(preactCreateElement)
    expect(createRoot).toBe(preactCreateRoot)
  })
})
