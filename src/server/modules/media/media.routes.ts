/**
 * The image service.
 *
 *   GET /media/*  originals from var/media (fallback public/media), whitelisted file types only.
 *   GET /img/*    raster images resized with sharp: ?w=&h= (1..2000), q (1..100), fit
 *                 (cover|contain|fill|inside|outside); width 300 and quality 50 by default.
 *                 WebP when the browser accepts it, else the source format. Cached on disk and
 *                 served with a one-year immutable Cache-Control and a strong ETag. SVG files
 *                 are passed through unchanged.
 *
 * A missing, unreadable or refused image answers 404 with the placeholder SVG as its body: the
 * browser still draws the placeholder, while the status stays truthful for crawlers, monitoring
 * and CDNs (which do not keep a 404 for a year, so the real image appears once it exists).
 * Nothing here answers 500.
 */
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { basename, resolve } from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { PLACEHOLDER_IMAGE } from '../../../shared/images.ts'
import { parseResizeOptions } from './media.options.ts'
import {
  CONTENT_TYPES,
  RASTER_EXTENSIONS,
  cleanRelativePath,
  extensionOf,
  isImagePath,
} from './media.paths.ts'
import { MediaService, type MediaRoots } from './media.service.ts'

export const IMMUTABLE = 'public, max-age=31536000, immutable'
/** Originals keep their URL when replaced, so they are cached for a day only. */
const ORIGINAL_CACHE = 'public, max-age=86400'
const PLACEHOLDER_CACHE = 'public, max-age=60'
export const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'"
/** Files read into memory (and hashed for a strong ETag); bigger ones are streamed. */
const BUFFER_LIMIT = 8 * 1024 * 1024

const FALLBACK_PLACEHOLDER =
  '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600"><rect width="600" height="600" fill="#f3f4f6"/></svg>\n'

export interface MediaRouteOptions {
  roots?: Partial<MediaRoots>
}

function strongEtag(data: Buffer): string {
  return `"${createHash('sha1').update(data).digest('base64url')}"`
}

function notModified(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match']
  if (!header) return false
  return (
    header === '*' ||
    header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag.replace(/^W\//, ''))
  )
}

/** The path after the route prefix, still percent-encoded, without the query string. */
function rawPathAfter(request: FastifyRequest, prefix: string): string {
  const url = request.raw.url ?? ''
  const path = url.split('?', 1)[0] ?? ''
  return path.startsWith(prefix) ? path.slice(prefix.length) : ''
}

export async function mediaRoutes(app: FastifyInstance, opts: MediaRouteOptions = {}) {
  const config = app.config
  const roots: MediaRoots = {
    media: opts.roots?.media ?? resolve(config.paths.var, 'media'),
    public: opts.roots?.public ?? resolve(config.paths.root, 'public'),
    cache: opts.roots?.cache ?? resolve(config.paths.var, 'cache/img'),
  }
  const service = new MediaService(roots)
  const placeholder = await readFile(resolve(roots.public, PLACEHOLDER_IMAGE.slice(1))).catch(() =>
    Buffer.from(FALLBACK_PLACEHOLDER),
  )

  const sendPlaceholder = (reply: FastifyReply) =>
    reply
      .code(404)
      .header('content-type', 'image/svg+xml')
      .header('content-security-policy', SVG_CSP)
      .header('cache-control', PLACEHOLDER_CACHE)
      .send(placeholder)

  /** Non-image files that are missing get the ordinary Not Found answer. */
  const missing = (reply: FastifyReply, relative: string | null) =>
    relative === null || isImagePath(relative) ? sendPlaceholder(reply) : reply.callNotFound()

  const sendBuffer = (
    request: FastifyRequest,
    reply: FastifyReply,
    data: Buffer,
    type: string,
    cacheControl: string,
    etag: string,
  ) => {
    reply.header('cache-control', cacheControl).header('etag', etag)
    if (type === 'image/svg+xml') reply.header('content-security-policy', SVG_CSP)
    if (notModified(request, etag)) return reply.code(304).send()
    return reply.header('content-type', type).send(data)
  }

  // Images are many per page: a roomier limit than pages, per client.
  const routeConfig = { rateLimit: { max: config.rateLimitPerMinute * 10, timeWindow: 60_000 } }

  app.get('/media/*', { config: routeConfig }, async (request, reply) => {
    const relative = cleanRelativePath(rawPathAfter(request, '/media/'))
    const type = relative ? CONTENT_TYPES[extensionOf(relative)] : undefined
    if (!relative || !type) return missing(reply, relative)
    try {
      const source = await service.find(`media/${relative}`)
      if (!source) return missing(reply, relative)
      // Office files download; PDFs and images open in the browser.
      if (/\.(docx?|xlsx?)$/.test(relative)) {
        reply.header('content-disposition', `attachment; filename="${basename(relative)}"`)
      }
      if (source.size <= BUFFER_LIMIT) {
        const data = await readFile(source.file)
        return sendBuffer(request, reply, data, type, ORIGINAL_CACHE, strongEtag(data))
      }
      const etag = `W/"${source.size.toString(16)}-${source.mtimeMs.toString(16)}"`
      reply.header('cache-control', ORIGINAL_CACHE).header('etag', etag)
      if (notModified(request, etag)) return reply.code(304).send()
      return reply.header('content-type', type).send(createReadStream(source.file))
    } catch (err) {
      request.log.warn({ err, path: relative }, 'media file unreadable')
      return missing(reply, relative)
    }
  })

  app.get('/img/*', { config: routeConfig }, async (request, reply) => {
    const relative = cleanRelativePath(rawPathAfter(request, '/img/'))
    const ext = relative ? extensionOf(relative) : ''
    if (!relative || (ext !== '.svg' && !RASTER_EXTENSIONS.has(ext))) return sendPlaceholder(reply)
    try {
      const source = await service.find(relative)
      if (!source) return sendPlaceholder(reply)
      if (ext === '.svg') {
        if (source.size > BUFFER_LIMIT) return sendPlaceholder(reply)
        const data = await readFile(source.file)
        return sendBuffer(request, reply, data, 'image/svg+xml', IMMUTABLE, strongEtag(data))
      }
      const options = parseResizeOptions(request.query)
      const format = MediaService.formatFor(source.file, request.headers.accept)
      const key = service.cacheKey(relative, source, options, format)
      const etag = `"${key}"`
      reply.header('vary', 'Accept')
      if (notModified(request, etag)) {
        return reply.code(304).header('cache-control', IMMUTABLE).header('etag', etag).send()
      }
      const image = await service.resized(relative, source, options, format)
      reply.header('x-image-cache', image.fromCache ? 'hit' : 'miss')
      return sendBuffer(request, reply, image.data, `image/${image.format}`, IMMUTABLE, `"${image.key}"`)
    } catch (err) {
      request.log.warn({ err, path: relative }, 'image could not be resized')
      return sendPlaceholder(reply)
    }
  })
}
