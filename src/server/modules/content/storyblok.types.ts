/**
 * Storyblok's content shapes (Content Delivery API v2), used by both content stores. Kept to the
 * fields the shop reads; see ../shared/design/content-search.md §1.2.
 */

/** A block: `{ _uid, component, ...fields }` */
export interface Blok {
  _uid: string
  component: string
  [field: string]: unknown
}

export interface Story<C extends Blok = Blok> {
  id: number
  uuid: string
  name: string
  slug: string
  full_slug: string
  content: C
  created_at: string
  updated_at: string
  published_at: string | null
  first_published_at: string | null
  sort_by_date: string | null
  position: number
  tag_list: string[]
  is_startpage: boolean
  parent_id: number | null
  group_id: string
  lang: string
  alternates: unknown[]
}

/** Rich text: a ProseMirror document with Storyblok's node names. */
export interface RichTextNode {
  type: string
  text?: string
  attrs?: Record<string, unknown>
  marks?: { type: string; attrs?: Record<string, unknown> }[]
  content?: RichTextNode[]
}

export interface RichTextDoc extends RichTextNode {
  type: 'doc'
}

export type Version = 'draft' | 'published'

export interface StoriesQuery {
  version?: Version
  cv?: number
  starts_with?: string
  by_slugs?: string
  by_uuids?: string
  content_type?: string
  with_tag?: string
  is_startpage?: boolean
  sort_by?: string
  per_page?: number
  page?: number
  resolve_relations?: string
}

export interface StoriesResult {
  stories: Story[]
  rels: Story[]
  cv: number
  total: number
  perPage: number
}

export function isRichText(value: unknown): value is RichTextDoc {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'doc'
}

export function isBlok(value: unknown): value is Blok {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Blok).component === 'string' &&
    typeof (value as Blok)._uid === 'string'
  )
}
