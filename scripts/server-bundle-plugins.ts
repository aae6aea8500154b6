/**
 * esbuild plugins of the server bundle (scripts/build-server.ts).
 */
import { readFile } from 'node:fs/promises'
import type { Plugin } from 'esbuild'

const FETCH_RESPONSE_CHECK = 'return obj instanceof Response'

/**
 * @fastify/compress asks `payload instanceof Response` of every payload it sees. Reading Node's
 * global `Response` loads undici (11–13 ms of main thread), so the first answer after a start
 * paid for it although our payloads are strings, buffers and streams, never fetch Responses
 * (issue 18, ADR 0114). The rewritten check gives the same answer: every real Response says
 * `[object Response]`, and only then is the global read; anything else is not one.
 */
export function withLazyResponseCheck(source: string): string {
  // A new @fastify/compress that words it differently fails the build instead of quietly
  // loading undici again before the first answer.
  if (source.split(FETCH_RESPONSE_CHECK).length !== 2)
    throw new Error(`@fastify/compress: expected one '${FETCH_RESPONSE_CHECK}' in lib/utils.js`)
  return source.replace(
    FETCH_RESPONSE_CHECK,
    "return typeof obj === 'object' && obj !== null && Object.prototype.toString.call(obj) === '[object Response]' && obj instanceof Response",
  )
}

export const lazyResponseCheck: Plugin = {
  name: 'compress-lazy-response-check',
  setup(build) {
    build.onLoad({ filter: /[\\/]@fastify[\\/]compress[\\/]lib[\\/]utils\.js$/ }, async (args) => ({
      contents: withLazyResponseCheck(await readFile(args.path, 'utf8')),
      loader: 'js',
    }))
  },
}
