import { describe, expect, it } from 'vitest'
import {
  errorsByKind,
  markdownTable,
  percentile,
  phaseOf,
  summarise,
  type Phase,
  type Sample,
} from './fault-report.ts'
import { seeded, weighted } from './fault-traffic.ts'

const phases: Phase[] = [
  { name: 'before', from: 0, to: 100 },
  { name: 'faults', from: 100, to: 200 },
  { name: 'after', from: 200, to: 300 },
]

const sample = (
  type: string,
  due: number,
  ms: number,
  error: string | null = null,
  answered = true,
): Sample => ({
  type,
  due,
  ms,
  error,
  answered,
})

describe('load test figures', () => {
  it('takes the nearest-rank percentile of the sorted latencies, NaN for none', () => {
    const sorted = Float64Array.from({ length: 100 }, (_, i) => i + 1)
    expect(percentile(sorted, 50)).toBe(50)
    expect(percentile(sorted, 95)).toBe(95)
    expect(percentile([7], 95)).toBe(7)
    expect(percentile([], 50)).toBeNaN()
  })

  it('puts a request in the phase it was due in, the last phase taking what is due after its end', () => {
    expect(phaseOf(phases, 0)).toBe('before')
    expect(phaseOf(phases, 100)).toBe('faults')
    expect(phaseOf(phases, 299.9)).toBe('after')
    expect(phaseOf(phases, 350)).toBe('after')
    expect(phaseOf(phases, -1)).toBeNull()
  })

  it('counts failures per phase but leaves requests with no answer out of the percentiles', () => {
    const samples = [
      sample('home', 10, 5),
      sample('home', 20, 7),
      sample('home', 150, 900, 'http 500'),
      sample('home', 160, 3000, 'refused', false),
      sample('home', 250, 6),
      sample('search', 30, 2),
    ]
    const [home, search] = summarise(samples, phases)
    expect(home!.type).toBe('home')
    expect(home!.phases.before).toEqual({ requests: 2, p50: 5, p95: 7, errors: 0 })
    // The 500 answered (its latency counts); the refused connection did not.
    expect(home!.phases.faults).toEqual({ requests: 2, p50: 900, p95: 900, errors: 2 })
    expect(home!.phases.after).toMatchObject({ requests: 1, errors: 0 })
    expect(home!.all).toMatchObject({ requests: 5, errors: 2, p95: 900 })
    expect(search!.phases.faults!.requests).toBe(0)
    expect(search!.phases.faults!.p50).toBeNaN()
    expect(errorsByKind(samples)).toEqual({ home: { 'http 500': 1, refused: 1 } })
    const table = markdownTable([home!, search!], phases)
    expect(table.split('\n')).toHaveLength(4)
    expect(table).toContain('| search | 1, 2.0 / 2.0, 0 | 0, – / –, 0 |')
  })
})

describe('the traffic mix', () => {
  it('is the same sequence for the same seed and follows the weights', () => {
    const a = seeded(32)
    const b = seeded(32)
    const first = Array.from({ length: 5 }, () => a())
    expect(Array.from({ length: 5 }, () => b())).toEqual(first)
    const random = seeded(7)
    const counts = { x: 0, y: 0, z: 0 }
    for (let i = 0; i < 20_000; i++) counts[weighted({ x: 1, y: 3, z: 0 }, random())]++
    expect(counts.z).toBe(0)
    expect(counts.y / counts.x).toBeGreaterThan(2.7)
    expect(counts.y / counts.x).toBeLessThan(3.3)
  })
})
