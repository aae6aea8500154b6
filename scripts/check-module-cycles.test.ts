import { describe, expect, it } from 'vitest'
import { cycles, nodeOf } from './check-module-cycles.ts'

describe('the domain cycle check', () => {
  it('puts a module file, its tables included, in its module and a tool file in a node of its own', () => {
    expect(nodeOf('src/server/modules/cart/cart.tables.ts')).toBe('cart')
    expect(nodeOf('src/server/modules/checkout/wallets/wallets.service.ts')).toBe('checkout')
    expect(nodeOf('src/server/lib/sanitize.ts')).toBe('server/lib/sanitize')
    expect(nodeOf('src/client/pages/Basket.tsx')).toBe('client')
  })

  it('leaves tests and the files that put the shop together out of the graph', () => {
    expect(nodeOf('src/server/modules/cart/cart.pricing.test.ts')).toBeNull()
    expect(nodeOf('src/server/app.ts')).toBeNull()
    expect(nodeOf('src/server/db/schema.ts')).toBeNull()
    expect(nodeOf('src/server/db/seed/index.ts')).toBeNull()
    expect(nodeOf('src/server/modules/admin/cli.ts')).toBeNull()
  })

  it('finds two domains that reach each other through a third and none in a one-way chain', () => {
    const graph = (pairs: [string, string][]) => {
      const edges = new Map<string, Set<string>>()
      for (const [a, b] of pairs) edges.set(a, (edges.get(a) ?? new Set()).add(b))
      return edges
    }
    expect(
      cycles(
        graph([
          ['checkout', 'payments'],
          ['payments', 'orders'],
          ['orders', 'checkout'],
        ]),
      ),
    ).toEqual([['checkout', 'orders', 'payments']])
    expect(
      cycles(
        graph([
          ['checkout', 'payments'],
          ['payments', 'orders'],
          ['checkout', 'orders'],
        ]),
      ),
    ).toEqual([])
  })
})
