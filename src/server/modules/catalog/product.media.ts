/** The product page's gallery (images and videos) and its downloadable files (spec §9). */
import type { CatalogFile, CatalogMedia } from '../../../shared/catalog.ts'
import { imageUrl } from '../../../shared/images.ts'
import type { DataSheet, GalleryItem } from '../../../shared/product.ts'
import { GALLERY_IMAGE_SIZES } from '../../../shared/product.ts'
import { isObject, plainText, safeUrl } from './product.values.ts'

const VIDEO_FILE = /\.(mp4|webm|mov|m4v|ogv)$/i
/** The hosted player's page for a video embed id (the media.wistiaid attribute, media video_id). */
export const VIDEO_PLAYER_URL = 'https://fast.wistia.net/embed/iframe/'

function videoLink(id: unknown): string | null {
  return typeof id === 'string' && /^[a-z0-9]{4,32}$/i.test(id) ? `${VIDEO_PLAYER_URL}${id}` : null
}

/**
 * Gallery slides; null when the media feature is not a list (the page logs an error). Videos are
 * a playable file, or a poster image (the stored file) with a link to the hosted player for an
 * embed id; ids in attributes.media.wistiaid without a media entry are added as videos too.
 */
export function presentGallery(
  media: unknown,
  productName: string,
  wistiaIds: unknown = undefined,
): GalleryItem[] | null {
  if (!Array.isArray(media)) return null
  const items: GalleryItem[] = []
  const { slide: size, thumb: thumbSize } = GALLERY_IMAGE_SIZES
  const seenVideoIds = new Set<string>()
  const name = plainText(productName)
  for (const entry of media as CatalogMedia[]) {
    if (!isObject(entry)) continue
    const location = safeUrl(entry.file_location)
    if (!location || entry.type === 'audio') continue
    const n = items.length + 1
    if (entry.type === 'video' || VIDEO_FILE.test(location)) {
      const playable = VIDEO_FILE.test(location)
      if (entry.video_id) seenVideoIds.add(entry.video_id)
      items.push({
        kind: 'video',
        src: playable ? location : '',
        thumb: playable ? null : imageUrl(location, thumbSize),
        alt: plainText(entry.alt) || `${name} video ${n}`,
        poster: playable ? null : imageUrl(location, size),
        link: playable ? null : videoLink(entry.video_id),
      })
      continue
    }
    items.push({ kind: 'image', file: location, alt: plainText(entry.alt) || `${name} image ${n}` })
  }
  const ids = Array.isArray(wistiaIds) ? wistiaIds : [wistiaIds]
  for (const id of ids) {
    const link = videoLink(id)
    if (!link || seenVideoIds.has(id as string)) continue
    seenVideoIds.add(id as string)
    items.push({
      kind: 'video',
      src: '',
      thumb: null,
      alt: `${name} video ${items.length + 1}`,
      poster: null,
      link,
    })
  }
  return items
}

const FILE_TYPE_LABELS: Record<string, string> = {
  pdf: 'pdf',
  doc: 'doc',
  docx: 'doc',
  xls: 'xls',
  xlsx: 'xls',
  jpg: 'image',
  jpeg: 'image',
  png: 'image',
  gif: 'image',
  mp4: 'video',
  avi: 'video',
  mov: 'video',
}

/** Spec §9 file type labels: pdf, doc, xls, image, video; anything else by its extension. */
export function fileTypeLabel(fileType: string | null | undefined, fileName = ''): string {
  const fromType = (fileType ?? '').trim().toLowerCase().replace(/^\./, '')
  const ext = /^[a-z0-9]{1,10}$/.test(fromType)
    ? fromType
    : (/\.([a-z0-9]{1,10})$/i.exec(fileName)?.[1] ?? '').toLowerCase()
  return FILE_TYPE_LABELS[ext] ?? (ext || 'file')
}

export function presentFiles(files: unknown): DataSheet[] {
  if (!Array.isArray(files)) return []
  const out: DataSheet[] = []
  for (const f of files as CatalogFile[]) {
    if (!isObject(f)) continue
    const url = safeUrl(f.file_location)
    if (!url) continue
    const name = plainText(f.file_name) || url.split('/').pop() || 'Download'
    out.push({
      id: Number(f.id) || out.length + 1,
      name,
      url,
      label: fileTypeLabel(f.file_type, f.file_name || url),
    })
  }
  return out
}
