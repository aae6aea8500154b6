import { timingSafeEqual } from 'node:crypto'
import { siteBaseUrl } from '../sites/site-url.ts'
import { CONTROL_CHARACTERS_MESSAGE, hasControlCharacters } from '../../../shared/text.ts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { sanitizeBreadcrumb } from '../../lib/sanitize.ts'
import { bankHolidayList } from '../../../shared/bank-holidays.ts'
import { saveFormSubmission } from './content.queries.ts'
import { sitemapSections, sitemapXml } from './sitemap.ts'

/** True when the visit carries the configured preview token (`?_preview=`): show drafts. */
export function isPreview(request: FastifyRequest): boolean {
  const expected = request.server.config.content.previewToken
  const given = (request.query as Record<string, unknown> | undefined)?._preview
  if (!expected || typeof given !== 'string' || given.length !== expected.length) return false
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected))
}

/**
 * Renders the generic content page (page name `Page`) for a slug, or Not Found. With the preview
 * token the draft version is shown, never cached and never indexed.
 */
export async function renderContentPage(request: FastifyRequest, reply: FastifyReply, slug: string) {
  // The home story is served at /, and search areas only inside the Search page.
  if (!request.site || slug === 'home' || slug.startsWith('search/')) return reply.callNotFound()
  const preview = isPreview(request)
  const page = preview
    ? await request.server.content.draftPage(request.site.id, slug)
    : await request.server.content.page(request.site.id, slug)
  if (!page) return reply.callNotFound()
  const { slug: path, ...props } = page
  if (preview) {
    reply.header('cache-control', 'no-store')
    props.noindex = true
  }
  return reply.inertia.render('Page', { ...props, canonical: `${siteBaseUrl(request)}/${path}` })
}

/** Notifies the site's contact of a form submission (wired to the mailer by the app). */
export type NotifySiteContact = (message: {
  siteId: number
  to: string
  subject: string
  fields: { label: string; value: string }[]
}) => Promise<void>

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

