/**
 * A small seeded pseudo-random generator (mulberry32) and helpers, so the demo catalogue is the
 * same on every run and every machine. Never use Math.random in the seed.
 */
import { createHash } from 'node:crypto'

/** 32-bit FNV-1a hash of a string: turns names into seeds. */
export function hashString(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** mulberry32: returns a function yielding floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export class Random {
  private readonly next: () => number

  constructor(seed: number | string) {
    this.next = mulberry32(typeof seed === 'string' ? hashString(seed) : seed)
  }

  /** A float in [0, 1). */
  float(): number {
    return this.next()
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  /** True with the given probability. */
  chance(probability: number): boolean {
    return this.next() < probability
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list')
    return items[Math.floor(this.next() * items.length)] as T
  }

  /** A shuffled copy (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items]
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1))
      ;[out[i], out[j]] = [out[j] as T, out[i] as T]
    }
    return out
  }

  /** `count` distinct items in random order (fewer when the list is shorter). */
  sample<T>(items: readonly T[], count: number): T[] {
    return this.shuffle(items).slice(0, Math.max(0, count))
  }

  /** A child generator whose sequence depends only on this one's seed and the label. */
  fork(label: string): Random {
    return new Random(hashString(`${label}:${this.int(0, 0x7fffffff)}`))
  }
}

/** A stable UUID (version 5 layout) derived from a name, so re-seeding keeps uuids unchanged. */
export function stableUuid(name: string): string {
  const bytes = createHash('sha1').update(`shop-seed:${name}`).digest().subarray(0, 16)
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** 'Fire Exit Sign – Running Man' → 'fire-exit-sign-running-man' */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

export function weighted<T>(rng: Random, choices: readonly [T, number][]): T {
  const total = choices.reduce((n, [, w]) => n + w, 0)
  let roll = rng.float() * total
  for (const [value, weight] of choices) {
    roll -= weight
    if (roll < 0) return value
  }
  return (choices[choices.length - 1] as [T, number])[0]
}

/** Picks between min and max items, keeping the list's own order (sizes stay small to large). */
export function pickInOrder<T>(rng: Random, items: readonly T[], [min, max]: [number, number]): T[] {
  const count = Math.min(items.length, rng.int(min, max))
  const chosen = new Set(
    rng.sample(
      items.map((_, i) => i),
      count,
    ),
  )
  return items.filter((_, i) => chosen.has(i))
}
