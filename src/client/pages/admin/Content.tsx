/**
 * Back office: a site's content pages and blog posts (every role may look; owners and staff
 * publish). A page's draft opens in the shop's own preview (the preview token); publishing copies
 * the draft to the shop, on every instance.
 */
import { Head } from '@inertiajs/react'
import AdminLayout from '../../admin/AdminLayout.tsx'
import { formatDateTime } from '../../admin/admin-props.ts'
import {
  ActionButton,
  FocusError,
  FocusNotice,
  SitePicker,
  usePost,
  type SiteChoice,
} from '../../admin/settings-parts.tsx'

interface Story {
  slug: string
  name: string
  kind: 'page' | 'post' | 'part'
  published: boolean
  draftChanged: boolean
  publishedAt: string | null
  updatedAt: string
}

interface Props {
  sites: SiteChoice[]
  site: { id: number; name: string; base: string }
  editable: boolean
  stories: Story[]
  previewToken: string | null
  canPublish: boolean
  errors: Record<string, string>
  notice: string | null
}

const KIND_HEADINGS = {
  page: 'Pages',
  post: 'Blog',
  part: 'Settings and page parts',
} as const

function state(s: Story): string {
  if (!s.published) return 'Draft, not published'
  return s.draftChanged ? 'Published; the draft has changes' : 'Published'
}

/** Where the story is on the shop: pages at their slug, posts under /blog. */
function shopPath(s: Story): string | null {
  if (s.kind === 'page') return `/${s.slug}`
  if (s.kind === 'post') return `/blog/${s.slug.split('/').at(-1) ?? ''}`
  return null
}

export default function Content({
  sites,
  site,
  editable,
  stories,
  previewToken,
  canPublish,
  errors,
  notice,
}: Props) {
  const post = usePost()
  const groups = (['page', 'post', 'part'] as const)
    .map((kind) => ({ kind, items: stories.filter((s) => s.kind === kind) }))
    .filter((g) => g.items.length > 0)
  return (
    <div>
      <Head title="Content - Shop back office" />
      <h1 className="text-xl font-semibold">Content of {site.name}</h1>
      <SitePicker sites={sites} current={site.id} path="/admin/content" />
      <FocusNotice message={notice} />
      <FocusError message={errors.form ?? errors.slug} />
      {!editable ? (
        <p className="mt-4">Content is managed in Storyblok: edit, preview and publish it there.</p>
      ) : null}
      {editable && !previewToken ? (
        <p className="mt-4 text-sm text-gray-700">
          Draft preview is off: set CONTENT_PREVIEW_TOKEN on the server to preview pages before publishing.
        </p>
      ) : null}
      {editable && stories.length === 0 ? <p className="mt-4">This site has no content yet.</p> : null}
      {groups.map((g) => (
        <section key={g.kind} aria-labelledby={`content-${g.kind}`} className="mt-6">
          <h2 id={`content-${g.kind}`} className="text-lg font-semibold">
            {KIND_HEADINGS[g.kind]}
          </h2>
          <ul className="mt-2 divide-y divide-gray-200 rounded-lg border border-gray-200 bg-white">
            {g.items.map((s) => {
              const path = shopPath(s)
              return (
                <li key={s.slug} className="flex flex-wrap items-center gap-3 p-3 text-sm">
                  <div className="min-w-48 flex-1">
                    <p className="font-medium">{s.name}</p>
                    <p className="wrap-anywhere text-gray-700">{s.slug}</p>
                    <p className="text-gray-700">
                      {state(s)}
                      {s.publishedAt ? ` (published ${formatDateTime(s.publishedAt)})` : ''}
                    </p>
                  </div>
                  {path && s.kind === 'page' && previewToken ? (
                    <a
                      href={`${site.base}${path}?_preview=${encodeURIComponent(previewToken)}`}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="underline"
                    >
                      Preview draft<span className="sr-only"> of {s.name} (opens in a new tab)</span>
                    </a>
                  ) : null}
                  {path && s.published ? (
                    <a
                      href={`${site.base}${path}`}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="underline"
                    >
                      View on the shop<span className="sr-only"> : {s.name} (opens in a new tab)</span>
                    </a>
                  ) : null}
                  {canPublish && editable && (!s.published || s.draftChanged) ? (
                    <ActionButton
                      onClick={() =>
                        post(
                          '/admin/content',
                          { intent: 'publish', site: site.id, slug: s.slug },
                          `Publish ${s.name}? The shop shows the draft from now on.`,
                        )
                      }
                    >
                      Publish<span className="sr-only"> {s.name}</span>
                    </ActionButton>
                  ) : null}
                </li>
              )
            })}
          </ul>
        </section>
      ))}
    </div>
  )
}

Content.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
