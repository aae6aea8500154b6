/**
 * Issue 29, defect 10: the back-office API must never answer 5xx to a value, whatever its own
 * document says. The requests are DERIVED from the served OpenAPI document: every operation with
 * a body, a path or a query, every field its schemas name (nested ones included), the values at
 * and one past each bound, int4 and JavaScript extremes, NUL and other control characters, lone
 * surrogates, very long strings and wrong types, plus fast-check's arbitrary values. The valid
 * base of each request is the document's own example, so every other field is good and a bad
 * value reaches as far into the service and the database as it can.
 *
 * Runs on PGlite in the normal suite; with DATABASE_URL on real PostgreSQL (stricter about NUL,
 * surrogates and integer overflow).
 */
import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { INT4_MAX, INT4_MIN } from '../../src/server/modules/admin/admin.fields.ts'
import { AdminTokens } from '../../src/server/modules/admin/admin.tokens.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Schema = {
  type?: string | string[]
  anyOf?: Schema[]
  properties?: Record<string, Schema>
  items?: Schema
  additionalProperties?: Schema | boolean
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  minLength?: number
  maxLength?: number
  maxItems?: number
  format?: string
  enum?: unknown[]
}
type Key = string | number
interface Operation {
  method: 'PUT' | 'POST' | 'DELETE'
  path: string
  body: { schema: Schema; example: Json } | null
  csvExample: string | null
  params: { name: string; in: 'path' | 'query'; schema: Schema; example: string }[]
}
interface Field {
  path: Key[]
  schema: Schema
}

// Thousands of requests from one address: the per-address limit would answer most of them 429.
// The app is up before the tests are collected: the document they are derived from is the one it
// serves (generated from the routes' zod schemas, ADR 0220).
const t: TestApp = await buildTestApp({ rateLimitPerMinute: 1_000_000 })
const { token } = await new AdminTokens(t.app.db).create('localhost', 'bounds')
const served = await t.app.inject({ url: '/api/admin/v1/openapi.json', headers: { host: 'localhost' } })
const document = served.json() as {
  paths: Record<string, Record<string, Record<string, unknown>>>
}

afterAll(async () => {
  await t?.close()
})

function operations(): Operation[] {
  const out: Operation[] = []
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const content = (op.requestBody as { content?: Record<string, { schema: Schema; example?: Json }> })
        ?.content
      const json = content?.['application/json']
      const params = ((op.parameters ?? []) as Operation['params']).filter(
        (p) => p.in === 'path' || p.in === 'query',
      )
      if (!json && !content?.['text/csv'] && params.length === 0) continue
      if (json && json.example === undefined)
        throw new Error(`${method} ${path}: the document gives no example`)
      out.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        body: json ? { schema: json.schema, example: json.example! } : null,
        csvExample: (content?.['text/csv']?.example as string | undefined) ?? null,
        params,
      })
    }
  }
  return out
}

const types = (s: Schema): string[] =>
  s.anyOf ? s.anyOf.flatMap(types) : Array.isArray(s.type) ? s.type : s.type ? [s.type] : []
const branch = (s: Schema, type: string): Schema => s.anyOf?.find((b) => types(b).includes(type)) ?? s

/** Every field of a body schema, depth first; array items are addressed at index 0. */
function fields(schema: Schema, path: Key[] = []): Field[] {
  const out: Field[] = path.length ? [{ path, schema }] : []
  const object = branch(schema, 'object')
  for (const [name, inner] of Object.entries(object.properties ?? {}))
    out.push(...fields(inner, [...path, name]))
  const array = branch(schema, 'array')
  if (array.items && types(schema).includes('array')) out.push(...fields(array.items, [...path, 0]))
  return out
}

const clone = <T>(v: T): T => structuredClone(v)
function setAt(base: Json, path: Key[], value: Json): Json {
  const copy = clone(base)
  let at = copy as Record<Key, Json>
  for (const [i, key] of path.slice(0, -1).entries()) {
    // A missing container is made of the kind the next key addresses (an array for an index).
    if (at[key] === undefined || at[key] === null || typeof at[key] !== 'object')
      at[key] = typeof path[i + 1] === 'number' ? [] : {}
    at = at[key] as Record<Key, Json>
  }
  at[path.at(-1)!] = value
  return copy
}

const nested = (depth: number): Json => {
  let v: Json = 'leaf'
  for (let i = 0; i < depth; i++) v = { component: 'section', child: v }
  return v
}

