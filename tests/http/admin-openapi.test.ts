/**
 * The integration API's OpenAPI document (ADR 0220): generated from the routes' zod schemas,
 * valid by a well-kept validator (@readme/openapi-parser), with the bearer scheme on every
 * operation and the order writes' Idempotency-Key and If-Match headers. tests/http/admin-bounds
 * sends requests derived from it and asserts no 5xx.
 */
import { compileErrors, validate } from '@readme/openapi-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let doc: {
  openapi: string
  components: { securitySchemes: Record<string, unknown> }
  paths: Record<string, Record<string, { parameters?: { name: string; in: string; required?: boolean }[] }>>
}
beforeAll(async () => {
  t = await buildTestApp()
  doc = (await t.app.inject({ url: '/api/admin/v1/openapi.json', headers: { host: 'localhost' } })).json()
})
afterAll(() => t?.close())

describe('the generated OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(structuredClone(doc) as never)
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true)
    expect(doc.openapi).toBe('3.1.0')
  })

  it('describes the order and customer routes with their headers', () => {
    for (const path of ['/orders', '/orders/{number}', '/customers', '/orders/{number}/refunds'])
      expect(doc.paths[path], path).toBeDefined()
    const hold = doc.paths['/orders/{number}/hold']!.post!
    const headers = hold
      .parameters!.filter((p) => p.in === 'header')
      .map((p) => [p.name, p.required ?? false])
    expect(headers).toEqual(
      expect.arrayContaining([
        ['idempotency-key', true],
        ['if-match', false],
      ]),
    )
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' })
  })

  it('is rejected by the validator when it is broken, so the check can fail', async () => {
    const broken = structuredClone(doc) as unknown as { paths: Record<string, unknown> }
    broken.paths['/orders/{number}'] = { get: { responses: 'none' } }
    const result = await validate(broken as never)
    expect(result.valid).toBe(false)
  })
})
