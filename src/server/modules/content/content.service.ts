import { LRUCache } from 'lru-cache'
import type {
  BlogCategoryLink,
  BlogPostSummary,
  FormDefinition,
  FormField,
  NewsletterSettings,
  PresentedBlok,
  ReviewsWidgetConfig,
} from '../../../shared/content.ts'
import { PREVIEW_LENGTH } from '../../../shared/content.ts'
import type { Breadcrumb } from '../../../shared/page-props.ts'
import { safeUrl, sanitizeBreadcrumb, stripTags } from '../../lib/sanitize.ts'
import { presentBlocks, previewText, richTextHtml, walkBlocks } from './content.presenter.ts'
import type { ContentStore } from './content.store.ts'
import { StoryblokContentStore } from './storyblok.store.ts'
import { recordCache } from '../../lib/cache-stats.ts'
import { plainText } from './richtext.ts'
import { isBlok, isRichText, type StoriesQuery, type StoriesResult, type Story } from './storyblok.types.ts'

/** Props of the `Page` component, minus the per-request canonical URL. */
export interface ContentPageProps {
  slug: string
  title: string
  metaDescription: string
  keywords: string | null
  noindex: boolean
  breadcrumbs: Breadcrumb[] | null
  blocks: PresentedBlok[]
}

export type BlogEntry =
  | { kind: 'category'; uuid: string; name: string; slug: string }
  | {
      kind: 'post'
      uuid: string
      name: string
      slug: string
      categories: string[]
      primaryCategory: { name: string; slug: string } | null
      blocks: PresentedBlok[]
      image: { filename: string; alt: string } | null
      metaDescription: string
    }

/** Settings stories: fixed slugs in both stores. */
export const SETTINGS_SLUGS = {
  site: 'settings/site',
  products: 'settings/products',
  headerMessage: 'settings/header-message',
} as const

export const BLOG_FOLDER = 'blog/'

export interface ContentServiceOptions {
  /** How often (ms) the store's cache version is checked; a new one drops the cache. */
  cvCheckMs?: number
}

const MISSING = Symbol('missing')

/** Slugs that can be generic pages (settings, forms and the blog have their own uses). */
function isPageSlug(slug: string): boolean {
  return !slug.startsWith('settings/') && !slug.startsWith('forms/') && !slug.startsWith(BLOG_FOLDER)
}

/**
 * Stories for the storefront, presented (sanitised) once and kept in a bounded in-process cache.
 * The cache is dropped when `invalidate()` is called (import, webhook) or when the store's cache
 * version moves (an import from another process), checked at most every `cvCheckMs`.
 */
export class ContentService {
  private readonly cache = new LRUCache<string, object | typeof MISSING>({ max: 5000, ttl: 10 * 60_000 })
  private readonly checkedAt = new Map<number, { at: number; cv: number }>()
  private readonly listeners = new Set<() => void>()
  private readonly cvCheckMs: number
  /**
   * Loads under way, by cache key: requests that miss at once share one load (a cold start's
   * first page asks for the same stories from its layout and its blocks at once).
   */
  private readonly loading = new Map<string, Promise<unknown>>()
  /** Cache version checks under way, by site. */
  private readonly checking = new Map<number, Promise<void>>()
  /** Bumped by invalidate(): a load that began before it is handed back but not kept. */
  private epoch = 0

  constructor(
    readonly store: ContentStore,
    options: ContentServiceOptions = {},
  ) {
    this.cvCheckMs = options.cvCheckMs ?? 5_000
  }

  /** Runs `fn` whenever the content cache is dropped (e.g. so site settings reload). */
  onInvalidate(fn: () => void): void {
    this.listeners.add(fn)
  }

  /**
   * With Storyblok, reads each site's cache version again (after a publish webhook, here or on
   * another instance); other stores have nothing to refresh. Failures are handed to `onError`.
   */
  async refreshVersions(siteIds: readonly number[], onError: (err: unknown) => void): Promise<void> {
    const store = this.store
    if (!(store instanceof StoryblokContentStore)) return
    for (const siteId of siteIds) await store.refresh(siteId).catch(onError)
  }

  invalidate(): void {
    this.epoch++
    this.loading.clear()
    this.cache.clear()
    this.checkedAt.clear()
    for (const fn of this.listeners) fn()
  }