/** Values aimed at a field of the given schema: bounds, one past them, extremes, wrong types. */
function edgeValues(schema: Schema): Json[] {
  const t = types(schema)
  const out: Json[] = [null, true, {}, [], 'x', 1]
  if (t.includes('integer') || t.includes('number')) {
    const s = branch(schema, t.includes('integer') ? 'integer' : 'number')
    for (const b of [s.minimum, s.maximum]) if (b !== undefined) out.push(b, b - 1, b + 1)
    out.push(0, -1, 1.5, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 2 ** 53 - 1, -(2 ** 53 - 1), 1e308)
    out.push('1', '2147483648')
  }
  if (t.includes('string')) {
    const s = branch(schema, 'string')
    out.push('', ' ', '\u0000', 'a\u0000b', '\u0001', 'tab\there', '\u007f', '\u009f', '\ud800', 'a\udc00b')
    out.push('x'.repeat(100_000), '/'.repeat(5000), '%00', "'; drop table products; --", '😀'.repeat(50))
    if (s.maxLength !== undefined) out.push('x'.repeat(s.maxLength), 'x'.repeat(s.maxLength + 1))
    if (s.format === 'date-time')
      out.push(
        '0000-01-01T00:00:00Z',
        '0001-01-01T00:30:00+01:00',
        '9999-12-31T23:59:59Z',
        '+275760-09-13T00:00:00Z',
      )
    if (s.format === 'date') out.push('0000-01-01', '2026-02-30', '9999-12-31', '2026-13-01')
  }
  if (t.includes('array')) {
    const s = branch(schema, 'array')
    out.push(Array.from({ length: (s.maxItems ?? 50) + 1 }, () => 'x'))
  }
  if (t.includes('object')) {
    const s = branch(schema, 'object')
    if (s.additionalProperties !== false) {
      out.push({ component: 'page', text: 'a\u0000b' }, { component: 'page', 'k\u0000': 1 })
      out.push({ component: 'page', text: '\ud800' }, { component: 'page', n: 2 ** 53 - 1 }, nested(1000))
    }
  }
  return out
}

