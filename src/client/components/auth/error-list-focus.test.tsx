// @vitest-environment happy-dom
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, describe, expect, it } from 'vitest'
import { ErrorList } from './fields.tsx'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let root: Root | undefined
afterEach(() => {
  act(() => root?.unmount())
  document.body.innerHTML = ''
})

function mount(errors: Record<string, string | undefined>) {
  const host = document.createElement('div')
  document.body.append(host)
  const input = document.createElement('input')
  document.body.append(input)
  input.focus()
  root = createRoot(host)
  act(() => root!.render(<ErrorList errors={errors} />))
  return { host, input, update: (e: typeof errors) => act(() => root!.render(<ErrorList errors={e} />)) }
}

describe('the error list after a failed submit', () => {
  it('takes the focus when its messages appear, so they are read and the next Tab goes on to the form', () => {
    const { input, update } = mount({})
    expect(document.activeElement).toBe(input)
    update({ email: 'These credentials do not match our records.' })
    expect(document.activeElement?.getAttribute('data-testid')).toBe('error-list')
  })

  it('takes it again when the messages change, and leaves it alone when they do not', () => {
    const { input, update } = mount({ email: 'First.' })
    input.focus()
    update({ email: 'First.' })
    expect(document.activeElement).toBe(input)
    update({ email: 'Second.' })
    expect(document.activeElement?.getAttribute('data-testid')).toBe('error-list')
  })
})
