import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  customerAddresses,
  customerContacts,
  customers,
  passwordResetTokens,
} from '../../../src/server/db/schema.ts'
import { AUTH_MESSAGES } from '../../../src/shared/auth.ts'
import type { MailMessage } from '../../../src/server/modules/auth/auth.mail.ts'
import { buildTestApp, type TestApp } from '../../helpers/app.ts'
import { Visitor } from './browser.ts'

const DEMO = { email: 'demo@harbour-safety.example', password: 'Harbour-demo-2026' }
const mail: MailMessage[] = []

let t: TestApp
let n = 0
beforeAll(async () => {
  t = await buildTestApp({ trustProxy: true }, { sendMail: async (m) => void mail.push(m) })
})
afterAll(() => t?.close())
beforeEach(() => {
  mail.length = 0
})

const visitor = () =>
  new Visitor(t.app, 'localhost', { 'x-forwarded-for': `10.9.${Math.floor(++n / 250)}.${n % 250}` })
/** Runs the account work that the e-mail-taking routes defer past their answer. */
const settle = () => t.app.auth.deferred.drain()
const linkIn = (m: MailMessage | undefined, path: string) => {
  const match = new RegExp(`http://localhost(?::\\d+)?(${path}[^\\s"<]*)`).exec(m?.text ?? '')
  return match?.[1]?.replace(/&amp;/g, '&')
}

const registration = (email: string, extra: Record<string, unknown> = {}) => ({
  first_name: 'Rhea',
  last_name: 'Gistered',
  email,
  password: 'Sturdy-pass-42',
  password_confirmation: 'Sturdy-pass-42',
  terms: true,
  ...extra,
})

