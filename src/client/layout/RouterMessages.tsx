/**
 * Turns failed navigations into messages in the layout's error box instead of leaving the page:
 * a network failure, an expired page (419: the server has already sent fresh tokens, so trying
 * again works) and rate limiting (429). Other error statuses render their error page as usual.
 */
import { router } from '@inertiajs/react'
import { useEffect } from 'react'
import { useMessages } from '../lib/messages.tsx'

export const NETWORK_ERROR = 'We could not reach the shop. Please check your connection and try again.'
const KEEP_PAGE_STATUSES = new Set([419, 429])

/** The message of an error response: the Error page's `message` prop or a JSON `message`. */
export function messageOf(data: unknown): string | null {
  let value = data
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value)
    } catch {
      return null
    }
  }
  if (!value || typeof value !== 'object') return null
  const v = value as { message?: unknown; props?: { message?: unknown } }
  const message = v.props?.message ?? v.message
  return typeof message === 'string' && message.trim() ? message : null
}

export function RouterMessages() {
  const { pushError } = useMessages()
  useEffect(() => {
    const offNetwork = router.on('networkError', (event) => {
      pushError(NETWORK_ERROR)
      event.preventDefault()
    })
    const offHttp = router.on('httpException', (event) => {
      const { response } = event.detail
      if (!KEEP_PAGE_STATUSES.has(response.status)) return
      pushError(messageOf(response.data) ?? 'Something went wrong. Please try again.')
      event.preventDefault()
    })
    return () => {
      offNetwork()
      offHttp()
    }
  }, [pushError])
  return null
}
