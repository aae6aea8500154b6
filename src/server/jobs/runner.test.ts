import { afterEach, describe, expect, it, vi } from 'vitest'
import { JobRunner } from './runner.ts'

afterEach(() => {
  vi.useRealTimers()
})

describe('JobRunner', () => {
  it('runs each job after its first delay and then every interval, never overlapping itself', async () => {
    vi.useFakeTimers()
    const runner = new JobRunner(undefined, () => Date.now())
    let active = 0
    let maxActive = 0
    let runs = 0
    runner.add({
      name: 'slow',
      everyMs: 1000,
      firstRunMs: 100,
      runOnce: async () => {
        active++
        maxActive = Math.max(maxActive, active)
        await new Promise((r) => setTimeout(r, 1500))
        active--
        runs++
      },
    })
    runner.start()
    await vi.advanceTimersByTimeAsync(99)
    expect(runs).toBe(0)
    await vi.advanceTimersByTimeAsync(1601)
    expect(runs).toBe(1)
    await vi.advanceTimersByTimeAsync(2500)
    expect(runs).toBe(2)
    expect(maxActive).toBe(1)
    await runner.stop()
  })

  it('records a failure and keeps the schedule going', async () => {
    vi.useFakeTimers()
    const runner = new JobRunner()
    let calls = 0
    runner.add({
      name: 'flaky',
      everyMs: 100,
      firstRunMs: 0,
      runOnce: async () => {
        calls++
        if (calls === 1) throw new Error('database went away')
        return 3
      },
    })
    runner.start()
    await vi.advanceTimersByTimeAsync(1)
    expect(runner.status()[0]).toMatchObject({ failures: 1, runs: 0, lastError: 'database went away' })
    await vi.advanceTimersByTimeAsync(100)
    expect(runner.status()[0]).toMatchObject({ failures: 1, runs: 1, lastError: null })
    await runner.stop()
  })

  it('stops scheduling on stop() and waits for the run in progress', async () => {
    vi.useFakeTimers()
    const runner = new JobRunner()
    let finished = false
    let calls = 0
    runner.add({
      name: 'long',
      everyMs: 10,
      firstRunMs: 0,
      runOnce: async () => {
        calls++
        await new Promise((r) => setTimeout(r, 50))
        finished = true
      },
    })
    runner.start()
    await vi.advanceTimersByTimeAsync(1)
    const stopping = runner.stop()
    await vi.advanceTimersByTimeAsync(60)
    await stopping
    expect(finished).toBe(true)
    await vi.advanceTimersByTimeAsync(1000)
    expect(calls).toBe(1)
  })

  it('reports how far behind schedule a job is', async () => {
    let now = 0
    const runner = new JobRunner(undefined, () => now)
    runner.add({ name: 'sweep', everyMs: 1000, firstRunMs: 1000, runOnce: async () => {} })
    runner.start()
    now = 3500
    expect(runner.status()[0]!.lagSeconds).toBe(2.5)
    await runner.stop()
    expect(runner.status()[0]!.lagSeconds).toBe(0)
  })

  it('refuses two jobs of one name', () => {
    const runner = new JobRunner()
    const job = { name: 'x', everyMs: 10, runOnce: async () => {} }
    runner.add(job)
    expect(() => runner.add(job)).toThrow('job x is already registered')
  })
})