export async function contentRoutes(app: FastifyInstance, options: { notifySiteContact: NotifySiteContact }) {
  // --- Blog ---------------------------------------------------------------------------------
  app.get('/blog', async (request, reply) => {
    const site = request.site
    if (!site) return reply.callNotFound()
    const [tree, posts] = await Promise.all([app.content.blogTree(site.id), app.content.blogPosts(site.id)])
    return reply.inertia.render('Blog/Category', {
      category: null,
      tree,
      posts: posts.map((p) => p.summary),
      breadcrumbs: [{ name: 'Blog', url: null }],
      canonical: `${siteBaseUrl(request)}/blog`,
    })
  })

  app.get('/blog/:slug', async (request, reply) => {
    const site = request.site
    const { slug } = request.params as { slug: string }
    if (!site || !SLUG.test(slug)) return reply.callNotFound()
    const entry = await app.content.blogEntry(site.id, slug)
    if (!entry) return reply.callNotFound()
    const tree = await app.content.blogTree(site.id)
    const base = siteBaseUrl(request)
    if (entry.kind === 'category') {
      const posts = (await app.content.blogPosts(site.id)).filter((p) => p.categories.includes(entry.uuid))
      return reply.inertia.render('Blog/Category', {
        category: { uuid: entry.uuid, name: entry.name, slug: entry.slug },
        tree,
        posts: posts.map((p) => p.summary),
        breadcrumbs: [
          { name: 'Blog', url: '/blog' },
          { name: sanitizeBreadcrumb(entry.name), url: null },
        ],
        canonical: `${base}/blog/${entry.slug}`,
      })
    }
    return reply.inertia.render('Blog/Post', {
      post: {
        name: entry.name,
        blocks: entry.blocks,
        image: entry.image,
        primaryCategory: entry.primaryCategory,
        metaDescription: entry.metaDescription,
      },
      tree,
      activeCategory: entry.categories[0] ?? null,
      breadcrumbs: [
        { name: 'Blog', url: '/blog' },
        ...(entry.primaryCategory
          ? [
              {
                name: sanitizeBreadcrumb(entry.primaryCategory.name),
                url: `/blog/${entry.primaryCategory.slug}`,
              },
            ]
          : []),
        { name: sanitizeBreadcrumb(entry.name), url: null },
      ],
      canonical: `${base}/blog/${entry.slug}`,
    })
  })

  // --- Sitemap, sitemap.xml, robots.txt ------------------------------------------------------
  app.get('/sitemap', async (request, reply) => {
    const site = request.site
    if (!site) return reply.callNotFound()
    const sections = await sitemapSections(app.content, await app.catalog.topLevel(site.id), site.id)
    return reply.inertia.render('Sitemap', { sections, canonical: `${siteBaseUrl(request)}/sitemap` })
  })

  app.get('/sitemap.xml', async (request, reply) => {
    const site = request.site
    if (!site) return reply.code(404).type('text/plain').send('Not Found')
    const xml = await sitemapXml(app.db, app.content, site.id, siteBaseUrl(request))
    return reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(xml)
  })

  app.get('/robots.txt', async (request, reply) => {
    const lines = ['User-agent: *']
    if (request.site) {
      for (const path of ['/cart', '/checkout', '/customer', '/login', '/search'])
        lines.push(`Disallow: ${path}`)
      lines.push('', `Sitemap: ${siteBaseUrl(request)}/sitemap.xml`)
    } else lines.push('Disallow: /')
    return reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(`${lines.join('\n')}\n`)
  })

  // --- Bank holidays (England and Wales, computed offline) -----------------------------------
  // The holidays of the site's own calendar (site setting): England and Wales, or US federal.
  app.get('/bank-holidays', async (request, reply) => {
    const calendar = request.site?.settings.calendar ?? 'england-and-wales'
    return reply
      .header('cache-control', 'public, max-age=3600')
      .header('vary', 'host')
      .send(bankHolidayList(new Date(), calendar))
  })

  // --- Forms defined in content ---------------------------------------------------------------
  app.post(
    '/forms/:id',
    { config: { rateLimit: { max: 10, timeWindow: 60_000 } } },
    async (request, reply) => {
      const site = request.site
      const { id } = request.params as { id: string }
      if (!site) return reply.code(404).send({ message: 'Not Found' })
      const form = await app.content.form(site.id, id)
      if (!form) return reply.code(404).send({ message: 'Not Found' })
      const body = (request.body ?? {}) as Record<string, unknown>
      const errors: Record<string, string> = {}
      const data: Record<string, string> = {}
      for (const field of form.fields) {
        const raw = body[field.name]
        const value = typeof raw === 'string' ? raw.trim() : ''
        if (raw !== undefined && typeof raw !== 'string') errors[field.name] = `${field.label} must be text.`
        else if (hasControlCharacters(value)) errors[field.name] = CONTROL_CHARACTERS_MESSAGE
        else if (field.required && value === '') errors[field.name] = `${field.label} is required.`
        else if (value.length > field.maxLength)
          errors[field.name] = `${field.label} must be at most ${field.maxLength} characters.`
        else if (value && field.type === 'email' && !z.email().safeParse(value).success)
          errors[field.name] = `${field.label} must be a valid email address.`
        else if (value && field.type === 'tel' && !/^[0-9 +()-]{6,20}$/.test(value))
          errors[field.name] = `${field.label} must be a valid phone number.`
        else data[field.name] = value
      }
      if (Object.keys(errors).length)
        return reply.code(422).send({ message: 'The given data was invalid.', errors })
      await saveFormSubmission(app.db, { siteId: site.id, formId: form.id, data })
      const to = site.settings.contactEmail
      if (to) {
        options
          .notifySiteContact({
            siteId: site.id,
            to,
            subject: `${form.title}: new submission`,
            fields: form.fields.map((f) => ({ label: f.label, value: data[f.name] ?? '' })),
          })
          .catch((err) => request.log.error({ err, form: form.id }, 'form notification failed'))
      }
      return reply.send({ message: form.successMessage })
    },
  )
}
