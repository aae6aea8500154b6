import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/server/config.ts'
import { buildTestApp, inertiaHeaders, type TestApp } from '../helpers/app.ts'

const TOKEN = 'preview-token-for-editors'
let t: TestApp
beforeAll(async () => {
  const base = loadConfig({ NODE_ENV: 'test' })
  t = await buildTestApp({ content: { ...base.content, previewToken: TOKEN } })
})
afterAll(async () => {
  await t?.close()
})

const visit = (url: string) => t.app.inject({ url, headers: { host: 'localhost', ...inertiaHeaders() } })

describe('draft preview', () => {
  it('shows a draft-only page with the preview token, uncached and not indexed', async () => {
    expect((await visit('/careers')).statusCode).toBe(404)
    const res = await visit(`/careers?_preview=${TOKEN}`)
    expect(res.statusCode).toBe(200)
    expect(res.json().props.title).toBe('Careers')
    expect(res.json().props.noindex).toBe(true)
    expect(res.headers['cache-control']).toBe('no-store')
    // The published cache is untouched: without the token it is still not found.
    expect((await visit('/careers')).statusCode).toBe(404)
  })

  it('ignores a wrong token', async () => {
    expect((await visit(`/careers?_preview=${TOKEN.replace(/.$/, 'x')}`)).statusCode).toBe(404)
    expect((await visit('/careers?_preview=short')).statusCode).toBe(404)
    expect((await visit('/careers?_preview[]=x')).statusCode).toBe(404)
  })
})
