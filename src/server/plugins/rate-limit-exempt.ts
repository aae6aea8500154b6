/**
 * Requests the global rate limit does not count: reads of the shop's own static files (the
 * hashed build assets under /assets/ and the files of `public/`, logos and icons). They cost the
 * shop no work beyond a file read, a page view asks for several of them at once, and counting
 * each would be one database write per file on a deployment that keeps its counts in PostgreSQL
 * (ADR 0176). Uploaded media under /media/ and resized images keep their own, wider limit (the
 * media routes); everything else — pages, JSON, forms — is counted as before.
 *
 * The list of public files is read once at start-up: it ships with the build and does not change
 * while the process runs, so every instance holds the same list.
 */
import { readdirSync, type Dirent } from 'node:fs'
import { join } from 'node:path'

/** URL paths of the files under `root`, except those the media routes limit themselves. */
export function publicFilePaths(root: string): Set<string> {
  const paths = new Set<string>()
  const walk = (dir: string, prefix: string) => {
    let entries: Dirent[]
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      const url = `${prefix}/${entry.name}`
      if (entry.isDirectory()) {
        if (url !== '/media') walk(join(dir, entry.name), url)
      } else if (entry.isFile()) paths.add(url)
    }
  }
  walk(root, '')
  return paths
}

/** `allowList` for @fastify/rate-limit: true = not counted. */
export function staticFileExemption(publicFiles: ReadonlySet<string>) {
  return (request: { method: string; url: string }): boolean => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false
    const query = request.url.indexOf('?')
    const path = query === -1 ? request.url : request.url.slice(0, query)
    return (path.startsWith('/assets/') && !path.includes('..')) || publicFiles.has(path)
  }
}