describe('registration', () => {
  it('renders the page and its club variant', async () => {
    const v = visitor()
    expect((await v.visit('/register')).json()).toMatchObject({
      component: 'Auth/Register',
      props: { variant: 'standard' },
    })
    expect((await v.visit('/register/club')).json()).toMatchObject({
      component: 'Auth/Register',
      props: { variant: 'club' },
    })
  })

  it('creates an account, mails a verification link that logs the customer in once, then a welcome mail', async () => {
    const v = visitor()
    const res = await v.post('/customer/create', registration('new.customer@example.com'))
    expect(res.headers.location).toBe('/email/verify')
    expect((await v.visit('/email/verify')).json()).toMatchObject({
      component: 'Auth/VerifyEmail',
      props: { email: 'new.customer@example.com', auth: { customer: null } },
    })
    await settle()
    expect(mail).toHaveLength(1)
    expect(mail[0]).toMatchObject({
      to: 'new.customer@example.com',
      subject: 'Verify your email address - Harbour Safety Supplies',
    })
    expect(mail[0]!.html).toContain('Verify Email Address')
    const link = linkIn(mail[0], '/email/verify/')!
    // Opening the link only asks for a click: nothing is verified, nobody is logged in.
    const opened = await v.visit(link)
    expect(opened.json()).toMatchObject({ component: 'Auth/ConfirmEmail', props: { action: link } })
    const [before] = await t.app.db
      .select()
      .from(customers)
      .where(eq(customers.email, 'new.customer@example.com'))
    expect(before?.emailVerifiedAt).toBeNull()
    const verified = await v.post(link, {})
    expect(verified.headers.location).toBe('/login')
    expect((await v.visit('/')).json().props.auth.customer).toBeNull()
    const [after] = await t.app.db
      .select()
      .from(customers)
      .where(eq(customers.email, 'new.customer@example.com'))
    expect(after?.emailVerifiedAt).not.toBeNull()
    await settle()
    expect(mail.map((m) => m.subject)).toContain('Welcome to Harbour Safety Supplies')
    // Single use
    const other = visitor()
    await other.post(link, {})
    expect((await other.visit('/login')).json().flash).toEqual({ error: AUTH_MESSAGES.verificationInvalid })
  })

  it('stores the password as an argon2id hash with the OWASP parameters', async () => {
    await visitor().post('/customer/create', registration('hash.check@example.com'))
    await settle()
    const [row] = await t.app.db.select().from(customers).where(eq(customers.email, 'hash.check@example.com'))
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
  })

  it('answers a registered and a new e-mail identically, mailing the owner instead', async () => {
    const a = visitor()
    const b = visitor()
    const existing = await a.post('/customer/create', registration(DEMO.email))
    const fresh = await b.post('/customer/create', registration('brand.new@example.com'))
    expect(existing.statusCode).toBe(fresh.statusCode)
    expect(existing.body).toBe(fresh.body)
    expect(existing.headers.location).toBe(fresh.headers.location)
    expect(Object.keys(existing.headers).sort()).toEqual(Object.keys(fresh.headers).sort())
    const pa = (await a.visit('/email/verify')).json()
    const pb = (await b.visit('/email/verify')).json()
    expect(pa.component).toBe(pb.component)
    await settle()
    expect(mail.find((m) => m.to === DEMO.email)?.subject).toBe(
      'You already have an account - Harbour Safety Supplies',
    )
    // The existing account is untouched.
    const login = visitor()
    await login.post('/login', DEMO)
    expect((await login.visit('/')).json().props.auth.customer?.email).toBe(DEMO.email)
  })

  it.each([
    [
      { password: 'short1!', password_confirmation: 'short1!' },
      'password',
      'Password must be at least 10 characters and include a number, letter, and symbol.',
    ],
    [
      { password: 'nosymbol123', password_confirmation: 'nosymbol123' },
      'password',
      'Password must be at least 10 characters and include a number, letter, and symbol.',
    ],
    [{ password_confirmation: 'Sturdy-pass-43' }, 'password_confirmation', 'Passwords do not match.'],
    [{ first_name: '' }, 'first_name', 'This field is required.'],
    [{ last_name: '   ' }, 'last_name', 'This field is required.'],
    [{ email: 'no-at-sign' }, 'email', 'This email provided is invalid.'],
    [{ terms: false }, 'terms', 'Please accept the terms and conditions.'],
  ])('refuses %o with the message on %s and creates nothing', async (change, field, message) => {
    const v = visitor()
    const email = `invalid${n}@example.com`
    await v.post('/customer/create', registration(email, change), { referer: 'http://localhost/register' })
    const page = (await v.visit('/register')).json()
    expect(page.props.errors[field]).toBe(message)
    const rows = await t.app.db.select().from(customers).where(eq(customers.email, email))
    expect(rows).toHaveLength(0)
  })

  it('registers a club with its name, address, town, postcode and contact number', async () => {
    const v = visitor()
    const res = await v.post('/register/club', {
      ...registration('club.secretary@example.com'),
      company: 'Riverside Rowing Club',
      shipping_address1: '1 Towpath',
      shipping_town: 'Henley',
      shipping_postcode: 'RG9 1AA',
      phone: '01491 000 000',
    })
    expect(res.headers.location).toBe('/email/verify')
    await settle()
    const [row] = await t.app.db
      .select()
      .from(customers)
      .where(eq(customers.email, 'club.secretary@example.com'))
    expect(row).toMatchObject({ kind: 'club', company: 'Riverside Rowing Club' })
    // The club's details are its primary contact and primary shipping address.
    const [contact] = await t.app.db
      .select()
      .from(customerContacts)
      .where(eq(customerContacts.customerId, row!.id))
    expect(contact).toMatchObject({ phone: '01491 000 000', primary: true })
    const [address] = await t.app.db
      .select()
      .from(customerAddresses)
      .where(eq(customerAddresses.customerId, row!.id))
    expect(address).toMatchObject({
      type: 'shipping',
      address1: '1 Towpath',
      town: 'Henley',
      postcode: 'RG9 1AA',
      primary: true,
    })
  })

  it('requires the club fields on the club route', async () => {
    const v = visitor()
    await v.post('/register/club', registration('club2@example.com'), {
      referer: 'http://localhost/register/club',
    })
    const errors = (await v.visit('/register/club')).json().props.errors
    expect(Object.keys(errors).sort()).toEqual([
      'company',
      'phone',
      'shipping_address1',
      'shipping_postcode',
      'shipping_town',
    ])
  })

  it('resends the verification link with the spec status, without revealing anything', async () => {
    const v = visitor()
    await v.post('/customer/create', registration('resend@example.com'))
    // The account exists once its registration job has run (a person asks again later than that).
    await settle()
    await v.post('/email/verification-notification', {})
    const page = await v.visit('/email/verify')
    expect(page.json().flash).toEqual({ status: 'verification-link-sent' })
    await settle()
    expect(mail.filter((m) => m.to === 'resend@example.com')).toHaveLength(2)
  })

  it('refuses a verification link for another account or with a wrong token', async () => {
    const v = visitor()
    await v.post('/customer/create', registration('victim@example.com'))
    await settle()
    const link = linkIn(mail[0], '/email/verify/')!
    const [, , , id, token] = link.split('/')
    const other = visitor()
    await other.post(`/email/verify/${Number(id) - 1}/${token}`, {})
    await other.post(`/email/verify/${id}/wrong${token}`, {})
    // Opening someone else's unused link logs nobody in and verifies nothing (login CSRF).
    await other.visit(link)
    expect((await other.visit('/')).json().props.auth.customer).toBeNull()
    const [row] = await t.app.db.select().from(customers).where(eq(customers.email, 'victim@example.com'))
    expect(row?.emailVerifiedAt).toBeNull()
  })

  it('refuses a link opened on the other brand without using up its token', async () => {
    const v = visitor()
    await v.post('/customer/create', registration('brand.check@example.com'))
    await settle()
    const link = linkIn(
      mail.find((m) => m.to === 'brand.check@example.com'),
      '/email/verify/',
    )!
    const elsewhere = new Visitor(t.app, '127.0.0.1', { 'x-forwarded-for': '10.0.3.3' })
    await elsewhere.post(link, {})
    expect((await elsewhere.visit('/login')).json().flash).toEqual({
      error: AUTH_MESSAGES.verificationInvalid,
    })
    const res = await v.post(link, {})
    expect(res.headers.location).toBe('/login')
    const [row] = await t.app.db
      .select()
      .from(customers)
      .where(eq(customers.email, 'brand.check@example.com'))
    expect(row?.emailVerifiedAt).not.toBeNull()
  })
})

