/**
 * A payment provider's script (Opayo's drop-in, PayPal's SDK, Amazon Pay's checkout.js), added
 * to the page once: every method component loads its provider's script through this.
 */
export class ScriptLoadError extends Error {
  constructor(readonly kind: 'timeout' | 'error') {
    super(`script ${kind}`)
  }
}

const loaded = new Map<string, Promise<void>>()

/** Adds the provider's script once; rejects with 'timeout' after `timeoutMs`, 'error' if it fails. */
export function loadScript(src: string, timeoutMs = 10_000): Promise<void> {
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