  private fresh(siteId: number): Promise<void> {
    const seen = this.checkedAt.get(siteId)
    const now = Date.now()
    if (seen && now - seen.at < this.cvCheckMs) return Promise.resolve()
    // One check at a time per site: requests arriving together wait for the same answer.
    let check = this.checking.get(siteId)
    if (!check) {
      check = this.store
        .cacheVersion(siteId)
        .then((cv) => {
          const before = this.checkedAt.get(siteId)
          if (before && before.cv !== cv) this.invalidate()
          this.checkedAt.set(siteId, { at: now, cv })
        })
        .finally(() => this.checking.delete(siteId))
      this.checking.set(siteId, check)
    }
    return check
  }

  private async cached<T extends object>(
    siteId: number,
    key: string,
    load: () => Promise<T | null>,
  ): Promise<T | null> {
    await this.fresh(siteId)
    const k = `${siteId}\n${key}`
    const hit = this.cache.get(k)
    recordCache('content', hit !== undefined)
    if (hit !== undefined) return hit === MISSING ? null : (hit as T)
    const under = this.loading.get(k) as Promise<T | null> | undefined
    if (under) return under
    const epoch = this.epoch
    const loaded = load().then((value) => {
      if (epoch === this.epoch) this.cache.set(k, value ?? MISSING)
      return value
    })
    const shared = loaded.finally(() => {
      if (this.loading.get(k) === shared) this.loading.delete(k)
    })
    this.loading.set(k, shared)
    return shared
  }

  /** A published story by full slug (raw Storyblok shape), or null. */
  story(siteId: number, fullSlug: string): Promise<Story | null> {
    return this.cached(siteId, `story:${fullSlug}`, () => this.store.getStory(siteId, fullSlug))
  }

  stories(siteId: number, query: StoriesQuery): Promise<StoriesResult> {
    return this.cached(siteId, `stories:${JSON.stringify(query)}`, () =>
      this.store.getStories(siteId, query),
    ).then((r) => r ?? { stories: [], rels: [], cv: 0, total: 0, perPage: 0 })
  }

  /** Every published story under a folder (all pages of the list). */
  async allStories(siteId: number, startsWith: string): Promise<Story[]> {
    const out: Story[] = []
    for (let page = 1; page < 100; page++) {
      const r = await this.stories(siteId, { starts_with: startsWith, per_page: 100, page })
      out.push(...r.stories)
      if (out.length >= r.total || r.stories.length === 0) break
    }
    return out
  }

  /**
   * Presented blocks of an optional story (e.g. the Search page's content before, after or
   * without results: `search/before-results`...). Null when there is no such published story.
   */
  optionalBlocks(siteId: number, fullSlug: string): Promise<PresentedBlok[] | null> {
    return this.cached(siteId, `blocks:${fullSlug}`, async () => {
      const story = await this.story(siteId, fullSlug)
      if (!story) return null
      return this.enrich(siteId, presentBlocks(story.content.body))
    })
  }

  /** The `Page` props of a generic content story (component `page`), or null. */
  page(siteId: number, slug: string): Promise<ContentPageProps | null> {
    return this.cached(siteId, `page:${slug}`, async () => {
      if (!isPageSlug(slug)) return null
      return this.presentPage(siteId, await this.story(siteId, slug))
    })
  }

  /** The draft version of a page (editor preview): read from the store every time, never cached. */
  async draftPage(siteId: number, slug: string): Promise<ContentPageProps | null> {
    if (!isPageSlug(slug)) return null
    return this.presentPage(siteId, await this.store.getStory(siteId, slug, { version: 'draft' }))
  }

  private async presentPage(siteId: number, story: Story | null): Promise<ContentPageProps | null> {
    if (!story || story.content.component !== 'page') return null
    const c = story.content
    const breadcrumbs = Array.isArray(c.breadcrumbs)
      ? c.breadcrumbs
          .filter((b): b is { name: string; url?: string | null } => typeof b?.name === 'string')
          .map((b) => ({
            name: sanitizeBreadcrumb(b.name),
            url: typeof b.url === 'string' && b.url ? safeUrl(b.url) || null : null,
          }))
      : null
    return {
      slug: story.full_slug,
      title: typeof c.title === 'string' && c.title ? c.title : story.name,
      metaDescription: typeof c.meta_description === 'string' ? c.meta_description : '',
      keywords: typeof c.keywords === 'string' && c.keywords ? c.keywords : null,
      noindex: c.noindex === true,
      breadcrumbs: breadcrumbs && breadcrumbs.length ? breadcrumbs : null,
      blocks: await this.enrich(siteId, presentBlocks(c.body)),
    }
  }

