/**
 * What the PayPal and Amazon Pay components share: loading a provider's script with a time-out,
 * the §8 texts and the read-only view of the details the provider returned (ADR 0073). Their
 * JSON calls go through lib/json-client.ts.
 */
export const WALLET_TEXT = {
  paypalOpen: 'Error opening PayPal window. Please refresh the page and try again.',
  paypalAddress:
    'Error getting address information from PayPal. Payment has not been taken. Please click on the PayPal button and try again.',
  paypalShipping: 'Error updating shipping options. Please click on the PayPal button and try again.',
  paypalTimeout: 'Loading of PayPal timed out after 6 seconds',
  amazonRender: 'Amazon payment button failed to render',
} as const

export class ScriptLoadError extends Error {
  constructor(readonly kind: 'timeout' | 'error') {
    super(`script ${kind}`)
  }
}

const loaded = new Map<string, Promise<void>>()

/** Adds the provider's script once; rejects with 'timeout' after `timeoutMs`, 'error' if it fails. */
export function loadScript(src: string, timeoutMs: number): Promise<void> {
  const known = loaded.get(src)
  if (known) return known
  const p = new Promise<void>((resolve, reject) => {
    const el = document.createElement('script')
    const timer = window.setTimeout(() => {
      el.remove()
      reject(new ScriptLoadError('timeout'))
    }, timeoutMs)
    el.src = src
    el.async = true
    el.onload = () => {
      window.clearTimeout(timer)
      resolve()
    }
    el.onerror = () => {
      window.clearTimeout(timer)
      el.remove()
      reject(new ScriptLoadError('error'))
    }
    document.head.appendChild(el)
  })
  // A failed load may be tried again on the next visit of the step.
  p.catch(() => loaded.delete(src))
  loaded.set(src, p)
  return p
}

export interface ImportedDetails {
  contact: Record<string, string>
  shipping_address: Record<string, string>
}
