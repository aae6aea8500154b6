/**
 * Turning a request path into a file inside a known root, refusing anything that could escape
 * it: '..' and '.' segments (encoded or not), hidden files, absolute paths, backslashes, NUL
 * bytes and any character outside a conservative file-name alphabet.
 */
import { realpath } from 'node:fs/promises'
import { extname, resolve, sep } from 'node:path'

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/
const MAX_LENGTH = 300
const MAX_DEPTH = 10

/**
 * The clean relative path ('catalog/harbour/a.svg') of a raw, still percent-encoded URL path
 * ('catalog/harbour/a.svg' after the route prefix), or null when it must be refused.
 */
export function cleanRelativePath(raw: string): string | null {
  if (raw.length === 0 || raw.length > MAX_LENGTH * 3) return null
  let decoded: string
  try {
    decoded = decodeURIComponent(raw)
  } catch {
    return null
  }
  if (decoded.length > MAX_LENGTH || decoded.includes('\0') || decoded.includes('\\')) return null
  const segments = decoded.split('/')
  if (segments.length > MAX_DEPTH) return null
  // Every segment must be a plain name: no '', '.', '..', hidden files or '%' left over.
  if (!segments.every((s) => SEGMENT.test(s) && s !== '..' && s !== '.')) return null
  return segments.join('/')
}

/** `root/relative` when it stays inside root (after following symlinks); null otherwise. */
export async function resolveInside(root: string, relative: string): Promise<string | null> {
  const base = resolve(root)
  const target = resolve(base, relative)
  if (!target.startsWith(base + sep)) return null
  try {
    const [realBase, realTarget] = await Promise.all([realpath(base), realpath(target)])
    return realTarget.startsWith(realBase + sep) ? realTarget : null
  } catch {
    return null
  }
}

export const CONTENT_TYPES: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.avif': 'image/avif',
  '.pdf': 'application/pdf',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xls': 'application/vnd.ms-excel',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.mp3': 'audio/mpeg',
  '.mp4': 'video/mp4',
}

/** Raster formats the resizer accepts. */
export const RASTER_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.webp', '.gif', '.avif'])

export function extensionOf(path: string): string {
  return extname(path).toLowerCase()
}

export function isImagePath(path: string): boolean {
  const ext = extensionOf(path)
  return ext === '.svg' || RASTER_EXTENSIONS.has(ext)
}