  /**
   * The site's third-party reviews widget (site settings story `reviews_script_url`, an https
   * address, and `reviews_global`, the script's global): used by the reviews block and the
   * Shelters product layout; null when not configured.
   */
  async reviewsWidgetConfig(siteId: number): Promise<ReviewsWidgetConfig | null> {
    const { site } = await this.settingsStories(siteId)
    const url =
      typeof site?.content.reviews_script_url === 'string' ? safeUrl(site.content.reviews_script_url) : ''
    const global =
      typeof site?.content.reviews_global === 'string' ? site.content.reviews_global : 'ReviewsWidget'
    return url.startsWith('https://') && /^[A-Za-z_$][\w$]{0,40}$/.test(global)
      ? { scriptUrl: url, global }
      : null
  }

  /** Attaches data to blocks that need it: blog post grids get posts, forms their definition. */
  async enrich(siteId: number, blocks: PresentedBlok[]): Promise<PresentedBlok[]> {
    const grids: PresentedBlok[] = []
    const forms: PresentedBlok[] = []
    const reviews: PresentedBlok[] = []
    walkBlocks(blocks, (b) => {
      if (b.component === 'blog_post_grid') grids.push(b)
      if (b.component === 'form') forms.push(b)
      if (b.component === 'reviews_widget') reviews.push(b)
    })
    if (reviews.length) {
      const config = await this.reviewsWidgetConfig(siteId)
      for (const r of reviews) r.config = config
    }
    for (const grid of grids) {
      const limit = Math.min(24, Math.max(1, Number(grid.limit) || 6))
      const category = typeof grid.category === 'string' ? grid.category : null
      const posts = (await this.blogPosts(siteId)).filter((p) => !category || p.categories.includes(category))
      grid.posts = posts.slice(0, limit).map((p) => p.summary)
    }
    for (const form of forms) {
      form.definition = typeof form.form_id === 'string' ? await this.form(siteId, form.form_id) : null
    }
    return blocks
  }

  // --- Blog -------------------------------------------------------------------------------

  /** Every blog category and post of a site, presented; newest post first. */
  private blogIndex(siteId: number) {
    return this.cached(siteId, 'blog:index', async () => {
      const stories = await this.allStories(siteId, BLOG_FOLDER)
      const categories = stories.filter((s) => s.content.component === 'blog_category')
      const byUuid = new Map(categories.map((c) => [c.uuid, c]))
      const tree: BlogCategoryLink[] = categories
        .filter((c) => !c.content.parent || !byUuid.has(String(c.content.parent)))
        .map((c) => ({
          uuid: c.uuid,
          name: c.name,
          slug: c.slug,
          url: `/${c.full_slug}`,
          children: categories
            .filter((k) => k.content.parent === c.uuid)
            .map((k) => ({ uuid: k.uuid, name: k.name, slug: k.slug, url: `/${k.full_slug}` })),
        }))
      const posts = stories
        .filter((s) => s.content.component === 'post')
        .sort((a, b) =>
          (b.sort_by_date ?? b.published_at ?? '').localeCompare(a.sort_by_date ?? a.published_at ?? ''),
        )
        .map((s) => {
          const c = s.content
          const cats = Array.isArray(c.categories)
            ? c.categories.filter((u): u is string => typeof u === 'string')
            : []
          const primaryUuid = typeof c.primary_category === 'string' ? c.primary_category : cats[0]
          const primary = primaryUuid ? byUuid.get(primaryUuid) : undefined
          const body = Array.isArray(c.body) ? c.body.filter(isBlok) : []
          const firstText = body.find((b) => b.component === 'text')
          const image =
            c.image &&
            typeof c.image === 'object' &&
            typeof (c.image as { filename?: unknown }).filename === 'string'
              ? {
                  filename: safeUrl((c.image as { filename: string }).filename),
                  alt: String((c.image as { alt?: unknown }).alt ?? ''),
                }
              : null
          const summary: BlogPostSummary = {
            uuid: s.uuid,
            name: s.name,
            url: `/${s.full_slug}`,
            image: image && image.filename ? image : null,
            primary_category: primary ? { name: primary.name, slug: primary.slug } : null,
            preview: previewText(
              isRichText(firstText?.text)
                ? plainText(firstText.text)
                : stripTags(richTextHtml(firstText?.text)),
              PREVIEW_LENGTH,
            ),
            text:
              typeof c.text === 'string' || (c.text && typeof c.text === 'object')
                ? richTextHtml(c.text) || null
                : null,
            date: s.sort_by_date ?? s.first_published_at,
          }
          return { story: s, categories: cats, primaryUuid: primary?.uuid ?? null, summary }
        })
      return { categories, tree, posts }
    })
  }

