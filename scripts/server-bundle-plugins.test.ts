import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { withLazyResponseCheck } from './server-bundle-plugins.ts'

const utilsPath = createRequire(import.meta.url).resolve('@fastify/compress/lib/utils.js')

/**
 * Loads the rewritten lib/utils.js of the installed @fastify/compress in a fresh Node process
 * (this one has undici loaded already) and runs `body` with it as `utils`.
 */
function withRewrittenUtils(body: string): unknown {
  const script = `
    const Module = require('node:module')
    const { dirname } = require('node:path')
    const path = ${JSON.stringify(utilsPath)}
    const utils = new Module(path)
    utils.filename = path
    utils.paths = Module._nodeModulePaths(dirname(path))
    utils._compile(${JSON.stringify(withLazyResponseCheck(readFileSync(utilsPath, 'utf8')))}, path)
    const undiciLoaded = () => process.moduleLoadList.some((m) => m.includes('undici'))
    process.stdout.write(JSON.stringify((() => { ${body} })()))
  `
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }))
}

describe("the server bundle's @fastify/compress", () => {
  it('tells strings, buffers and streams are not fetch Responses without loading undici', () => {
    const result = withRewrittenUtils(`
      const { isFetchResponse } = utils.exports
      const { Readable } = require('node:stream')
      const answers = ['<!doctype html>', Buffer.from('x'), Readable.from([]), { status: 200 }, null, undefined]
        .map((payload) => isFetchResponse(payload))
      return { answers, undiciLoaded: undiciLoaded() }
    `)
    expect(result).toEqual({ answers: [false, false, false, false, false, false], undiciLoaded: false })
  })

  it('still recognises a fetch Response, which it sends as the response', () => {
    const result = withRewrittenUtils(`
      const { isFetchResponse } = utils.exports
      return [isFetchResponse(new Response('hello')), isFetchResponse(new Request('http://x.invalid/'))]
    `)
    expect(result).toEqual([true, false])
  })

  it('fails the build when a new version no longer has the check it rewrites', () => {
    expect(() =>
      withLazyResponseCheck('function isFetchResponse (obj) { return obj?.constructor === Response }'),
    ).toThrow(/expected one/)
  })
})
