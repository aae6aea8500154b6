/**
 * The one place absolute URLs are built (share and auth e-mail links, canonical links, JSON-LD,
 * the sitemap, robots.txt, cache keys). The host is always the site's configured host, never a
 * Host or X-Forwarded-Host header, so a forged header cannot put another address into a link,
 * an e-mail or a cached page. The scheme follows the request (X-Forwarded-Proto only behind a
 * trusted proxy); the port is the one the server was actually reached on, or none behind a proxy.
 */
import type { FastifyRequest } from 'fastify'
import type { Site } from './sites.service.ts'

export function siteBaseUrl(request: FastifyRequest, site: Site | null = request.site): string {
  const scheme = request.protocol === 'https' ? 'https' : 'http'
  const host = site?.host ?? 'localhost'
  const port = request.server.config.trustProxy ? undefined : request.socket?.localPort
  const standard = scheme === 'https' ? 443 : 80
  return `${scheme}://${host}${port && port !== standard ? `:${port}` : ''}`
}