  async blogTree(siteId: number): Promise<BlogCategoryLink[]> {
    return (await this.blogIndex(siteId))?.tree ?? []
  }

  async blogPosts(siteId: number) {
    return (await this.blogIndex(siteId))?.posts ?? []
  }

  /** A blog category or post at `blog/{slug}`, or null. */
  blogEntry(siteId: number, slug: string): Promise<BlogEntry | null> {
    return this.cached(siteId, `blog:${slug}`, async () => {
      const index = await this.blogIndex(siteId)
      if (!index) return null
      const category = index.categories.find((c) => c.slug === slug)
      if (category) return { kind: 'category', uuid: category.uuid, name: category.name, slug: category.slug }
      const post = index.posts.find((p) => p.story.slug === slug)
      if (!post) return null
      const primary = post.primaryUuid ? index.categories.find((c) => c.uuid === post.primaryUuid) : undefined
      const c = post.story.content
      return {
        kind: 'post',
        uuid: post.story.uuid,
        name: post.story.name,
        slug: post.story.slug,
        categories: post.categories,
        primaryCategory: primary ? { name: primary.name, slug: primary.slug } : null,
        blocks: await this.enrich(siteId, presentBlocks(c.body)),
        image: post.summary.image,
        metaDescription:
          typeof c.meta_description === 'string' && c.meta_description
            ? c.meta_description
            : post.summary.preview.slice(0, 160),
      }
    })
  }

  // --- Forms and newsletter ---------------------------------------------------------------

  /** A form defined in content at `forms/{id}`, or null. */
  form(siteId: number, id: string): Promise<FormDefinition | null> {
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id)) return Promise.resolve(null)
    return this.cached(siteId, `form:${id}`, async () => {
      const story = await this.story(siteId, `forms/${id}`)
      if (!story || story.content.component !== 'form_definition') return null
      const c = story.content
      const fields: FormField[] = (Array.isArray(c.fields) ? c.fields : [])
        .filter(isBlok)
        .filter((f) => typeof f.name === 'string' && /^[a-zA-Z][a-zA-Z0-9_]{0,39}$/.test(f.name))
        .map((f) => ({
          name: f.name as string,
          label: typeof f.label === 'string' && f.label ? f.label : (f.name as string),
          type: (['text', 'email', 'tel', 'textarea'] as const).find((t) => t === f.type) ?? 'text',
          required: f.required === true,
          maxLength: Math.min(
            5000,
            Math.max(1, Number(f.max_length) || (f.type === 'textarea' ? 2000 : 200)),
          ),
        }))
      return {
        id,
        title: typeof c.title === 'string' ? c.title : story.name,
        fields,
        submitLabel: typeof c.submit_label === 'string' && c.submit_label ? c.submit_label : 'Send',
        successMessage:
          typeof c.success_message === 'string' && c.success_message
            ? c.success_message
            : 'Thank you. We will be in touch soon.',
      }
    })
  }

  /** The settings of a newsletter block by its `_uid` on any published page, or null. */
  async newsletterBlock(
    siteId: number,
    uid: string,
  ): Promise<(NewsletterSettings & { consentText: string }) | null> {
    if (!/^[0-9a-zA-Z-]{1,64}$/.test(uid)) return null
    const map = await this.cached(siteId, 'newsletter:blocks', async () => {
      const out: Record<string, NewsletterSettings & { consentText: string }> = {}
      for (const story of await this.allStories(siteId, '')) {
        walkBlocks(story.content, (b) => {
          if (b.component !== 'newsletter') return
          out[b._uid] = {
            firstNameRequired: b.firstNameRequired === true,
            successMessage: typeof b.successMessage === 'string' ? b.successMessage : '',
            consentText:
              stripTags(richTextHtml(b.consent_text)) || (typeof b.title === 'string' ? b.title : ''),
          }
        })
      }
      return out
    })
    return map?.[uid] ?? null
  }

  /** Site settings, products settings and the header message from their stories (raw fields). */
  settingsStories(
    siteId: number,
  ): Promise<{ site: Story | null; products: Story | null; headerMessage: Story | null }> {
    return this.cached(siteId, 'settings', async () => ({
      site: await this.store.getStory(siteId, SETTINGS_SLUGS.site),
      products: await this.store.getStory(siteId, SETTINGS_SLUGS.products),
      headerMessage: await this.store.getStory(siteId, SETTINGS_SLUGS.headerMessage),
    })).then((r) => r ?? { site: null, products: null, headerMessage: null })
  }
}
