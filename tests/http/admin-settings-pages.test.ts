/**
 * The back office's content, search, API token and webhook endpoint pages (`app.inject`, a real
 * database): who may look and who may act (the server refuses, not only the page), bad input
 * answered with a message and nothing changed, the secrets shown once and never listed or
 * audited, and an audit row for every change.
 */
import { and, desc, eq, like } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importStories } from '../../src/server/modules/admin/admin.operations.ts'
import { adminTokens } from '../../src/server/modules/admin/admin.tables.ts'
import { contentStories } from '../../src/server/modules/content/content.tables.ts'
import { searchRedirects } from '../../src/server/modules/search/search.tables.ts'
import { sites } from '../../src/server/modules/sites/sites.tables.ts'
import { staffAudit } from '../../src/server/modules/staff/staff.tables.ts'
import { webhookEndpoints } from '../../src/server/modules/webhooks/webhooks.tables.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { makeStaff, signIn, type StaffBrowser } from './staff.fixture.ts'

let t: TestApp
let app: FastifyInstance
let owner: StaffBrowser
let staff: StaffBrowser
let viewer: StaffBrowser
let siteId: number

beforeAll(async () => {
  t = await buildTestApp()
  app = t.app
  ;[owner, staff, viewer] = await Promise.all([
    makeStaff(app, 'owner').then((u) => signIn(app, u)),
    makeStaff(app, 'staff').then((u) => signIn(app, u)),
    makeStaff(app, 'viewer').then((u) => signIn(app, u)),
  ])
  const [site] = await app.db.select({ id: sites.id }).from(sites).where(eq(sites.host, 'localhost'))
  siteId = site!.id
})
afterAll(async () => {
  await t?.close()
})

const auditOf = (action: string) =>
  app.db.select().from(staffAudit).where(eq(staffAudit.action, action)).orderBy(desc(staffAudit.id))

describe('the content page', () => {
  beforeAll(async () => {
    await importStories(app.db, siteId, [
      { fullSlug: 'settings-draft-test', name: 'Draft test page', content: { component: 'page', body: [] } },
    ])
  })
  const story = async () =>
    (
      await app.db
        .select()
        .from(contentStories)
        .where(and(eq(contentStories.siteId, siteId), eq(contentStories.fullSlug, 'settings-draft-test')))
    )[0]!

  it('lists every role the site’s pages with their state, and a viewer may not publish', async () => {
    const page = (await viewer.visit(`/admin/content?site=${siteId}`)).json()
    expect(page.component).toBe('admin/Content')
    expect(page.props.stories).toContainEqual(
      expect.objectContaining({ slug: 'settings-draft-test', kind: 'page', published: false }),
    )
    expect(page.props.canPublish).toBe(false)
    const refused = await viewer.post('/admin/content', {
      intent: 'publish',
      site: siteId,
      slug: 'settings-draft-test',
    })
    expect(refused.statusCode).toBe(403)
    expect((await story()).publishedContent).toBeNull()
  })

  it('publishes a draft for staff, with an audit row naming who did it', async () => {
    const res = await staff.post('/admin/content', {
      intent: 'publish',
      site: siteId,
      slug: 'settings-draft-test',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().props.notice).toBe('settings-draft-test was published.')
    expect((await story()).publishedContent).toEqual((await story()).draftContent)
    const [row] = await auditOf('content.publish')
    expect(row).toMatchObject({ targetId: `${siteId}:settings-draft-test`, before: { publishedAt: null } })
    expect(row!.actorEmail).toMatch(/^staff/)
  })

  it('records two publications sent at once one after the other: the second’s before is the first’s after', async () => {
    const answers = await Promise.all(
      [staff, owner].map((who) =>
        who.post('/admin/content', { intent: 'publish', site: siteId, slug: 'settings-draft-test' }),
      ),
    )
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200])
    const [second, first] = await auditOf('content.publish')
    expect(second!.before).toEqual({ publishedAt: (first!.after as { publishedAt: string }).publishedAt })
    expect((await story()).publishedAt?.toISOString()).toBe(
      (second!.after as { publishedAt: string }).publishedAt,
    )
  })

  it('refuses an unknown slug or site with a message and publishes nothing', async () => {
    const before = (await auditOf('content.publish')).length
    const unknown = await staff.post('/admin/content', {
      intent: 'publish',
      site: siteId,
      slug: 'no-such-story',
    })
    expect(unknown.statusCode).toBe(422)
    expect(unknown.json().props.errors.form).toBe('No story of this site has this slug.')
    const noSite = await staff.post('/admin/content', {
      intent: 'publish',
      site: 999_999,
      slug: 'settings-draft-test',
    })
    expect(noSite.statusCode).toBe(404)
    expect((await staff.visit('/admin/content?site=999999')).statusCode).toBe(404)
    const list = await staff.post('/admin/content', [] as unknown as Record<string, unknown>)
    expect(list.statusCode).toBe(422)
    expect(list.json().props.errors.form).toBe('The request could not be understood.')
    expect(await auditOf('content.publish')).toHaveLength(before)
  })
})

