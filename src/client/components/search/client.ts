/**
 * The browser's search client: one `search({requests})` method in Algolia's multi-query shape,
 * sent to the shop server (which answers from the embedded engine or from Algolia), and click
 * events in Algolia Insights' shape. Clicks are also kept in sessionStorage (spec §3 "Stored in
 * the browser": query id, clicked object id, index).
 */
import {
  FIRST_LOAD_QUERY_ID_ATTRIBUTE,
  type ClickEvent,
  type SearchRequestBody,
  type SearchResponseBody,
} from '../../../shared/search.ts'
import { xsrfToken } from '../../lib/json-client.ts'

export const CLICKS_STORAGE_KEY = 'searchClicks'
const TOKEN_STORAGE_KEY = 'searchUserToken'
const MAX_STORED_CLICKS = 50

function headers(): Record<string, string> {
  const token = xsrfToken()
  return {
    'content-type': 'application/json',
    accept: 'application/json',
    ...(token ? { 'x-xsrf-token': token } : {}),
  }
}

/**
 * The click-analytics queryID of a Search page loaded as a document (its page object has none, so
 * its server render is shared, ADR 0112): from the data block in the document's head, when it
 * names the page at `url`. Null for any other page, or when analytics are off.
 */
export function firstLoadQueryID(url: string): string | null {
  if (typeof document === 'undefined') return null
  const block = document.querySelector(`script[${FIRST_LOAD_QUERY_ID_ATTRIBUTE}]`)
  if (!block?.textContent) return null
  try {
    const data = JSON.parse(block.textContent) as { url?: unknown; queryID?: unknown }
    return data.url === url && typeof data.queryID === 'string' ? data.queryID : null
  } catch {
    return null
  }
}

/** An anonymous token for this browser session (Insights' userToken). */
export function userToken(): string {
  try {
    let token = window.sessionStorage.getItem(TOKEN_STORAGE_KEY)
    if (!token) {
      token = `anonymous-${crypto.randomUUID()}`
      window.sessionStorage.setItem(TOKEN_STORAGE_KEY, token)
    }
    return token
  } catch {
    return 'anonymous'
  }
}

export const searchClient = {
  async search(body: SearchRequestBody, signal?: AbortSignal): Promise<SearchResponseBody> {
    const res = await fetch('/search/1/indexes/*/queries', {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    })
    if (!res.ok) throw new Error(`search failed (${res.status})`)
    return (await res.json()) as SearchResponseBody
  },
}

export interface StoredClick {
  queryID: string
  objectID: string
  /** 1-based position in its result list */
  index: number
}

/** Records a click on a search result: in sessionStorage and, when analytics are on, on the server. */
export function recordClick(click: StoredClick & { indexName: string; analytics: boolean }): void {
  try {
    const stored = JSON.parse(window.sessionStorage.getItem(CLICKS_STORAGE_KEY) ?? '[]') as StoredClick[]
    const next = [
      ...(Array.isArray(stored) ? stored : []),
      { queryID: click.queryID, objectID: click.objectID, index: click.index },
    ]
    window.sessionStorage.setItem(CLICKS_STORAGE_KEY, JSON.stringify(next.slice(-MAX_STORED_CLICKS)))
  } catch {
    // Storage may be unavailable (private mode); the server event still goes.
  }
  if (!click.analytics) return
  const event: ClickEvent = {
    eventType: 'click',
    eventName: 'Search result clicked',
    index: click.indexName,
    queryID: click.queryID,
    objectIDs: [click.objectID],
    positions: [click.index],
    userToken: userToken(),
  }
  const body = JSON.stringify({ events: [event] })
  // keepalive lets the request finish while the page navigates away.
  void fetch('/search/insights/1/events', {
    method: 'POST',
    headers: headers(),
    body,
    credentials: 'same-origin',
    keepalive: true,
  }).catch(() => {})
}
