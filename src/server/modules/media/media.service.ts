/**
 * Finding media files and producing resized copies. Originals live under var/media (written by
 * the seed or an upload) with public/ as a fallback; resized images are cached on disk under
 * var/cache/img, keyed by a hash of the source (path, size, mtime) and the options, so a cached
 * file never goes stale: a changed source gets a new key.
 */
import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { loadSharp } from '../../lib/sharp.ts'
import { extensionOf, resolveInside } from './media.paths.ts'
import type { ResizeOptions } from './media.options.ts'

export interface MediaRoots {
  /** var/media: '/media/x' is looked up here first */
  media: string
  /** public/: '/media/x' falls back to public/media/x; other paths map to public/<path> */
  public: string
  /** var/cache/img */
  cache: string
}

export interface SourceFile {
  file: string
  size: number
  mtimeMs: number
}

export type OutputFormat = 'webp' | 'jpeg' | 'png'

export interface ResizedImage {
  data: Buffer
  format: OutputFormat
  /** Hash of source and options: the cache file name and the ETag */
  key: string
  fromCache: boolean
}

/** Bump when the resize pipeline changes, so old cache files are not served. */
const PIPELINE_VERSION = 1
/** Decompression-bomb guard: refuse inputs above this many pixels. */
const MAX_INPUT_PIXELS = 40_000_000
/** Resizes running at once; the rest wait (sharp also uses its own thread pool). */
const MAX_CONCURRENT = 4

export class MediaService {
  private running = 0
  private readonly waiting: (() => void)[] = []
  private readonly inFlight = new Map<string, Promise<Buffer>>()

  constructor(readonly roots: MediaRoots) {}

  /**
   * The file behind a clean relative path: 'media/catalog/a.png' → var/media/catalog/a.png, else
   * public/media/catalog/a.png; 'brands/x.png' → public/brands/x.png. Null when missing.
   */
  async find(relative: string): Promise<SourceFile | null> {
    const candidates: [string, string][] = relative.startsWith('media/')
      ? [
          [this.roots.media, relative.slice('media/'.length)],
          [this.roots.public, relative],
        ]
      : [[this.roots.public, relative]]
    for (const [root, rel] of candidates) {
      if (!rel) continue
      const file = await resolveInside(root, rel)
      if (!file) continue
      try {
        const s = await stat(file)
        if (s.isFile()) return { file, size: s.size, mtimeMs: Math.trunc(s.mtimeMs) }
      } catch {
        // try the next root
      }
    }
    return null
  }

  /** The output format: WebP when the browser takes it, else the source's own family. */
  static formatFor(sourceFile: string, accept: string | undefined): OutputFormat {
    if (accept && /\bimage\/webp\b/i.test(accept)) return 'webp'
    const ext = extensionOf(sourceFile)
    return ext === '.jpg' || ext === '.jpeg' ? 'jpeg' : 'png'
  }

  cacheKey(relative: string, source: SourceFile, options: ResizeOptions, format: OutputFormat): string {
    return createHash('sha256')
      .update(
        JSON.stringify([
          PIPELINE_VERSION,
          relative,
          source.size,
          source.mtimeMs,
          options.width,
          options.height,
          options.quality,
          options.fit,
          format,
        ]),
      )
      .digest('hex')
      .slice(0, 40)
  }

  cachePath(key: string, format: OutputFormat): string {
    return join(this.roots.cache, key.slice(0, 2), `${key}.${format === 'jpeg' ? 'jpg' : format}`)
  }

  /** A resized copy from the disk cache, or made now (and cached). Throws on unreadable input. */
  async resized(
    relative: string,
    source: SourceFile,
    options: ResizeOptions,
    format: OutputFormat,
  ): Promise<ResizedImage> {
    const key = this.cacheKey(relative, source, options, format)
    const path = this.cachePath(key, format)
    try {
      return { data: await readFile(path), format, key, fromCache: true }
    } catch {
      // not cached yet
    }
    let job = this.inFlight.get(key)
    if (!job) {
      job = this.limited(() => this.render(source.file, options, format)).then(async (data) => {
        await this.store(path, data)
        return data
      })
      this.inFlight.set(key, job)
      job.then(
        () => this.inFlight.delete(key),
        () => this.inFlight.delete(key),
      )
    }
    return { data: await job, format, key, fromCache: false }
  }

  private async render(file: string, options: ResizeOptions, format: OutputFormat): Promise<Buffer> {
    const image = (await loadSharp())(file, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize({
        width: options.width ?? undefined,
        height: options.height ?? undefined,
        fit: options.fit,
        withoutEnlargement: true,
      })
    if (format === 'webp') return image.webp({ quality: options.quality }).toBuffer()
    if (format === 'jpeg') return image.jpeg({ quality: options.quality }).toBuffer()
    return image.png({ compressionLevel: 8 }).toBuffer()
  }

  /** Writes a cache file atomically; a failure (read-only disk) only costs the next request. */
  private async store(path: string, data: Buffer): Promise<void> {
    try {
      await mkdir(dirname(path), { recursive: true })
      const tmp = `${path}.${process.pid}.${Date.now()}.${Math.floor(Math.random() * 1e9)}.tmp`
      await writeFile(tmp, data)
      await rename(tmp, path)
    } catch {
      // serve uncached
    }
  }

  private async limited<T>(run: () => Promise<T>): Promise<T> {
    if (this.running >= MAX_CONCURRENT) await new Promise<void>((r) => this.waiting.push(r))
    this.running++
    try {
      return await run()
    } finally {
      this.running--
      this.waiting.shift()?.()
    }
  }
}
