// @vitest-environment happy-dom
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, describe, expect, it } from 'vitest'
import { SaveDialog } from './SaveDialog.tsx'
import { ShareDialog } from './ShareDialog.tsx'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let root: Root | undefined
afterEach(() => {
  act(() => root?.unmount())
  document.body.innerHTML = ''
})

async function send(dialog: React.ReactElement) {
  const host = document.createElement('div')
  document.body.append(host)
  root = createRoot(host)
  act(() => root!.render(dialog))
  const form = document.querySelector('form')!
  await act(async () => {
    form.requestSubmit()
    await new Promise((r) => setTimeout(r, 0))
  })
  return document.activeElement as HTMLElement | null
}

describe('the basket dialogs after a refused send', () => {
  it('Share puts the focus on the first field in error, described by its message', async () => {
    const focused = await send(<ShareDialog open cartId="c1" onClose={() => {}} />)
    expect(focused?.tagName).toBe('INPUT')
    expect(focused?.getAttribute('aria-invalid')).toBe('true')
    const message = document.getElementById(focused!.getAttribute('aria-describedby')!.split(' ').pop()!)
    expect(message?.textContent).toBeTruthy()
  })

  it('Save puts the focus on the basket name in error', async () => {
    const focused = await send(<SaveDialog open cartName="" onClose={() => {}} />)
    expect(focused?.tagName).toBe('INPUT')
    expect(focused?.getAttribute('aria-invalid')).toBe('true')
  })
})
