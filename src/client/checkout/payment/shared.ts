/** What the card components share: provider scripts. Their JSON calls, the 202 polling and the §8
 * error joining are lib/json-client.ts. */

const scripts = new Map<string, Promise<void>>()

/** Loads a provider's script once; rejects when it fails or takes longer than `timeoutMs`. */
export function loadScript(src: string, timeoutMs = 10_000): Promise<void> {
  const known = scripts.get(src)
  if (known) return known
  const p = new Promise<void>((resolve, reject) => {
    const el = document.createElement('script')
    const timer = setTimeout(() => reject(new Error('timeout')), timeoutMs)
    el.src = src
    el.async = true
    el.onload = () => {
      clearTimeout(timer)
      resolve()
    }
    el.onerror = () => {
      clearTimeout(timer)
      reject(new Error('failed'))
    }
    document.head.appendChild(el)
  })
  // A failed load may be tried again after a refresh of the method, not served from here.
  p.catch(() => scripts.delete(src))
  scripts.set(src, p)
  return p
}
