import { afterEach, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../helpers/app.ts'

let current: TestApp | null = null
afterEach(async () => {
  await current?.close()
  current = null
})

describe('Server-Timing header', () => {
  it('reports the time spent in the server when SERVER_TIMING is on', async () => {
    current = await buildTestApp({ serverTiming: true })
    const res = await current.app.inject({ method: 'GET', url: '/healthz' })
    expect(res.headers['server-timing']).toMatch(/^app;dur=\d+\.\d{2}$/)
  })

  it('is absent by default, so response timings are not advertised', async () => {
    current = await buildTestApp()
    const res = await current.app.inject({ method: 'GET', url: '/healthz' })
    expect(res.headers['server-timing']).toBeUndefined()
  })
})