describe('forgot and reset password', () => {
  it('answers known and unknown e-mails with byte-identical responses and the same status', async () => {
    const a = visitor()
    const b = visitor()
    const known = await a.post('/forgot-password', { email: DEMO.email })
    const unknown = await b.post('/forgot-password', { email: 'ghost@example.com' })
    expect(known.statusCode).toBe(unknown.statusCode)
    expect(known.body).toBe(unknown.body)
    expect(known.headers.location).toBe(unknown.headers.location)
    const pa = (await a.visit('/forgot-password')).json()
    const pb = (await b.visit('/forgot-password')).json()
    expect(pa.flash).toEqual(pb.flash)
    expect(pa.flash.status.message).toBe(
      'If an account exists for that email address, we have emailed a password reset link.',
    )
    await settle()
    expect(mail.map((m) => m.to)).toEqual([DEMO.email])
  })

  it('resets the password once with the mailed link, then refuses the link', async () => {
    const v = visitor()
    await t.app.db.insert(customers).values({
      siteId: (await t.app.sites.forHost('localhost'))!.id,
      email: 'reset.me@example.com',
      firstName: 'R',
      lastName: 'M',
      passwordHash:
        '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$ZmFrZWhhc2hmYWtlaGFzaGZha2VoYXNoZmFrZWhhc2g',
    })
    await v.post('/forgot-password', { email: 'reset.me@example.com' })
    await settle()
    const link = linkIn(mail[0], '/reset-password')!
    const page = (await v.visit(link)).json()
    expect(page).toMatchObject({ component: 'Auth/ResetPassword', props: { email: 'reset.me@example.com' } })
    const token = page.props.token as string
    const body = {
      token,
      email: 'reset.me@example.com',
      password: 'Brand-new-pass-7',
      password_confirmation: 'Brand-new-pass-7',
    }
    const done = await v.post('/customer/password/update', body)
    expect(done.headers.location).toBe('/login')
    expect((await v.visit('/login')).json().flash.status).toEqual({
      message: 'Your password has been reset. Please log in with your new password.',
    })
    // Not logged in automatically
    expect((await v.visit('/')).json().props.auth.customer).toBeNull()
    await v.post('/login', { email: 'reset.me@example.com', password: 'Brand-new-pass-7' })
    expect((await v.visit('/')).json().props.auth.customer?.email).toBe('reset.me@example.com')
    // Second use of the same link
    const again = visitor()
    await again.post('/customer/password/update', {
      ...body,
      password: 'Other-pass-word-8',
      password_confirmation: 'Other-pass-word-8',
    })
    const status = (await again.visit('/reset-password')).json().flash.status
    expect(status).toEqual({
      message: 'This password reset link is invalid or has expired. Please request a new one.',
      type: 'error',
    })
  })

  it('ends the other sessions of the account when the password is reset', async () => {
    const elsewhere = visitor()
    await elsewhere.post('/login', DEMO)
    expect((await elsewhere.visit('/')).json().props.auth.customer?.email).toBe(DEMO.email)
    const v = visitor()
    await v.post('/forgot-password', { email: DEMO.email })
    await settle()
    const token = new URL(linkIn(mail[0], '/reset-password')!, 'http://x').searchParams.get('token')!
    await v.post('/customer/password/update', {
      token,
      email: DEMO.email,
      password: DEMO.password,
      password_confirmation: DEMO.password,
    })
    expect((await elsewhere.visit('/')).json().props.auth.customer).toBeNull()
  })

  it('refuses an expired token and a token for another e-mail address', async () => {
    const v = visitor()
    await v.post('/forgot-password', { email: DEMO.email })
    await settle()
    const link = linkIn(mail[0], '/reset-password')!
    const token = new URL(link, 'http://x').searchParams.get('token')!
    const body = { token, password: 'Brand-new-pass-7', password_confirmation: 'Brand-new-pass-7' }
    await v.post('/customer/password/update', { ...body, email: 'someone.else@example.com' })
    expect((await v.visit('/reset-password')).json().flash.status.type).toBe('error')
    await t.app.db.update(passwordResetTokens).set({ expiresAt: new Date(Date.now() - 1000) })
    await v.post('/customer/password/update', { ...body, email: DEMO.email })
    expect((await v.visit('/reset-password')).json().flash.status.type).toBe('error')
    const login = visitor()
    await login.post('/login', DEMO)
    expect((await login.visit('/')).json().props.auth.customer?.email).toBe(DEMO.email)
  })

  it('builds the link from the site host, not from a forged Host header', async () => {
    const res = await t.app.inject({
      url: '/forgot-password',
      headers: { host: 'evil.test', 'x-inertia': 'true', 'x-inertia-version': t.app.assetVersion },
    })
    expect(res.statusCode).toBe(404)
  })

  it('sends no-referrer on the reset page', async () => {
    const res = await visitor().visit('/reset-password?token=abc&email=a@b.c')
    expect(res.headers['referrer-policy']).toBe('no-referrer')
  })
})

describe('confirm password', () => {
  it('shows the spec text only to customers and accepts the right password', async () => {
    const v = visitor()
    expect((await v.visit('/user/confirm-password')).headers.location).toBe('/login')
    await v.post('/login', DEMO)
    expect((await v.visit('/user/confirm-password')).json().component).toBe('Auth/ConfirmPassword')
    await v.post('/user/confirm-password', { password: 'wrong-one' })
    expect((await v.visit('/user/confirm-password')).json().props.errors).toEqual({
      password: 'The provided password is incorrect.',
    })
    const ok = await v.post('/user/confirm-password', { password: DEMO.password })
    expect(ok.headers.location).toBe('/')
  })
})
