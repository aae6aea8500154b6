/**
 * The back office's content and search pages (issue 34): every role may look; owners and staff
 * publish content, change redirect rules and rebuild a site's search index. Thin: parse, call
 * staff.settings.ts (the API's services with an audit row), render the page with a notice or the
 * errors.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { redirectFormSchema } from '../../../shared/staff-settings.ts'
import { text } from '../../../shared/text.ts'
import type { Db } from '../../db/client.ts'
import { LocalContentStore } from '../content/content.store.ts'
import { SearchRequestError } from '../search/search.service.ts'
import { siteBaseUrl } from '../sites/site-url.ts'
import { can } from './permissions.ts'
import { issues } from './staff.auth.routes.ts'
import { ADMIN_PATH, actorOf, guard, renderAdmin } from './staff.http.ts'
import {
  listContent,
  publishContent,
  recordReindex,
  removeRedirect,
  saveRedirect,
  siteRows,
} from './staff.settings.ts'

type Extra = { errors?: Record<string, string>; notice?: string | null }
type SiteRow = Awaited<ReturnType<typeof siteRows>>[number]

const siteParam = z.object({ site: z.coerce.number().int().positive().optional().catch(undefined) })

/** The site asked for (`site` in the query or the form), else the first; null when it does not exist. */
export async function chosenSite(db: Db, raw: unknown): Promise<{ sites: SiteRow[]; site: SiteRow | null }> {
  const all = await siteRows(db)
  // A body that is no object (a JSON list) names no site; its intent is refused next.
  const id = siteParam.safeParse(raw ?? {}).data?.site
  return { sites: all, site: id === undefined ? (all[0] ?? null) : (all.find((s) => s.id === id) ?? null) }
}

export function noSuchSite(request: FastifyRequest, reply: FastifyReply) {
  const message = 'There is no site with this number.'
  return renderAdmin(request, reply, 'admin/Forbidden', { message, title: 'Site not found' }, 404)
}

const contentIntent = z.object({
  intent: z.literal('publish'),
  slug: text().trim().min(1).max(300),
})

const searchIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('add') }).passthrough(),
  z.object({ intent: z.literal('remove'), query: text().trim().min(1).max(200) }).passthrough(),
  z.object({ intent: z.literal('reindex') }).passthrough(),
])

const UNDERSTOOD = 'The request could not be understood.'

export async function staffSettingsRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts

  // --- content ---------------------------------------------------------------------------------

  const contentPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    sites: SiteRow[],
    site: SiteRow,
    extra: Extra = {},
    status = 200,
  ) => {
    const editable = app.content.store instanceof LocalContentStore
    const token = app.config.content.previewToken
    const full = await app.sites.byId(site.id)
    const base = siteBaseUrl(request, full)
    return renderAdmin(
      request,
      reply,
      'admin/Content',
      {
        sites: sites.map(({ id, name }) => ({ id, name })),
        site: { id: site.id, name: site.name, base },
        editable,
        stories: editable ? await listContent(db, site.id) : [],
        previewToken: token,
        canPublish: request.staff ? can(request.staff.user.role, 'content.act') : false,
        errors: extra.errors ?? {},
        notice: extra.notice ?? null,
      },
      status,
    )
  }

  app.get(`${ADMIN_PATH}/content`, guard('content.view'), async (request, reply) => {
    const { sites, site } = await chosenSite(db, request.query)
    if (!site) return noSuchSite(request, reply)
    return contentPage(request, reply, sites, site)
  })

  app.post(`${ADMIN_PATH}/content`, guard('content.act'), async (request, reply) => {
    const { sites, site } = await chosenSite(db, request.body)
    if (!site) return noSuchSite(request, reply)
    const parsed = contentIntent.safeParse(request.body ?? {})
    if (!parsed.success)
      return contentPage(request, reply, sites, site, { errors: { form: UNDERSTOOD } }, 422)
    if (!(app.content.store instanceof LocalContentStore)) {
      const form = 'Content is managed in Storyblok; publish it there.'
      return contentPage(request, reply, sites, site, { errors: { form } }, 409)
    }
    const result = await publishContent(db, actorOf(request), site.id, parsed.data.slug)
    if (!result.ok) return contentPage(request, reply, sites, site, { errors: { form: result.message } }, 422)
    // Every instance drops its content cache (the `content` signal), as after the API's publish.
    app.content.invalidate()
    return contentPage(request, reply, sites, site, { notice: `${parsed.data.slug} was published.` })
  })

  // --- search ----------------------------------------------------------------------------------

  const searchPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    sites: SiteRow[],
    site: SiteRow,
    extra: Extra = {},
    status = 200,
  ) => {
    const rules = await app.searchService.listRedirects(site.id)
    const built = app.searchService.lastBuild
    return renderAdmin(
      request,
      reply,
      'admin/SearchSettings',
      {
        sites: sites.map(({ id, name }) => ({ id, name })),
        site: { id: site.id, name: site.name },
        rules: rules.map((r) => ({ query: r.query, url: r.url, createdAt: r.createdAt.toISOString() })),
        lastBuild: built ? { records: built.records, ms: built.ms } : null,
        canAct: request.staff ? can(request.staff.user.role, 'search.act') : false,
        errors: extra.errors ?? {},
        notice: extra.notice ?? null,
      },
      status,
    )
  }

  app.get(`${ADMIN_PATH}/search`, guard('search.view'), async (request, reply) => {
    const { sites, site } = await chosenSite(db, request.query)
    if (!site) return noSuchSite(request, reply)
    return searchPage(request, reply, sites, site)
  })

  app.post(`${ADMIN_PATH}/search`, guard('search.act'), async (request, reply) => {
    const { sites, site } = await chosenSite(db, request.body)
    if (!site) return noSuchSite(request, reply)
    const page = (extra: Extra, status = 200) => searchPage(request, reply, sites, site, extra, status)
    const intent = searchIntent.safeParse(request.body ?? {})
    if (!intent.success) return page({ errors: { form: UNDERSTOOD } }, 422)
    const actor = actorOf(request)
    if (intent.data.intent === 'add') {
      const parsed = redirectFormSchema.safeParse(request.body)
      if (!parsed.success) return page({ errors: issues(parsed.error) }, 422)
      try {
        await saveRedirect(app.searchService, actor, site.id, parsed.data.query, parsed.data.url)
      } catch (err) {
        if (!(err instanceof SearchRequestError)) throw err
        const [field = 'form', ...rest] = err.message.split(': ')
        return page({ errors: { [field]: rest.join(': ') || err.message } }, 422)
      }
      return page({ notice: `Searches for “${parsed.data.query}” now go to ${parsed.data.url}.` })
    }
    if (intent.data.intent === 'remove') {
      const removed = await removeRedirect(app.searchService, actor, site.id, intent.data.query)
      if (!removed) return page({ errors: { form: 'There is no redirect rule for this search.' } }, 422)
      return page({ notice: `The redirect rule for “${intent.data.query}” was removed.` })
    }
    // A whole-site catalogue change: every instance rebuilds the site's index (ADRs 0081, 0250).
    app.catalog.invalidate({ siteId: site.id })
    await recordReindex(db, actor, site.id)
    return page({ notice: `The search index of ${site.name} is being rebuilt on every instance.` })
  })
}
