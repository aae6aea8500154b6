// @vitest-environment happy-dom
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { payaEntry } from './paya.tsx'
import type { PaymentMethodProps, SubmitResult } from './types.ts'
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let root: Root | undefined
let host: HTMLElement | undefined
afterEach(() => {
  act(() => root?.unmount())
  host?.remove()
  vi.unstubAllGlobals()
})

const ORIGIN = 'https://paya.example'

async function renderPaya(submitOrder: (d: Record<string, unknown>) => Promise<SubmitResult>) {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(
          JSON.stringify({ reference: 'ref-0001', iframeUrl: 'about:blank', expectedOrigin: ORIGIN }),
          {
            status: 200,
            headers: { 'content-type': 'application/json' },
          },
        ),
    ),
  )
  const props = {
    methodId: 'paya',
    site: { name: 'Northgate', currency: 'USD' },
    total: 1000,
    cartId: 'c',
    form: { contact: {}, shippingAddress: {}, billingAddress: {}, showingBillingAddress: false },
    customer: null,
    config: {},
    loading: false,
    canSubmit: true,
    setPaymentDetails: () => {},
    orderBody: async () => ({}),
    submitOrder,
    reportError: vi.fn(),
    reopenStep3: () => {},
    removeMethod: () => {},
  } satisfies PaymentMethodProps
  host = document.createElement('div')
  document.body.appendChild(host)
  await act(async () => {
    root = createRoot(host!)
    root.render(<payaEntry.Component {...props} />)
  })
  await act(async () => new Promise((r) => setTimeout(r, 20)))
  return props
}

describe('Paya: one action completes the order', () => {
  it('offers no second Complete Order beside the card form: the form’s own submit is the only action', async () => {
    const submitOrder = vi.fn(async () => ({ placed: true, status: 200, data: {} }))
    await renderPaya(submitOrder)
    expect(host!.querySelector('[data-testid="paya-frame"]')).not.toBeNull()
    expect(host!.querySelector('[data-testid="complete-order"]')).toBeNull()
    expect(host!.textContent).toContain('press Submit payment')
    expect(submitOrder).not.toHaveBeenCalled()
  })

  it('completes the order as soon as the card form says it finished, once however often it says so', async () => {
    const submitOrder = vi.fn(async () => ({ placed: true, status: 200, data: {} }))
    await renderPaya(submitOrder)
    await act(async () => {
      const message = JSON.stringify({ id: 'tx-1', status_id: 101 })
      window.dispatchEvent(new MessageEvent('message', { data: message, origin: ORIGIN }))
      window.dispatchEvent(new MessageEvent('message', { data: message, origin: ORIGIN }))
      // Another origin is ignored.
      window.dispatchEvent(new MessageEvent('message', { data: message, origin: 'https://evil.example' }))
      await new Promise((r) => setTimeout(r, 20))
    })
    expect(submitOrder).toHaveBeenCalledTimes(1)
    expect(submitOrder).toHaveBeenCalledWith({ reference: 'ref-0001' })
  })
})
