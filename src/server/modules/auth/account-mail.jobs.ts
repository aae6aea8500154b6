/**
 * Account e-mails whose decision an answer must neither wait for nor reveal (register, resend
 * verification, forgot password) as durable jobs on the shop's queue (ADR 0250, replacing the
 * in-memory deferred work of ADR 0012/0186).
 *
 * The route does the same thing for a known and an unknown address: one insert of a job named
 * for the form, with the same payload shape and a `runAt` a jittered delay ahead (production:
 * 150–650 ms), and answers. Whether the address has an account is first looked at in the job,
 * later and off the response path, so the answer's time cannot depend on it.
 *
 * - Durable: the job is a row committed before the answer; a process that dies after answering
 *   leaves it, and any instance's worker runs it (after a restart too).
 * - Nothing secret in the payload: no token (the job creates the verification or reset token
 *   itself) and no password; a registration's password *hash* is sealed with a key derived from
 *   the application secret (AES-GCM), since queue rows are kept for inspection.
 * - Once only: each job carries its own id, which is the idempotency key of the one message it
 *   may send (`account:<id>` in the mail queue, ADR 0186). A run that finds its message already
 *   queued (an earlier run got that far, then its lease ran out) does nothing, so it neither
 *   sends a second mail nor issues a token that would void the link of the first.
 * - A burst collapses: the job's key is the form and the address (`reset:<site>:<e-mail>`), so
 *   while one is waiting another is not added (the same for known and unknown addresses).
 */
import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import type { Executor } from '../../db/client.ts'
import type { JobQueue } from '../../jobs/queue.ts'
import {
  alreadyRegisteredMail,
  passwordResetMail,
  verificationMail,
  type MailBrand,
  type MailMessage,
} from './auth.mail.ts'
import type { SecretBox } from './auth.crypto.ts'
import type { AuthService } from './auth.service.ts'
import type { CustomerRow } from './auth.tables.ts'

/** The job names, one per form. */
export const ACCOUNT_MAIL_JOBS = {
  register: 'account-mail-register',
  verification: 'account-mail-verification',
  reset: 'account-mail-reset',
} as const

export type AccountMailKind = keyof typeof ACCOUNT_MAIL_JOBS

/** The deadline of one run: database work and the hand-off of one message to the mail queue. */
export const ACCOUNT_MAIL_TIMEOUT_MS = 60_000

/** Production delay before a job may run: 150–650 ms, fresh for every request. */
export const defaultAccountMailDelay = (): number => 150 + Math.floor(Math.random() * 500)

const brandSchema = z.object({
  siteName: z.string(),
  baseUrl: z.string(),
  logoUrl: z.string().nullable().optional(),
  contactEmail: z.string().optional(),
})

const base = {
  id: z.uuid(),
  key: z.string(),
  siteId: z.number().int(),
  email: z.string(),
  brand: brandSchema,
}

const payloads = {
  register: z.object({
    ...base,
    sealedHash: z.string(),
    details: z.object({
      firstName: z.string(),
      lastName: z.string(),
      kind: z.enum(['standard', 'club']),
      company: z.string().nullish(),
      phone: z.string().nullish(),
      address1: z.string().nullish(),
      town: z.string().nullish(),
      postcode: z.string().nullish(),
    }),
  }),
  verification: z.object(base),
  reset: z.object(base),
}

export type RegistrationDetails = z.infer<typeof payloads.register>['details']

/** Sends one message under an idempotency key (a second send of a key is ignored). */
export type SendKeyedMail = (message: MailMessage, key: string) => Promise<void>

export interface AccountMailJobsOptions {
  db: Executor
  jobs: JobQueue
  service: AuthService
  /** Seals the password hash of a registration while it waits in the queue. */
  box: SecretBox
  send: SendKeyedMail
  /** Whether the message of this key is already queued (absent: not known, always runs). */
  mailQueued?: (key: string) => Promise<boolean>
  /** Delay before a job may run (ms); called per request so it may be random. */
  delayMs: () => number
}

export class AccountMailJobs {
  /** Keys this process queued whose job has not finished (for `drain()`). */
  private readonly waiting = new Set<string>()

  constructor(private readonly opts: AccountMailJobsOptions) {}

  /** Queues a registration: the account is created (or found) in the job. */
  async register(
    siteId: number,
    brand: MailBrand,
    email: string,
    passwordHash: string,
    details: RegistrationDetails,
  ): Promise<void> {
    await this.enqueue('register', siteId, brand, email, {
      sealedHash: this.opts.box.seal(passwordHash),
      details,
    })
  }

  /** Queues a new verification link (or an 'already verified' note) for the address. */
  async resendVerification(siteId: number, brand: MailBrand, email: string): Promise<void> {
    await this.enqueue('verification', siteId, brand, email, {})
  }

  /** Queues a reset link for the address (sent only when it has an account). */
  async forgotPassword(siteId: number, brand: MailBrand, email: string): Promise<void> {
    await this.enqueue('reset', siteId, brand, email, {})
  }

