import { describe, expect, it } from 'vitest'
import type { Page } from './page.ts'
import type { SsrContext, SsrRenderer } from './ssr.ts'
import { memoizeSsr } from './ssr-cache.ts'

const ctx = { log: { error: () => {} } } as unknown as SsrContext
const page = (props: Record<string, unknown>): Page =>
  ({ component: 'Home', props: { errors: {}, ...props }, url: '/', version: '1' }) as Page

function counting(): SsrRenderer & { calls: number } {
  const r = Object.assign(
    async (p: Page) => {
      r.calls++
      return { head: [`<title>${String(p.props.name)}</title>`], body: `<div>${String(p.props.name)}</div>` }
    },
    { calls: 0 },
  )
  return r
}

describe('memoizeSsr', () => {
  it('renders an identical page object once and reuses the result', async () => {
    const inner = counting()
    const ssr = memoizeSsr(inner)
    const a = await ssr(page({ name: 'A' }), ctx)
    const b = await ssr(page({ name: 'A' }), ctx)
    expect(b).toEqual(a)
    expect(inner.calls).toBe(1)
  })

  it('renders again when anything in the page differs, such as a logged-in customer', async () => {
    const inner = counting()
    const ssr = memoizeSsr(inner)
    await ssr(page({ name: 'A', auth: { customer: null } }), ctx)
    const other = await ssr(page({ name: 'A', auth: { customer: { id: 1 } } }), ctx)
    expect(inner.calls).toBe(2)
    expect(other?.body).toBe('<div>A</div>')
  })

  it('does not keep a failed render', async () => {
    let fail = true
    const ssr = memoizeSsr(async () => (fail ? null : { head: [], body: 'ok' }))
    expect(await ssr(page({}), ctx)).toBeNull()
    fail = false
    expect(await ssr(page({}), ctx)).toEqual({ head: [], body: 'ok' })
  })

  it('forgets renders after the time to live', async () => {
    const inner = counting()
    const ssr = memoizeSsr(inner, { ttlMs: 1 })
    await ssr(page({ name: 'A' }), ctx)
    await new Promise((r) => setTimeout(r, 5))
    await ssr(page({ name: 'A' }), ctx)
    expect(inner.calls).toBe(2)
  })
})
