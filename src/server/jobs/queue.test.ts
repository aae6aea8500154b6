import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { leaseFor, retryDelay, RunStats, withDeadline } from './queue.ts'

describe('the job queue helpers', () => {
  it('backs off exponentially within ±20 %, never beyond an hour', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.double({ min: 0, max: 0.999_999, noNaN: true }),
        (attempt, base, r) => {
          const exact = Math.min(3_600_000, base * 2 ** (attempt - 1))
          const d = retryDelay(attempt, base, () => r)
          expect(d).toBeGreaterThanOrEqual(Math.floor(exact * 0.8))
          expect(d).toBeLessThanOrEqual(Math.ceil(exact * 1.2))
        },
      ),
    )
    expect(retryDelay(3, 1000, () => 0.5)).toBe(4000)
  })

  it('gives every job a lease longer than its deadline, and refuses one that is not', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), (timeoutMs) => {
        expect(leaseFor({ timeoutMs })).toBeGreaterThan(timeoutMs)
      }),
    )
    expect(() => leaseFor({ timeoutMs: 5000, leaseMs: 5000 })).toThrow('longer than its timeout')
    expect(leaseFor({ timeoutMs: 5000, leaseMs: 5001 })).toBe(5001)
  })

  it('aborts the signal and rejects at the deadline, even when the work ends on the abort', async () => {
    let aborted = false
    const run = withDeadline(
      20,
      (signal) =>
        new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => {
            aborted = true
            resolve()
          }),
        ),
    )
    await expect(run).rejects.toThrow('timed out after 20 ms')
    expect(aborted).toBe(true)
    await expect(withDeadline(1000, async () => 7)).resolves.toBe(7)
  })

  it('counts runs and failures per name and reports how far a schedule is behind', async () => {
    let now = 0
    const stats = new RunStats(() => now)
    stats.register('sweep')
    stats.setEvery('sweep', 1000)
    expect(() => stats.register('sweep')).toThrow('job sweep is already registered')
    await stats.track('sweep', async () => {})
    await expect(
      stats.track('sweep', async () => Promise.reject(new Error('database went away'))),
    ).rejects.toThrow()
    expect(stats.status(true)[0]).toMatchObject({ runs: 1, failures: 1, lastError: 'database went away' })
    now = 3500
    expect(stats.status(true)[0]!.lagSeconds).toBe(2.5)
    expect(stats.status(false)[0]!.lagSeconds).toBe(0)
  })
})
