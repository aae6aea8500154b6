// @vitest-environment happy-dom
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AddressSearch } from './AddressSearch.tsx'
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let root: Root | undefined
let host: HTMLElement | undefined
afterEach(() => {
  act(() => root?.unmount())
  host?.remove()
  vi.unstubAllGlobals()
})

const matches = [
  {
    id: 'a',
    label: '1 Main Street, Springfield',
    address: { address1: '1 Main Street', town: 'Springfield' },
  },
  {
    id: 'b',
    label: '2 Main Street, Springfield',
    address: { address1: '2 Main Street', town: 'Springfield' },
  },
]

async function setup() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ matches }), { status: 200 })),
  )
  const onPick = vi.fn()
  host = document.createElement('div')
  document.body.appendChild(host)
  await act(async () => {
    root = createRoot(host!)
    root.render(
      <>
        <AddressSearch url="/checkout/address-search" idPrefix="shipping" onPick={onPick} />
        <input id="shipping-address1" aria-label="Address 1" />
      </>,
    )
  })
  const box = host.querySelector<HTMLInputElement>('input[type="search"]')!
  await act(async () => {
    box.focus()
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!
    setter.call(box, 'spring')
    box.dispatchEvent(new Event('input', { bubbles: true }))
  })
  await act(async () => new Promise((r) => setTimeout(r, 50)))
  return { box, onPick }
}
const key = async (k: string) => {
  await act(async () => {
    document.activeElement!.dispatchEvent(
      new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }),
    )
  })
}

describe('Address search by keyboard', () => {
  it('moves from the search box through the suggestions with the arrow keys, and back with Escape', async () => {
    const { box } = await setup()
    expect(host!.querySelectorAll('li button')).toHaveLength(2)
    await key('ArrowDown')
    expect(document.activeElement?.textContent).toBe('1 Main Street, Springfield')
    await key('ArrowDown')
    expect(document.activeElement?.textContent).toBe('2 Main Street, Springfield')
    await key('ArrowDown')
    expect(document.activeElement?.textContent).toBe('1 Main Street, Springfield')
    await key('ArrowUp')
    expect(document.activeElement?.textContent).toBe('2 Main Street, Springfield')
    await key('Escape')
    expect(document.activeElement).toBe(box)
  })

  it('fills the address from the chosen suggestion and gives the focus to its first field', async () => {
    const { onPick } = await setup()
    await key('ArrowDown')
    await act(async () => {
      ;(document.activeElement as HTMLButtonElement).click()
      await new Promise((r) => setTimeout(r, 10))
    })
    expect(onPick).toHaveBeenCalledWith(matches[0]!.address)
    expect(document.activeElement?.id).toBe('shipping-address1')
  })
})
