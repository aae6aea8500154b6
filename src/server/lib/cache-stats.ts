/**
 * Hit and miss counts of the in-process caches, per cache name, for `/metrics`. Process-wide
 * (the numbers describe this process whichever app instance in it asked).
 */
const counts = new Map<string, { hits: number; misses: number }>()

export function recordCache(cache: string, hit: boolean): void {
  let c = counts.get(cache)
  if (!c) counts.set(cache, (c = { hits: 0, misses: 0 }))
  if (hit) c.hits++
  else c.misses++
}

export function cacheCounts(): ReadonlyMap<string, { hits: number; misses: number }> {
  return counts
}