  private async enqueue(
    kind: AccountMailKind,
    siteId: number,
    brand: MailBrand,
    email: string,
    extra: object,
  ): Promise<void> {
    const key = `${kind}:${siteId}:${email.trim().toLowerCase()}`
    const delay = Math.max(0, this.opts.delayMs())
    const payload = { id: randomUUID(), key, siteId, email, brand, ...extra }
    // Before the insert: a worker may run the job before this function goes on.
    this.waiting.add(key)
    try {
      await this.opts.jobs.enqueue(this.opts.db, ACCOUNT_MAIL_JOBS[kind], payload, {
        key,
        runAt: new Date(Date.now() + delay),
      })
    } catch (err) {
      this.waiting.delete(key)
      throw err
    }
    // This process's workers look when the job is due rather than at their next poll.
    setTimeout(() => this.opts.jobs.wake(), delay + 5).unref()
  }

  /**
   * Waits until every job this process queued has run (tests; the queue must be started).
   * Rejects after `timeoutMs`.
   */
  async drain(timeoutMs = 15_000): Promise<void> {
    const end = Date.now() + timeoutMs
    while (this.waiting.size > 0) {
      if (Date.now() > end)
        throw new Error(`account mail jobs still waiting: ${[...this.waiting].join(', ')}`)
      this.opts.jobs.wake()
      await new Promise((r) => setTimeout(r, 10))
    }
  }

  /** The job handler of one kind (registered by `src/server/jobs/index.ts`). */
  async run(kind: AccountMailKind, raw: unknown): Promise<void> {
    const parsed = payloads[kind].safeParse(raw)
    if (!parsed.success) throw new Error(`${ACCOUNT_MAIL_JOBS[kind]}: malformed payload`)
    const job = parsed.data
    try {
      const mailKey = job.id
      if (this.opts.mailQueued && (await this.opts.mailQueued(mailKey))) return
      if (kind === 'register') await this.runRegister(payloads.register.parse(raw))
      else if (kind === 'verification') await this.runVerification(job)
      else await this.runReset(job)
    } finally {
      this.waiting.delete(job.key)
    }
  }

  private async runRegister(job: z.infer<typeof payloads.register>): Promise<void> {
    const { service } = this.opts
    const passwordHash = this.opts.box.open(job.sealedHash)
    if (!passwordHash) throw new Error('account-mail-register: payload sealed with another secret')
    const { created, customer } = await service.registerHashed(job.siteId, {
      ...job.details,
      email: job.email,
      passwordHash,
    })
    if (created && customer) return this.sendVerification(job, customer)
    const existing = await service.byEmail(job.siteId, job.email)
    // An earlier run of this very job created the account and stopped before its mail.
    if (existing && existing.passwordHash === passwordHash && !existing.emailVerifiedAt)
      return this.sendVerification(job, existing)
    // A guest from an earlier checkout: the owner of the address sets a password by link.
    if (existing && service.isGuest(existing)) return this.runReset({ ...job, email: existing.email })
    await this.alreadyRegistered(job, job.email)
  }

  private async runVerification(job: z.infer<typeof payloads.verification>): Promise<void> {
    const { service } = this.opts
    const customer = await service.byEmail(job.siteId, job.email)
    if (!(await service.mayMail('verify', job.siteId, job.email)) || !customer) return
    if (customer.emailVerifiedAt) await this.alreadyRegistered(job, customer.email)
    else await this.sendVerification(job, customer)
  }

  private async runReset(job: z.infer<typeof payloads.reset>): Promise<void> {
    const issued = await this.opts.service.issueResetToken(job.siteId, job.email)
    if (!issued) return
    const query = new URLSearchParams({ token: issued.token, email: issued.customer.email })
    const url = `${job.brand.baseUrl}/reset-password?${query}`
    await this.opts.send(passwordResetMail(job.brand, issued.customer.email, url), job.id)
  }

  private async sendVerification(job: { id: string; brand: MailBrand }, customer: CustomerRow) {
    const token = await this.opts.service.issueVerificationToken(customer)
    const link = `${job.brand.baseUrl}/email/verify/${customer.id}/${token}`
    await this.opts.send(verificationMail(job.brand, customer.email, customer.firstName, link), job.id)
  }

  private async alreadyRegistered(job: { id: string; brand: MailBrand }, email: string) {
    const { baseUrl } = job.brand
    await this.opts.send(
      alreadyRegisteredMail(job.brand, email, `${baseUrl}/login`, `${baseUrl}/forgot-password`),
      job.id,
    )
  }
}

/**
 * Registers the three account-mail jobs. Many instances: any instance's worker may run any of
 * them, once per job (the queue's claim and lease); a second run after a lease ran out finds its
 * message queued and stops (see above). `accountMail` is looked up at run time, since the auth
 * plugin is registered after the queue.
 */
export function registerAccountMailJobs(jobs: JobQueue, accountMail: () => AccountMailJobs): void {
  for (const kind of Object.keys(ACCOUNT_MAIL_JOBS) as AccountMailKind[]) {
    jobs.work(ACCOUNT_MAIL_JOBS[kind], (payload) => accountMail().run(kind, payload), {
      timeoutMs: ACCOUNT_MAIL_TIMEOUT_MS,
      retryLimit: 3,
      retryDelayMs: 5_000,
      concurrency: 2,
    })
  }
}
