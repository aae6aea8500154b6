/**
 * Brotli and gzip for answers made per request (Inertia's server-rendered HTML and JSON, the API's
 * JSON) with @fastify/compress (ADR 0100). Built assets are not compressed here: the build writes
 * `.br` and `.gz` files beside them (scripts/precompress.ts) and @fastify/static sends those
 * (`preCompressed`), so this hook sees `Content-Encoding` already set and leaves them alone.
 *
 * Settings:
 * - Brotli quality 4 on the fly: within a few per cent of gzip -6's CPU time and smaller output;
 *   quality 11 (the build's) costs tens of milliseconds per 100 KB page.
 * - gzip level 6 (zlib's default) for clients without Brotli.
 * - Nothing under 1 KB (the headers cost more than the saving) and only text types: HTML, JSON,
 *   JavaScript, CSS, SVG and XML. PDFs (invoices, sign proofs), images, octet streams and
 *   `text/event-stream` pass through untouched.
 * - Request bodies are not decompressed (no route accepts compressed uploads; the body limit
 *   keeps counting what arrives on the wire).
 * - Every compressible answer says `Vary: Accept-Encoding`, also when it went out uncompressed
 *   (small, or the client asked for identity), so a shared cache never hands a Brotli body to a
 *   client that did not ask for one.
 *
 * Register it before the routes: @fastify/compress attaches its hook as each route is added.
 */
import compress from '@fastify/compress'
import type { FastifyInstance, FastifyReply } from 'fastify'
import fp from 'fastify-plugin'
import { constants } from 'node:zlib'

/** Content types worth compressing (the rest is already compressed or binary). */
export const COMPRESSIBLE =
  /^(?:text\/(?:html|css|plain|xml|csv|javascript)|application\/(?:json|[\w.+-]+\+json|javascript|xml|[\w.+-]+\+xml|manifest\+json)|image\/svg\+xml)(?:;|$)/u

export const BROTLI_QUALITY_ON_THE_FLY = 4
export const GZIP_LEVEL = 6
export const COMPRESS_THRESHOLD_BYTES = 1024

function addVary(reply: FastifyReply) {
  const current = reply.getHeader('vary')
  const list = Array.isArray(current) ? current.join(',') : String(current ?? '')
  if (list.trim() === '*') return
  // Lower case, as @fastify/compress writes it (it looks for this exact spelling before adding its own).
  if (!list.split(',').some((v) => v.trim().toLowerCase() === 'accept-encoding'))
    reply.header('vary', list.trim() ? `${list}, accept-encoding` : 'accept-encoding')
}

export const compressionPlugin = fp(
  async (app: FastifyInstance) => {
    // Runs before @fastify/compress's per-route hook (global hooks come first), so the Vary
    // header is there whichever way the answer goes out.
    app.addHook('onSend', async (_request, reply, payload) => {
      const type = reply.getHeader('content-type')
      if (typeof type === 'string' && COMPRESSIBLE.test(type)) addVary(reply)
      return payload
    })
    await app.register(compress, {
      global: true,
      globalDecompression: false,
      encodings: ['br', 'gzip'],
      threshold: COMPRESS_THRESHOLD_BYTES,
      customTypes: COMPRESSIBLE,
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY_ON_THE_FLY } },
      zlibOptions: { level: GZIP_LEVEL },
    })
  },
  { name: 'compression' },
)
