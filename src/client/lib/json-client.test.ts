// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CHECKOUT_TEXT } from '../../shared/checkout-text.ts'
import {
  errorList,
  joinErrors,
  redirectOf,
  requestJson,
  SOMETHING_WENT_WRONG,
  untilSettled,
  xsrfToken,
} from './json-client.ts'

interface Sent {
  url: string
  method: string
  headers: Record<string, string>
  body: string | undefined
}

let sent: Sent[] = []
/** The answers the stubbed network gives, in order; a function may set cookies as a server would. */
let answers: (() => Response)[] = []

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

function setToken(token: string) {
  document.cookie = `XSRF-TOKEN=${encodeURIComponent(token)}; path=/`
}

beforeEach(() => {
  sent = []
  answers = []
  setToken('token-1')
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      sent.push({
        url,
        method: String(init.method),
        headers: init.headers as Record<string, string>,
        body: init.body as string | undefined,
      })
      const next = answers.shift()
      if (!next) throw new Error('no answer queued')
      return next()
    }),
  )
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('requestJson', () => {
  it('sends the body as JSON with the CSRF token from the cookie, as Inertia does', async () => {
    answers.push(() => json(200, { cart: { id: 'c1' } }))
    const res = await requestJson<{ cart: { id: string } }>('POST', '/cart/add', { quantity: 2 })
    expect(res).toEqual({ ok: true, status: 200, data: { cart: { id: 'c1' } } })
    expect(sent).toHaveLength(1)
    expect(sent[0]!.headers).toEqual({
      accept: 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      'x-xsrf-token': 'token-1',
      'content-type': 'application/json',
    })
    expect(JSON.parse(sent[0]!.body!)).toEqual({ quantity: 2 })
  })

  it('sends no body and no content type when there is nothing to send', async () => {
    answers.push(() => json(200, { user: { id: 7 } }))
    await requestJson('GET', '/customer/data')
    expect(sent[0]!.body).toBeUndefined()
    expect(sent[0]!.headers['content-type']).toBeUndefined()
  })

  it('gives a refusal’s status, message and field errors to the caller', async () => {
    answers.push(() => json(422, { message: 'Invalid.', errors: { email: ['Enter an e-mail.'] } }))
    const res = await requestJson('POST', '/customer/update-contact', {})
    expect(res.ok).toBe(false)
    expect(res.status).toBe(422)
    expect(joinErrors(res.data)).toBe('Enter an e-mail.')
  })

  it('reads an answer that is not JSON as no body', async () => {
    answers.push(() => new Response('<html>Bad gateway</html>', { status: 502 }))
    expect(await requestJson('POST', '/forms/1', {})).toEqual({ ok: false, status: 502, data: null })
  })

  it('answers status 0 with the spec’s message when the network fails, without throwing', async () => {
    answers.push(() => {
      throw new TypeError('Failed to fetch')
    })
    const res = await requestJson('POST', '/checkout/complete', {})
    expect(res).toEqual({ ok: false, status: 0, data: { message: CHECKOUT_TEXT.somethingWrong } })
    expect(joinErrors(res.data)).toBe('Something went wrong.')
  })

  it('sends once more with the fresh token a 419 brought, and only once', async () => {
    answers.push(() => {
      setToken('token-2') // the server's fresh token, set with the refusal
      return json(419, { message: 'This page has expired.' })
    })
    answers.push(() => json(200, { ok: true }))
    const res = await requestJson('POST', '/cart/save', { basketName: 'Spring' })
    expect(res.status).toBe(200)
    expect(sent.map((s) => s.headers['x-xsrf-token'])).toEqual(['token-1', 'token-2'])
    expect(sent[1]!.body).toBe(sent[0]!.body)
  })

  it('gives a 419 to the caller when no fresh token came with it', async () => {
    answers.push(() => json(419, { message: 'This page has expired.' }))
    const res = await requestJson('POST', '/cart/save', {})
    expect(res.status).toBe(419)
    expect(sent).toHaveLength(1)
    expect(joinErrors(res.data)).toBe('This page has expired.')
  })

  it('sends no token header when the browser holds none', async () => {
    document.cookie = 'XSRF-TOKEN=; max-age=0; path=/'
    expect(xsrfToken()).toBe('')
    answers.push(() => json(200, {}))
    await requestJson('POST', '/logout', { redirect: false })
    expect(sent[0]!.headers['x-xsrf-token']).toBeUndefined()
  })
})

describe('joinErrors and errorList', () => {
  it('joins every field’s messages with ". ", each message once', () => {
    const data = { message: 'ignored', errors: { a: ['One', 'Two'], b: 'One', c: ['Three'] } }
    expect(errorList(data)).toEqual(['One', 'Two', 'Three'])
    expect(joinErrors(data)).toBe('One. Two. Three')
  })

  it('falls back to the message, then to the caller’s text, then to "Something went wrong."', () => {
    expect(joinErrors({ message: 'Basket not found.', errors: {} })).toBe('Basket not found.')
    expect(joinErrors({ errors: { a: [] } }, 'Failed to save.')).toBe('Failed to save.')
    expect(joinErrors(null)).toBe('Something went wrong.')
    expect(joinErrors({ message: '' }, '')).toBe('')
  })

  it('ignores what is not a message', () => {
    expect(errorList({ errors: { a: [1, null, 'Kept'], b: { nested: 'x' } } })).toEqual(['Kept'])
    expect(errorList({ errors: 'not a map' })).toEqual([])
  })
})

describe('the generic message', () => {
  it('is the checkout’s §8 text, word for word', () => {
    expect(SOMETHING_WENT_WRONG).toBe(CHECKOUT_TEXT.somethingWrong)
  })
})

describe('redirectOf', () => {
  it('reads where the server sends the page, if it says', () => {
    expect(redirectOf({ redirect: '/checkout/complete?order=1' })).toBe('/checkout/complete?order=1')
    expect(redirectOf({ redirect: '' })).toBeNull()
    expect(redirectOf({ redirect: 3 })).toBeNull()
    expect(redirectOf(null)).toBeNull()
  })
})

describe('untilSettled', () => {
  it('asks again while the answer is 202, waiting longer each time, and returns the first other answer', async () => {
    vi.useFakeTimers()
    const statuses = [202, 202, 200]
    const attempt = vi.fn(async () => ({ status: statuses.shift()! }))
    const done = untilSettled(attempt)
    await vi.advanceTimersByTimeAsync(1999)
    expect(attempt).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(attempt).toHaveBeenCalledTimes(2)
    await vi.advanceTimersByTimeAsync(4000)
    expect(await done).toEqual({ status: 200 })
    expect(attempt).toHaveBeenCalledTimes(3)
  })

  it('stops after the last try and returns the 202 it got', async () => {
    const attempt = vi.fn(async () => ({ status: 202 }))
    const result = await untilSettled(attempt, { retries: 3, delayMs: () => 0 })
    expect(result.status).toBe(202)
    expect(attempt).toHaveBeenCalledTimes(4)
  })

  it('does not ask again when the first answer is not 202', async () => {
    const attempt = vi.fn(async () => ({ status: 402 }))
    await untilSettled(attempt, { retries: 3, delayMs: () => 0 })
    expect(attempt).toHaveBeenCalledTimes(1)
  })
})