describe('the search page', () => {
  it('adds a redirect rule for staff that the shop’s search then follows, with its audit row', async () => {
    const res = await staff.post('/admin/search', {
      intent: 'add',
      site: siteId,
      query: '  Fire   EXIT test ',
      url: '/fire-exit-signs',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().props.rules).toContainEqual(
      expect.objectContaining({ query: 'fire exit test', url: '/fire-exit-signs' }),
    )
    expect(app.searchService.redirectFor(siteId, 'fire exit TEST')).toBe('/fire-exit-signs')
    const [row] = await auditOf('search.redirect.set')
    expect(row).toMatchObject({ before: null, after: { query: 'fire exit test', url: '/fire-exit-signs' } })
  })

  it('refuses a URL the API refuses, and an empty query, changing nothing', async () => {
    const count = async () =>
      (await app.db.select().from(searchRedirects).where(eq(searchRedirects.siteId, siteId))).length
    const before = await count()
    const bad = await staff.post('/admin/search', {
      intent: 'add',
      site: siteId,
      query: 'x',
      url: 'javascript:alert(1)',
    })
    expect(bad.statusCode).toBe(422)
    expect(bad.json().props.errors.url).toBeTruthy()
    const empty = await staff.post('/admin/search', { intent: 'add', site: siteId, query: '   ', url: '/x' })
    expect(empty.statusCode).toBe(422)
    expect(empty.json().props.errors.query).toBeTruthy()
    expect(await count()).toBe(before)
  })

  it('shows a viewer the rules but refuses its changes and a rebuild', async () => {
    const page = (await viewer.visit('/admin/search')).json()
    expect(page.component).toBe('admin/SearchSettings')
    expect(page.props.canAct).toBe(false)
    for (const body of [
      { intent: 'add', site: siteId, query: 'viewer rule', url: '/x' },
      { intent: 'remove', site: siteId, query: 'fire exit test' },
      { intent: 'reindex', site: siteId },
    ])
      expect((await viewer.post('/admin/search', body)).statusCode).toBe(403)
    expect(app.searchService.redirectFor(siteId, 'viewer rule')).toBeNull()
    expect(app.searchService.redirectFor(siteId, 'fire exit test')).toBe('/fire-exit-signs')
  })

  it('removes a rule and rebuilds the index, each recorded', async () => {
    const removed = await staff.post('/admin/search', {
      intent: 'remove',
      site: siteId,
      query: 'Fire exit test',
    })
    expect(removed.statusCode).toBe(200)
    expect(app.searchService.redirectFor(siteId, 'fire exit test')).toBeNull()
    expect((await auditOf('search.redirect.remove'))[0]).toMatchObject({ after: null })
    const again = await staff.post('/admin/search', {
      intent: 'remove',
      site: siteId,
      query: 'Fire exit test',
    })
    expect(again.statusCode).toBe(422)
    const rebuilt = await staff.post('/admin/search', { intent: 'reindex', site: siteId })
    expect(rebuilt.statusCode).toBe(200)
    await app.searchService.idle()
    expect((await auditOf('search.reindex'))[0]).toMatchObject({ targetId: String(siteId) })
  })
})

describe('the API tokens page', () => {
  it('is the owner’s only: staff and viewers are refused the page and a creation', async () => {
    for (const who of [staff, viewer]) {
      expect((await who.visit('/admin/tokens')).statusCode).toBe(403)
      const res = await who.post('/admin/tokens', { intent: 'create', site: siteId, name: 'Sneaky' })
      expect(res.statusCode).toBe(403)
    }
    expect(await app.db.select().from(adminTokens).where(eq(adminTokens.name, 'Sneaky'))).toHaveLength(0)
  })

  it('makes a working token, shows its secret in that answer only and never in the list or the audit', async () => {
    const res = await owner.post('/admin/tokens', { intent: 'create', site: siteId, name: 'ERP sync' })
    expect(res.statusCode).toBe(200)
    const { created } = res.json().props
    expect(created.token).toMatch(/^shop_adm_/)
    const api = await app.inject({
      url: '/api/admin/v1/webhook-endpoints',
      headers: { host: 'localhost', authorization: `Bearer ${created.token}` },
    })
    expect(api.statusCode).toBe(200)
    const list = await owner.visit('/admin/tokens')
    expect(list.json().props.created).toBeNull()
    expect(list.body).not.toContain(created.token)
    expect(list.json().props.tokens).toContainEqual(
      expect.objectContaining({ id: created.id, name: 'ERP sync', site: 'localhost', revokedAt: null }),
    )
    expect(
      list.json().props.tokens.find((x: { id: number }) => x.id === created.id).lastUsedAt,
    ).not.toBeNull()
    const [row] = await auditOf('token.create')
    expect(row).toMatchObject({ targetId: String(created.id), after: { name: 'ERP sync' } })
    expect(JSON.stringify(row)).not.toContain(created.token)

    const revoked = await owner.post('/admin/tokens', { intent: 'revoke', id: created.id })
    expect(revoked.statusCode).toBe(200)
    const after = await app.inject({
      url: '/api/admin/v1/webhook-endpoints',
      headers: { host: 'localhost', authorization: `Bearer ${created.token}` },
    })
    expect(after.statusCode).toBe(401)
    expect((await auditOf('token.revoke'))[0]).toMatchObject({ targetId: String(created.id) })
    expect((await owner.post('/admin/tokens', { intent: 'revoke', id: created.id })).statusCode).toBe(422)
  })

  it('refuses an empty name, a control character, or a missing CSRF token, and makes nothing', async () => {
    const before = (await app.db.select().from(adminTokens)).length
    const empty = await owner.post('/admin/tokens', { intent: 'create', site: siteId, name: '  ' })
    expect(empty.statusCode).toBe(422)
    expect(empty.json().props.errors.name).toBe('Please fill in this field.')
    const control = await owner.post('/admin/tokens', { intent: 'create', site: siteId, name: 'a\u0007b' })
    expect(control.statusCode).toBe(422)
    const noCsrf = await owner.post(
      '/admin/tokens',
      { intent: 'create', site: siteId, name: 'No CSRF' },
      {
        'x-admin-csrf': '',
      },
    )
    expect(noCsrf.statusCode).toBe(419)
    expect((await app.db.select().from(adminTokens)).length).toBe(before)
  })
})

describe('the webhook endpoints page', () => {
  const url = 'http://127.0.0.1:9/settings-test-hooks'
  let id = ''
  const endpoint = async () =>
    (await app.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0]!

  it('is the owner’s only', async () => {
    for (const who of [staff, viewer]) {
      expect((await who.visit('/admin/webhooks')).statusCode).toBe(403)
      const res = await who.post('/admin/webhooks', {
        intent: 'create',
        site: siteId,
        url,
        eventTypes: ['order.placed'],
      })
      expect(res.statusCode).toBe(403)
    }
    expect(
      await app.db.select().from(webhookEndpoints).where(like(webhookEndpoints.url, '%settings-test%')),
    ).toHaveLength(0)
  })

  it('adds an endpoint with its secret shown once, and refuses a bad address or no events', async () => {
    const bad = await owner.post('/admin/webhooks', {
      intent: 'create',
      site: siteId,
      url: 'ftp://x.example/h',
      eventTypes: ['order.placed'],
    })
    expect(bad.statusCode).toBe(422)
    expect(bad.json().props.errors.url).toBeTruthy()
    const none = await owner.post('/admin/webhooks', { intent: 'create', site: siteId, url, eventTypes: [] })
    expect(none.statusCode).toBe(422)
    expect(none.json().props.errors.eventTypes).toBe('Please choose at least one event.')
    expect(
      await app.db.select().from(webhookEndpoints).where(like(webhookEndpoints.url, '%settings-test%')),
    ).toHaveLength(0)

    const res = await owner.post('/admin/webhooks', {
      intent: 'create',
      site: siteId,
      url,
      description: 'Warehouse',
      eventTypes: ['order.placed', 'order.shipped'],
    })
    expect(res.statusCode).toBe(200)
    const { secret, endpoints } = res.json().props
    expect(secret.secret).toMatch(/^whsec_/)
    id = secret.endpointId
    expect(endpoints).toContainEqual(
      expect.objectContaining({ id, url, eventTypes: ['order.placed', 'order.shipped'] }),
    )
    const list = await owner.visit('/admin/webhooks')
    expect(list.body).not.toContain(secret.secret)
    const [row] = await auditOf('webhook.create')
    expect(row).toMatchObject({ targetId: id, after: { url, enabled: true } })
    expect(JSON.stringify(row)).not.toContain(secret.secret)
  })

  it('changes the events, refusing none or an unknown one', async () => {
    const none = await owner.post('/admin/webhooks', { intent: 'events', site: siteId, id, eventTypes: [] })
    expect(none.statusCode).toBe(422)
    expect(none.json().props.errors[`events-${id}`]).toBe('Please choose at least one event.')
    const unknown = await owner.post('/admin/webhooks', {
      intent: 'events',
      site: siteId,
      id,
      eventTypes: ['order.eaten'],
    })
    expect(unknown.statusCode).toBe(422)
    expect((await endpoint()).eventTypes).toEqual(['order.placed', 'order.shipped'])
    const ok = await owner.post('/admin/webhooks', {
      intent: 'events',
      site: siteId,
      id,
      eventTypes: 'order.shipped',
    })
    expect(ok.statusCode).toBe(200)
    expect((await endpoint()).eventTypes).toEqual(['order.shipped'])
    expect((await auditOf('webhook.events'))[0]).toMatchObject({
      before: { eventTypes: ['order.placed', 'order.shipped'] },
      after: { eventTypes: ['order.shipped'] },
    })
  })

  it('disables and enables it, saying who disabled it, and rotates its secret', async () => {
    const off = await owner.post('/admin/webhooks', { intent: 'disable', site: siteId, id })
    expect(off.statusCode).toBe(200)
    const shown = off.json().props.endpoints.find((e: { id: string }) => e.id === id)
    expect(shown).toMatchObject({
      enabled: false,
      disabledReason: 'Disabled by a person, through the back office.',
    })
    expect((await auditOf('webhook.disable'))[0]).toMatchObject({
      before: { enabled: true },
      after: { enabled: false },
    })
    const test = await owner.post('/admin/webhooks', { intent: 'test', site: siteId, id })
    expect(test.statusCode).toBe(422)
    const on = await owner.post('/admin/webhooks', { intent: 'enable', site: siteId, id, skipBacklog: true })
    expect(on.statusCode).toBe(200)
    expect((await endpoint()).enabled).toBe(true)

    const oldSecret = (await endpoint()).secret
    const rotated = await owner.post('/admin/webhooks', { intent: 'rotate', site: siteId, id })
    expect(rotated.statusCode).toBe(200)
    const { secret } = rotated.json().props
    expect(secret.secret).toBe((await endpoint()).secret)
    expect(secret.secret).not.toBe(oldSecret)
    expect(secret.until).not.toBeNull()
    const [row] = await auditOf('webhook.rotate_secret')
    expect(JSON.stringify(row)).not.toContain(secret.secret)
    expect(JSON.stringify(row)).not.toContain(oldSecret)
  })

  it('queues a test message and lists it among the endpoint’s recent deliveries', async () => {
    const sent = await owner.post('/admin/webhooks', { intent: 'test', site: siteId, id })
    expect(sent.statusCode).toBe(200)
    const page = (await owner.visit(`/admin/webhooks?site=${siteId}&endpoint=${id}`)).json()
    expect(page.props.deliveries.endpointId).toBe(id)
    expect(page.props.deliveries.items[0]).toMatchObject({ type: 'webhook.test' })
    expect((await auditOf('webhook.test'))[0]).toMatchObject({ targetId: id })
  })

  it('answers an unknown endpoint with a message and no change', async () => {
    const res = await owner.post('/admin/webhooks', { intent: 'disable', site: siteId, id: 'ep_nothere' })
    expect(res.statusCode).toBe(422)
    expect(res.json().props.errors.form).toBe('No webhook endpoint has this id.')
    const bad = await owner.post('/admin/webhooks', { intent: 'disable', site: siteId, id: "'; drop" })
    expect(bad.statusCode).toBe(422)
  })
})
