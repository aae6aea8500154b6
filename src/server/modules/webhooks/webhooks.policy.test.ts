import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  DELIVERY_TRANSITIONS,
  disableReason,
  isSuccess,
  nextDeliveryStatus,
  RETRY_SCHEDULE_MS,
  retryDelayMs,
  type DeliveryEvent,
} from './webhooks.policy.ts'
import { DELIVERY_STATUSES, type DeliveryStatus } from './webhooks.tables.ts'

const events: DeliveryEvent[] = ['succeeded', 'failed', 'abandon']

describe('the delivery states', () => {
  it('never leave delivered or abandoned, whatever happens after', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...DELIVERY_STATUSES),
        fc.array(fc.constantFrom(...events)),
        (start, seq) => {
          let status: DeliveryStatus = start
          let finalSeen: DeliveryStatus | null = null
          for (const e of seq) {
            if (status === 'delivered' || status === 'abandoned') finalSeen ??= status
            status = nextDeliveryStatus(status, e) ?? status
            if (finalSeen) expect(status).toBe(finalSeen)
          }
        },
      ),
    )
  })

  it('reach delivered only on a success, and keep a failed delivery undelivered', () => {
    for (const from of DELIVERY_STATUSES) {
      for (const e of events) {
        const to = nextDeliveryStatus(from, e)
        if (to === 'delivered') expect(e).toBe('succeeded')
        if (e === 'failed' && to) expect(to).toBe('failed')
      }
    }
    expect(DELIVERY_TRANSITIONS.delivered).toEqual({})
  })

  it('count only a 2xx answer as success (a redirect or a 1xx is a failure)', () => {
    expect([200, 201, 204, 299].every(isSuccess)).toBe(true)
    expect([100, 199, 301, 302, 304, 400, 410, 429, 500, 503].some(isSuccess)).toBe(false)
  })
})

describe('the retry schedule', () => {
  it('waits 5 s, then 5 min, 30 min, 2 h … up to 24 h, each within 10 % either way', () => {
    expect(retryDelayMs(1, RETRY_SCHEDULE_MS, () => 0.5)).toBe(5_000)
    expect(retryDelayMs(2, RETRY_SCHEDULE_MS, () => 0.5)).toBe(300_000)
    expect(retryDelayMs(3, RETRY_SCHEDULE_MS, () => 0.5)).toBe(1_800_000)
    expect(retryDelayMs(4, RETRY_SCHEDULE_MS, () => 0.5)).toBe(7_200_000)
    expect(retryDelayMs(99, RETRY_SCHEDULE_MS, () => 0.5)).toBe(86_400_000)
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        (n, r) => {
          const base = RETRY_SCHEDULE_MS[Math.min(n, RETRY_SCHEDULE_MS.length) - 1]!
          const d = retryDelayMs(n, RETRY_SCHEDULE_MS, () => r)
          expect(d).toBeGreaterThanOrEqual(Math.floor(base * 0.9))
          expect(d).toBeLessThanOrEqual(Math.ceil(base * 1.1))
        },
      ),
    )
  })

  it('spans more than three days before an endpoint is given up', () => {
    const total = RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0)
    expect(total).toBeGreaterThan(3 * 86_400_000)
  })
})

describe('disabling an endpoint', () => {
  const since = new Date('2026-01-01T00:00:00Z')
  const at = (ms: number) => new Date(since.getTime() + ms)

  it('keeps retrying while the schedule lasts', () => {
    for (let n = 1; n <= RETRY_SCHEDULE_MS.length; n++) {
      expect(
        disableReason({ consecutiveFailures: n, failingSince: since, now: at(n * 1000), statusCode: 500 }),
      ).toBeNull()
    }
  })

  it('disables once every attempt of the schedule failed, saying since when', () => {
    const reason = disableReason({
      consecutiveFailures: RETRY_SCHEDULE_MS.length + 1,
      failingSince: since,
      now: at(3 * 86_400_000),
      statusCode: null,
    })
    expect(reason).toContain('2026-01-01T00:00:00.000Z')
  })

  it('disables an endpoint failing for five days whatever the count', () => {
    expect(
      disableReason({
        consecutiveFailures: 2,
        failingSince: since,
        now: at(5 * 86_400_000),
        statusCode: 502,
      }),
    ).toMatch(/failing since/)
  })

  it('disables at once on 410 Gone', () => {
    expect(
      disableReason({ consecutiveFailures: 1, failingSince: since, now: since, statusCode: 410 }),
    ).toMatch(/410 Gone/)
  })
})
