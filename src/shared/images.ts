/**
 * URLs for catalogue images.
 *
 * Raster files stored under /media/... are served resized by the image service at /img/...;
 * SVG files (and anything that is not a local raster path, e.g. an absolute http(s) URL)
 * are returned unchanged because they are not resized.
 */

export type ImageFit = 'cover' | 'contain' | 'fill' | 'inside' | 'outside'

export interface ImageOptions {
  /** Width in pixels, 1..2000 */
  w?: number
  /** Height in pixels, 1..2000 */
  h?: number
  /** Quality 1..100 */
  q?: number
  fit?: ImageFit
}

const RASTER = /\.(png|jpe?g|webp|gif|avif|tiff?)$/i

/** True when the image service can resize the file (a local raster path). */
export function isResizable(fileLocation: string): boolean {
  const path = fileLocation.split(/[?#]/, 1)[0] ?? ''
  return path.startsWith('/') && !path.startsWith('//') && RASTER.test(path)
}

/**
 * The URL to use in an <img src> for a stored file location.
 *   imageUrl('/media/catalog/a.png', { w: 300 }) → '/img/media/catalog/a.png?w=300'
 *   imageUrl('/media/catalog/a.svg', { w: 300 }) → '/media/catalog/a.svg'
 * Returns '/placeholder.svg' for an empty location.
 */
export function imageUrl(fileLocation: string | null | undefined, options: ImageOptions = {}): string {
  if (!fileLocation) return PLACEHOLDER_IMAGE
  if (!isResizable(fileLocation)) return fileLocation
  const path = fileLocation.split(/[?#]/, 1)[0] ?? fileLocation
  const params = new URLSearchParams()
  if (options.w !== undefined) params.set('w', String(Math.round(options.w)))
  if (options.h !== undefined) params.set('h', String(Math.round(options.h)))
  if (options.q !== undefined) params.set('q', String(Math.round(options.q)))
  if (options.fit !== undefined) params.set('fit', options.fit)
  const query = params.toString()
  return `/img${path}${query ? `?${query}` : ''}`
}

/** Shown when a product has no media or a file is missing. */
export const PLACEHOLDER_IMAGE = '/placeholder.svg'
