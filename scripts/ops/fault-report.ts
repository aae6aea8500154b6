/**
 * The load test's figures: every request is one sample (its type, when it was due, how long it
 * took from then, and what went wrong if anything). Samples are cut into phases by the time they
 * were due (before the first fault, during the faults, after), and each type gets its count,
 * exact p50/p95 over the answered requests, and its failures counted by kind.
 */

export interface Sample {
  type: string
  /** When the request was due (ms, performance.now() clock) */
  due: number
  /** From `due` to the answer (or to the failure) */
  ms: number
  /** null: answered as expected; else the kind of failure ('refused', 'reset', 'timeout', 'http 503', …) */
  error: string | null
  /** The request got an HTTP answer (even an error status): its latency counts in the percentiles */
  answered: boolean
}

export interface Phase {
  name: string
  from: number
  to: number
}

export interface PhaseFigures {
  requests: number
  p50: number
  p95: number
  errors: number
}

export interface TypeRow {
  type: string
  phases: Record<string, PhaseFigures>
  all: PhaseFigures
}

/** The exact p-th percentile (nearest rank) of an ascending array; NaN when empty. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[i]!
}

function figures(samples: Sample[]): PhaseFigures {
  const answered = Float64Array.from(samples.filter((s) => s.answered).map((s) => s.ms)).sort()
  return {
    requests: samples.length,
    p50: percentile(answered, 50),
    p95: percentile(answered, 95),
    errors: samples.filter((s) => s.error !== null).length,
  }
}

/** The phase a moment falls in (the last phase also takes what is due at or after its end). */
export function phaseOf(phases: Phase[], due: number): string | null {
  for (const p of phases) if (due >= p.from && due < p.to) return p.name
  const last = phases.at(-1)
  return last && due >= last.to ? last.name : null
}

/** One row per request type (in first-seen order), with figures per phase and overall. */
export function summarise(samples: Sample[], phases: Phase[]): TypeRow[] {
  const byType = new Map<string, Sample[]>()
  for (const s of samples) {
    const list = byType.get(s.type)
    if (list) list.push(s)
    else byType.set(s.type, [s])
  }
  return [...byType].map(([type, list]) => {
    const perPhase: Record<string, PhaseFigures> = {}
    for (const p of phases) perPhase[p.name] = figures(list.filter((s) => phaseOf(phases, s.due) === p.name))
    return { type, phases: perPhase, all: figures(list) }
  })
}

/** Failures per type and kind: { 'order: complete (card)': { refused: 3, 'http 503': 1 } }. */
export function errorsByKind(samples: Sample[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {}
  for (const s of samples) {
    if (s.error === null) continue
    const kinds = (out[s.type] ??= {})
    kinds[s.error] = (kinds[s.error] ?? 0) + 1
  }
  return out
}

const ms = (v: number) => (Number.isNaN(v) ? '–' : v < 10 ? v.toFixed(1) : v.toFixed(0))

/** A Markdown table: per type, `n · p50 / p95 ms · errors` for each phase. */
export function markdownTable(rows: TypeRow[], phases: Phase[]): string {
  const head = ['request', ...phases.map((p) => `${p.name}: n, p50 / p95 ms, errors`), 'whole run: p50 / p95']
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`]
  for (const r of rows) {
    const cells = phases.map((p) => {
      const f = r.phases[p.name]!
      return `${f.requests}, ${ms(f.p50)} / ${ms(f.p95)}, ${f.errors}`
    })
    lines.push(`| ${r.type} | ${cells.join(' | ')} | ${ms(r.all.p50)} / ${ms(r.all.p95)} |`)
  }
  return lines.join('\n')
}
