/** Helpers the payment components share: provider scripts, JSON posts, the §8 error joining. */
import { CHECKOUT_TEXT } from '../../../shared/checkout-text.ts'
import { xsrfToken } from '../../lib/post-json.ts'

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

export async function postJsonData(url: string, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      'x-xsrf-token': xsrfToken(),
    },
    body: JSON.stringify(body),
  })
  const data = (await res.json().catch(() => null)) as Record<string, unknown> | null
  return { ok: res.ok, status: res.status, data }
}

/** §8: object or string errors joined ('. '), else the message, else 'Something went wrong.' */
export function errorText(data: Record<string, unknown> | null): string {
  const errors = (data?.errors ?? {}) as Record<string, string[] | string>
  const list = [...new Set(Object.values(errors).flatMap((v) => (Array.isArray(v) ? v : [v])))]
  return list.length
    ? list.join('. ')
    : typeof data?.message === 'string'
      ? data.message
      : CHECKOUT_TEXT.somethingWrong
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
