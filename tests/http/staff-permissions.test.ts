/**
 * Every /admin route declares who may reach it, and the server enforces it: a viewer is refused
 * every action it may not take (not only hidden on the page), owners manage staff, every change
 * leaves an audit row, and invitations work once.
 */
import type { RouteOptions } from 'fastify'
import { desc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mailJobs } from '../../src/server/modules/mail/mail.tables.ts'
import { can, PERMISSIONS, type StaffAccess } from '../../src/server/modules/staff/permissions.ts'
import {
  staffAudit,
  staffInvitations,
  staffSessions,
  staffUsers,
} from '../../src/server/modules/staff/staff.tables.ts'
import { buildApp } from '../../src/server/app.ts'
import { loadConfig } from '../../src/server/config.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'
import { codeFor, makeStaff, signIn, StaffBrowser, type MadeStaff } from './staff.fixture.ts'
import type { FastifyInstance } from 'fastify'

let app: FastifyInstance
let testDb: TestDatabase
const routes: RouteOptions[] = []

beforeAll(async () => {
  testDb = await createTestDatabase()
  const config = loadConfig({ NODE_ENV: 'test', SEED_ON_START: 'false' }, { trustProxy: true })
  app = await buildApp(config, {
    database: testDb.database,
    migrated: true,
    onRoute: (r) => void routes.push(r),
  })
  await app.ready()
})
afterAll(async () => {
  await app?.close()
  await testDb?.dispose()
})

// Fastify adds a HEAD route beside each GET: the same handler and checks.
const adminRoutes = () => routes.filter((r) => r.url.startsWith('/admin') && r.method !== 'HEAD')
const accessOf = (r: RouteOptions) => (r.config as { staffAccess?: StaffAccess } | undefined)?.staffAccess
const concrete = (url: string) => url.replace(':number', '100001').replace(':token', 'x'.repeat(43))

describe('the access every /admin route declares', () => {
  it('is declared on every /admin route, each with its check', () => {
    expect(adminRoutes().length).toBeGreaterThanOrEqual(12)
    for (const r of adminRoutes()) {
      expect(accessOf(r), `${String(r.method)} ${r.url}`).toBeDefined()
      expect(r.preHandler, `${String(r.method)} ${r.url}`).toBeDefined()
    }
  })

  it('refuses a viewer, on the server, every route whose action a viewer may not take', async () => {
    const viewer = await signIn(app, await makeStaff(app, 'viewer'))
    const refused = adminRoutes().filter((r) => {
      const a = accessOf(r)!
      return a in PERMISSIONS && !can('viewer', a as keyof typeof PERMISSIONS)
    })
    expect(refused.length).toBeGreaterThanOrEqual(3)
    for (const r of refused) {
      const method = ([r.method].flat()[0] ?? 'GET') as string
      const res =
        method === 'GET'
          ? await viewer.visit(concrete(r.url))
          : await viewer.post(concrete(r.url), {
              intent: 'invite',
              email: 'x@staff.example',
              name: 'X',
              role: 'owner',
            })
      expect(res.statusCode, `${method} ${r.url}`).toBe(403)
    }
    expect(
      await app.db.select().from(staffInvitations).where(eq(staffInvitations.email, 'x@staff.example')),
    ).toHaveLength(0)
  })

  it('sends a signed-out browser to the sign-in page (pages) or answers 401 (changes) on every protected route', async () => {
    const b = new StaffBrowser(app)
    for (const r of adminRoutes()) {
      const a = accessOf(r)!
      if (a === 'anonymous') continue
      const method = ([r.method].flat()[0] ?? 'GET') as string
      const res = method === 'GET' ? await b.visit(concrete(r.url)) : await b.post(concrete(r.url), {})
      if (method === 'GET') expect(res.headers.location, r.url).toBe('/admin/login')
      else expect(res.statusCode, r.url).toBe(401)
    }
  })

  it('shows a viewer the orders, and the pages list only the actions its role has', async () => {
    const viewer = await signIn(app, await makeStaff(app, 'viewer'))
    const page = (await viewer.visit('/admin/orders')).json()
    expect(page.component).toBe('admin/Orders')
    expect(page.props.admin.permissions).toContain('orders.view')
    for (const p of page.props.admin.permissions as string[]) expect(p).toMatch(/\.view$/)
  })
})

