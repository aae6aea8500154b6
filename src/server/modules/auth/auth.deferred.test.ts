import { describe, expect, it, vi } from 'vitest'
import { DeferredWork } from './auth.deferred.ts'

describe('deferred account work', () => {
  it('runs nothing at once, then every task in order after the delay', async () => {
    vi.useFakeTimers()
    try {
      const done: number[] = []
      const work = new DeferredWork({ delayMs: () => 300 })
      for (const n of [1, 2, 3]) work.add(async () => void done.push(n))
      expect(done).toEqual([])
      expect(work.pending).toBe(3)
      await vi.advanceTimersByTimeAsync(299)
      expect(done).toEqual([])
      await vi.advanceTimersByTimeAsync(1)
      expect(done).toEqual([1, 2, 3])
      expect(work.pending).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })

  it('drains on demand, logs a failing task and goes on with the next', async () => {
    const errors: object[] = []
    const work = new DeferredWork({ delayMs: () => 60_000, log: { error: (o) => void errors.push(o) } })
    const done: string[] = []
    work.add(async () => {
      throw new Error('mail server down')
    })
    work.add(async () => void done.push('after'))
    await work.drain()
    expect(done).toEqual(['after'])
    expect(errors).toHaveLength(1)
  })

  it('runs a task queued while a batch runs, and what is left at close', async () => {
    const work = new DeferredWork({ delayMs: () => 60_000 })
    const done: string[] = []
    work.add(async () => {
      done.push('first')
      work.add(async () => void done.push('queued meanwhile'))
    })
    work.add(async () => void done.push('last'))
    await work.close()
    expect(done).toEqual(['first', 'last', 'queued meanwhile'])
  })
})
