/** A back-office browser for HTTP tests: keeps cookies, sends the /admin CSRF token like the admin pages. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { generateSync, generateSecret } from 'otplib'
import { hashPassword, SecretBox } from '../../src/server/modules/auth/auth.crypto.ts'
import { staffUsers, type StaffRole } from '../../src/server/modules/staff/staff.tables.ts'
import { inertiaHeaders } from '../helpers/app.ts'

export const STAFF_PASSWORD = 'Staff-pass-2026!'

let n = 0

export class StaffBrowser {
  readonly jar = new Map<string, string>()
  csrf = ''

  constructor(
    private readonly app: FastifyInstance,
    readonly ip = `10.77.${Math.floor(++n / 250)}.${n % 250}`,
  ) {}

  private store(res: LightMyRequestResponse) {
    for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const gone = c.value === '' || c.maxAge === 0 || (c.expires && c.expires.getTime() < Date.now())
      if (gone) this.jar.delete(c.name)
      else this.jar.set(c.name, c.value)
    }
    if (res.headers['x-inertia']) {
      const token = (res.json() as { props?: { admin?: { csrfToken?: string } } }).props?.admin?.csrfToken
      if (token) this.csrf = token
    }
  }

  private cookie(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  async visit(url: string, headers: Record<string, string> = {}) {
    const res = await this.app.inject({
      url,
      headers: {
        host: 'localhost',
        cookie: this.cookie(),
        'x-forwarded-for': this.ip,
        ...inertiaHeaders({ 'x-inertia-version': this.app.assetVersion }),
        ...headers,
      },
    })
    this.store(res)
    return res
  }

  async post(url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) {
    if (!this.csrf) await this.visit('/admin/login')
    const res = await this.app.inject({
      method: 'POST',
      url,
      payload,
      headers: {
        host: 'localhost',
        cookie: this.cookie(),
        'x-forwarded-for': this.ip,
        'x-admin-csrf': this.csrf,
        ...inertiaHeaders({ 'x-inertia-version': this.app.assetVersion }),
        ...headers,
      },
    })
    this.store(res)
    return res
  }
}

export interface MadeStaff {
  id: number
  email: string
  secret: string
  role: StaffRole
}

let made = 0

/** A staff account with two-factor on, written straight to the table. */
export async function makeStaff(
  app: FastifyInstance,
  role: StaffRole,
  opts: { twoFactor?: boolean } = {},
): Promise<MadeStaff> {
  const secret = generateSecret()
  const email = `${role}${++made}.${process.pid}@staff.example`
  const box = new SecretBox(app.config.session.secret)
  const twoFactor = opts.twoFactor !== false
  const [row] = await app.db
    .insert(staffUsers)
    .values({
      email,
      name: `${role} ${made}`,
      role,
      passwordHash: await hashPassword(STAFF_PASSWORD),
      ...(twoFactor ? { twoFactorSecret: box.seal(secret), twoFactorConfirmedAt: new Date() } : {}),
    })
    .returning({ id: staffUsers.id })
  return { id: row!.id, email, secret, role }
}

export const codeFor = (secret: string, offsetSteps = 0) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 })

/** Signs a new browser in as this account (password, then the code). */
export async function signIn(app: FastifyInstance, who: MadeStaff): Promise<StaffBrowser> {
  const b = new StaffBrowser(app)
  const login = await b.post('/admin/login', { email: who.email, password: STAFF_PASSWORD })
  if (login.headers.location !== '/admin/two-factor')
    throw new Error(
      `login went to ${login.headers.location} (${login.statusCode} ${login.body.slice(0, 300)})`,
    )
  const code = await b.post('/admin/two-factor', { code: codeFor(who.secret) })
  if (code.headers.location !== '/admin/orders')
    throw new Error(`code went to ${code.headers.location}: ${code.body}`)
  return b
}