describe('staff users and the audit log', () => {
  let owner: MadeStaff
  let ownerBrowser: StaffBrowser
  beforeAll(async () => {
    owner = await makeStaff(app, 'owner')
    ownerBrowser = await signIn(app, owner)
  })

  it('invites by e-mail through the mail queue; the link sets a password once and leads to the two-factor set-up', async () => {
    const res = await ownerBrowser.post('/admin/staff', {
      intent: 'invite',
      email: 'New.Person@Staff.example',
      name: 'New Person',
      role: 'staff',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().props.notice).toBe('An invitation was sent to new.person@staff.example.')
    const [job] = await app.db.select().from(mailJobs).orderBy(desc(mailJobs.id)).limit(1)
    expect(job!.message.to).toEqual(['new.person@staff.example'])
    const link = /http:\/\/localhost(?::\d+)?(\/admin\/invitations\/[A-Za-z0-9_-]+)/.exec(
      job!.message.text,
    )![1]!

    const invitee = new StaffBrowser(app)
    const page = (await invitee.visit(link)).json()
    expect(page.props.invitation).toEqual({
      email: 'new.person@staff.example',
      name: 'New Person',
      role: 'staff',
    })
    const weak = await invitee.post(link, { password: 'short', password_confirmation: 'short' })
    expect(weak.statusCode).toBe(422)
    const accepted = await invitee.post(link, {
      password: 'Brand-new-pass-7',
      password_confirmation: 'Brand-new-pass-7',
    })
    expect(accepted.headers.location).toBe('/admin/two-factor/setup')
    // Used once: the link now says so, and a second account is never made.
    const again = await new StaffBrowser(app).post(link, {
      password: 'Brand-new-pass-7',
      password_confirmation: 'Brand-new-pass-7',
    })
    expect(again.statusCode).toBe(404)
    expect(again.json().props.invitation).toBeNull()
    const secret = (await invitee.visit('/admin/two-factor/setup')).json().props.secret as string
    expect((await invitee.post('/admin/two-factor/setup', { code: codeFor(secret) })).headers.location).toBe(
      '/admin/orders',
    )

    const audit = await app.db.select().from(staffAudit).orderBy(staffAudit.id)
    const actions = audit.map((a) => a.action)
    expect(actions).toEqual(
      expect.arrayContaining(['staff.invite', 'staff.invitation.accept', 'staff.two_factor.enable']),
    )
    const invite = audit.find((a) => a.action === 'staff.invite')!
    expect(invite).toMatchObject({
      actorId: owner.id,
      actorEmail: owner.email,
      after: { email: 'new.person@staff.example', role: 'staff' },
    })
  })

  it('refuses an invitation with a bad e-mail or role, naming the field, and writes nothing', async () => {
    const before = await app.db.select().from(staffInvitations)
    const res = await ownerBrowser.post('/admin/staff', {
      intent: 'invite',
      email: 'not-an-email',
      name: 'X',
      role: 'boss',
    })
    expect(res.statusCode).toBe(422)
    expect(Object.keys(res.json().props.errors).sort()).toEqual(['email', 'role'])
    expect(await app.db.select().from(staffInvitations)).toHaveLength(before.length)
  })

  it('changes a role with its before and after in the audit log', async () => {
    const someone = await makeStaff(app, 'viewer')
    const res = await ownerBrowser.post('/admin/staff', { intent: 'role', id: someone.id, role: 'staff' })
    expect(res.json().props.notice).toBe('The role was changed.')
    const [row] = await app.db
      .select()
      .from(staffAudit)
      .where(eq(staffAudit.action, 'staff.role'))
      .orderBy(desc(staffAudit.id))
      .limit(1)
    expect(row).toMatchObject({
      targetId: String(someone.id),
      before: { role: 'viewer' },
      after: { role: 'staff' },
      actorId: owner.id,
    })
  })

  it('disables an account: its sessions end at once and it cannot sign in', async () => {
    const someone = await makeStaff(app, 'staff')
    const theirs = await signIn(app, someone)
    await ownerBrowser.post('/admin/staff', { intent: 'disable', id: someone.id })
    expect((await theirs.visit('/admin/orders')).headers.location).toBe('/admin/login')
    expect(
      await app.db.select().from(staffSessions).where(eq(staffSessions.staffUserId, someone.id)),
    ).toHaveLength(0)
    const [row] = await app.db.select().from(staffUsers).where(eq(staffUsers.id, someone.id))
    expect(row!.disabledAt).not.toBeNull()
  })

  it('never leaves the shop without an owner, and an owner cannot demote or disable themself', async () => {
    const self = await ownerBrowser.post('/admin/staff', { intent: 'disable', id: owner.id })
    expect(self.json().props.errors.form).toBe('You cannot disable your own account.')
    const selfRole = await ownerBrowser.post('/admin/staff', { intent: 'role', id: owner.id, role: 'viewer' })
    expect(selfRole.statusCode).toBe(422)
  })

  it('shows the owner the audit log newest first, and refuses it to staff', async () => {
    const page = (await ownerBrowser.visit('/admin/audit')).json()
    expect(page.component).toBe('admin/Audit')
    expect(page.props.entries.length).toBeGreaterThan(0)
    const ats = (page.props.entries as { at: string }[]).map((e) => e.at)
    expect([...ats].sort().reverse()).toEqual(ats)
    const staffer = await signIn(app, await makeStaff(app, 'staff'))
    expect((await staffer.visit('/admin/audit')).statusCode).toBe(403)
  })

  it('keeps the audit log append-only in the database itself', async () => {
    await expect(app.db.update(staffAudit).set({ action: 'changed' })).rejects.toThrow()
    await expect(app.db.delete(staffAudit)).rejects.toThrow()
  })
})
