/**
 * The page's one JSON client (ADR 0156): every call the page makes to the shop's JSON endpoints
 * outside an Inertia visit (basket, checkout, payment methods, account, content forms) goes
 * through `requestJson`, which sends what Inertia's own client sends (the XSRF-TOKEN cookie back
 * as X-XSRF-TOKEN, `X-Requested-With`) and reads the shop's answer shapes:
 *
 * - success: the endpoint's own body (a basket, `{ redirect }`, `{ merchantSessionKey }`, …);
 * - refusal: `{ message }`, with field errors as `{ errors: { field: [messages] } }` (422);
 * - 202: still being confirmed with a provider; `untilSettled` asks again a few times;
 * - 419: the token had expired: the server set a fresh one with the refusal, and the call is
 *   sent once more with it (a 419 is refused before any handler runs, so nothing is done twice);
 * - no answer at all (network down): status 0 with the spec's generic message, never a throw.
 *
 * `joinErrors` and `errorList` are the one reading of a refusal's messages (spec §8).
 */
/**
 * §8's generic message: CHECKOUT_TEXT.somethingWrong (a test keeps them equal). Written here so
 * the basket's calls on every page do not bring the checkout's texts into the first load.
 */
export const SOMETHING_WENT_WRONG = 'Something went wrong.'

/** A refusal's field errors: each field's message, or its messages. */
type ErrorMap = Record<string, string[] | string>

/** What the shop answers, as far as this client reads it; the rest is the endpoint's own. */
export interface AnswerBody {
  message?: unknown
  errors?: unknown
  redirect?: unknown
  [key: string]: unknown
}

export interface JsonAnswer<T extends object = AnswerBody> {
  ok: boolean
  status: number
  /** The parsed body; null when the answer had none or it was not JSON. */
  data: (T & AnswerBody) | null
}

type JsonMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE'

/** The CSRF token the server gave this browser (the XSRF-TOKEN cookie), '' when none. */
export function xsrfToken(): string {
  if (typeof document === 'undefined') return ''
  const match = /(?:^|;\s*)XSRF-TOKEN=([^;]*)/.exec(document.cookie)
  return match ? decodeURIComponent(match[1] ?? '') : ''
}

/** Status of an answer that never came (the network failed): the call was not refused. */
const NO_ANSWER = 0

async function send(method: JsonMethod, url: string, body: unknown, token: string): Promise<Response> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'x-requested-with': 'XMLHttpRequest',
  }
  if (token) headers['x-xsrf-token'] = token
  if (body !== undefined) headers['content-type'] = 'application/json'
  return fetch(url, {
    method,
    credentials: 'same-origin',
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  })
}

/**
 * One JSON call. Never throws: a network failure answers status 0 with the spec's generic
 * message ('Something went wrong.'), so every caller has one failure path.
 */
export async function requestJson<T extends object = AnswerBody>(
  method: JsonMethod,
  url: string,
  body?: unknown,
): Promise<JsonAnswer<T>> {
  try {
    const token = xsrfToken()
    let res = await send(method, url, body, token)
    // An expired token: the 419 carried a fresh one (a cookie); one more try with it.
    const fresh = res.status === 419 ? xsrfToken() : ''
    if (fresh && fresh !== token) res = await send(method, url, body, fresh)
    const data = (await res.json().catch(() => null)) as unknown
    return {
      ok: res.ok,
      status: res.status,
      data: data !== null && typeof data === 'object' ? (data as T & AnswerBody) : null,
    }
  } catch {
    return { ok: false, status: NO_ANSWER, data: { message: SOMETHING_WENT_WRONG } as T & AnswerBody }
  }
}

/** The refusal's field messages, each once, in the order the server gave them. */
export function errorList(data: { errors?: unknown } | null | undefined): string[] {
  const errors = data?.errors
  if (!errors || typeof errors !== 'object') return []
  const list = Object.values(errors as ErrorMap).flatMap((v) => (Array.isArray(v) ? v : [v]))
  return [...new Set(list.filter((m): m is string => typeof m === 'string' && m !== ''))]
}

/**
 * §8: the field messages joined with '. ', else the message, else `fallback` ('Something went
 * wrong.' unless the caller has its own).
 */
export function joinErrors(
  data: { errors?: unknown; message?: unknown } | null | undefined,
  fallback: string = SOMETHING_WENT_WRONG,
): string {
  const list = errorList(data)
  if (list.length) return list.join('. ')
  return typeof data?.message === 'string' && data.message ? data.message : fallback
}

/** Where the server sends the page next (`{ redirect }`), if it says. */
export function redirectOf(data: { redirect?: unknown } | null | undefined): string | null {
  return typeof data?.redirect === 'string' && data.redirect ? data.redirect : null
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** How often and how long `untilSettled` asks again: 5 times, 2, 4, 6, 8 and 10 s apart. */
const PENDING_POLL = { retries: 5, delayMs: (attempt: number) => 2000 * (attempt + 1) }

/**
 * A payment still being confirmed with its provider answers 202: ask again, a little later each
 * time, until it answers anything else or the tries run out (the last answer is returned).
 */
export async function untilSettled<R extends { status: number }>(
  attempt: () => Promise<R>,
  poll: { retries: number; delayMs: (attempt: number) => number } = PENDING_POLL,
): Promise<R> {
  let result = await attempt()
  for (let i = 0; result.status === 202 && i < poll.retries; i++) {
    await sleep(poll.delayMs(i))
    result = await attempt()
  }
  return result
}