/** Arbitrary values of any shape, for fast-check. */
const anyValue = fc.oneof(
  fc.integer({ min: INT4_MIN - 10, max: INT4_MIN + 10 }),
  fc.integer({ min: INT4_MAX - 10, max: INT4_MAX + 10 }),
  fc.maxSafeInteger(),
  fc.double(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme-composite', maxLength: 40 }),
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
)

const api = (method: string, url: string, payload?: Json | string, contentType = 'application/json') =>
  t.app.inject({
    method: method as 'PUT',
    url: `/api/admin/v1${url}`,
    headers: {
      host: 'localhost',
      authorization: `Bearer ${token}`,
      'content-type': contentType,
      // Each request is a new change (the order writes require a key, ADR 0220), against the
      // example order's first version.
      ...(method === 'GET' ? {} : { 'idempotency-key': randomUUID(), 'if-match': '"v1"' }),
    },
    ...(payload === undefined
      ? {}
      : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
  })

const urlOf = (op: Operation, value?: { name: string; raw: string }) => {
  let url = op.path
  const query: string[] = []
  for (const p of op.params) {
    const raw = value?.name === p.name ? value.raw : encodeURIComponent(p.example)
    if (p.in === 'path') url = url.replace(`{${p.name}}`, raw)
    else query.push(`${p.name}=${raw}`)
  }
  return query.length ? `${url}?${query.join('&')}` : url
}

/** Where a row field's errors are reported: relative to the row for `{items: [...]}` batches. */
const reportedAs = (path: Key[]) => (path[0] === 'items' && path[1] === 0 ? path.slice(2) : path).join('.')

interface Failure {
  request: string
  value: string
  status: number
  body: string
}
const describeValue = (v: unknown) => {
  const s = JSON.stringify(v) ?? String(v)
  return s.length > 120 ? `${s.slice(0, 120)}… (${s.length} chars)` : s
}

async function send(
  op: Operation,
  body: Json | string | undefined,
  failures: Failure[],
  label: string,
  value: unknown,
  contentType?: string,
) {
  const res = await api(op.method, urlOf(op), body, contentType)
  if (res.statusCode >= 500)
    failures.push({
      request: `${op.method} ${op.path} ${label}`,
      value: describeValue(value),
      status: res.statusCode,
      body: res.body.slice(0, 300),
    })
  return res
}

describe('the back-office API document', () => {
  it('is served at /api/admin/v1/openapi.json', () => {
    expect(served.statusCode).toBe(200)
    expect(Object.keys(document.paths).length).toBeGreaterThan(5)
  })

  it('gives every whole-number field bounds an int4 column can hold', () => {
    const unbounded: string[] = []
    for (const op of operations()) {
      if (!op.body) continue
      for (const f of fields(op.body.schema)) {
        if (!types(f.schema).includes('integer')) continue
        const s = branch(f.schema, 'integer')
        if (
          s.minimum === undefined ||
          s.maximum === undefined ||
          s.minimum < INT4_MIN ||
          s.maximum > INT4_MAX
        )
          unbounded.push(`${op.method} ${op.path} ${f.path.join('.')} (${s.minimum}..${s.maximum})`)
      }
    }
    expect(unbounded).toEqual([])
  })

  it('accepts its own examples, sent in the order they build on each other', async () => {
    const order = [
      ['PUT', '/catalog/categories'],
      ['PUT', '/catalog/groups'],
      ['PUT', '/catalog/skus'],
      ['PUT', '/promotions'],
      ['PUT', '/delivery-rates'],
      ['PUT', '/content/stories'],
      ['POST', '/content/publish'],
      ['PUT', '/search/redirects'],
    ] as const
    const ops = operations()
    for (const [method, path] of order) {
      const op = ops.find((o) => o.method === method && o.path === path)!
      const res = await api(method, path, op.body!.example)
      expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(200)
    }
    const csv = ops.find((o) => o.csvExample)!
    const res = await api('PUT', csv.path, csv.csvExample!, 'text/csv')
    expect(res.statusCode, res.body).toBe(200)
  })
})

describe('every operation of the back-office API answers any value without a server error', () => {
  // Operations are read once the app is up; the examples were sent by the test above.
  it.each(operations().map((o) => `${o.method} ${o.path}`))('%s', { timeout: 300_000 }, async (name) => {
    const op = operations().find((o) => `${o.method} ${o.path}` === name)
    expect(op, `${name} is in the document`).toBeDefined()
    const failures: Failure[] = []
    const unnamed: string[] = []

    if (op!.body) {
      const { schema, example } = op!.body
      // The body as a whole, of the wrong shape.
      for (const body of [
        null,
        [],
        'x',
        42,
        {},
        { items: null },
        { items: {} },
        { items: [null] },
        { items: [[]] },
      ] as Json[])
        await send(op!, body, failures, 'body', body)
      await send(op!, '{"items": [', failures, 'body', 'truncated JSON')

      for (const f of fields(schema)) {
        const label = f.path.join('.')
        for (const value of edgeValues(f.schema)) {
          const res = await send(op!, setAt(example, f.path, value), failures, label, value)
          // A value past a bound, or holding NUL, is refused naming the field.
          const s = branch(f.schema, 'integer')
          const pastBound =
            types(f.schema).includes('integer') &&
            typeof value === 'number' &&
            ((s.maximum !== undefined && value > s.maximum) || (s.minimum !== undefined && value < s.minimum))
          const nul =
            types(f.schema).includes('string') && typeof value === 'string' && value.includes('\u0000')
          if (pastBound || nul) {
            const errors = res.statusCode === 422 ? (res.json().errors as { field: string }[]) : []
            if (!errors.some((e) => e.field === reportedAs(f.path)))
              unnamed.push(
                `${name} ${label}=${describeValue(value)}: ${res.statusCode} ${res.body.slice(0, 200)}`,
              )
          }
        }
        await fc.assert(
          fc.asyncProperty(anyValue, async (value) => {
            const res = await api(op!.method, urlOf(op!), setAt(example, f.path, value))
            return res.statusCode < 500
          }),
          { numRuns: 12, seed: 29 },
        )
      }
    }

    if (op!.csvExample) {
      const [header, row] = op!.csvExample.trim().split('\n') as [string, string]
      const columns = header.split(',')
      const cells = row.split(',')
      const csvValues = [
        '99999999999',
        '2147483648',
        '2147483647',
        '-2147483649',
        '-1',
        '0',
        '1e3',
        '0x10',
        '1.5',
      ]
      csvValues.push(
        '9'.repeat(30),
        'a\u0000b',
        '\u0001',
        '\ud800',
        '"',
        'x'.repeat(100_000),
        '1+:2147483648',
        '1-9:99999999999',
      )
      for (const [i, column] of columns.entries()) {
        for (const value of csvValues) {
          const line = cells.map((c, j) => (j === i ? (value === '"' ? value : `"${value}"`) : c)).join(',')
          const res = await send(op!, `${header}\n${line}\n`, failures, `csv ${column}`, value, 'text/csv')
          // Past int4 in a whole-number cell or a bracket's price: a 422 naming the column.
          const expected =
            ['qty', 'was_price', 'minimum_order'].includes(column) &&
            ['99999999999', '2147483648'].includes(value)
              ? column
              : column === 'price_list' && ['1+:2147483648', '1-9:99999999999'].includes(value)
                ? 'price_list.0.price'
                : null
          if (expected) {
            const errors = res.statusCode === 422 ? (res.json().errors as { field: string }[]) : []
            if (!errors.some((e) => e.field === expected))
              unnamed.push(`${name} csv ${column}=${value}: ${res.statusCode} ${res.body.slice(0, 200)}`)
          }
        }
      }
    }

    for (const p of op!.params) {
      const raws = [
        '%00',
        'a%00b',
        '%01',
        '%ED%A0%80',
        'x'.repeat(5000),
        '%2F..%2F',
        '2147483648',
        encodeURIComponent('😀'),
      ]
      if (p.schema.maxLength !== undefined) raws.push('x'.repeat(p.schema.maxLength + 1))
      for (const raw of raws) {
        const res = await api(op!.method, urlOf(op!, { name: p.name, raw }))
        if (res.statusCode >= 500)
          failures.push({
            request: `${op!.method} ${op!.path} ${p.in} ${p.name}`,
            value: raw.slice(0, 60),
            status: res.statusCode,
            body: res.body.slice(0, 300),
          })
      }
    }

    expect(failures).toEqual([])
    expect(unnamed).toEqual([])
  })
})
