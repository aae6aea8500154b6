/**
 * Issue 32, item 5 (ADR 0195): one payment simulator service that several shop instances share.
 * `src/simulators/main.ts` runs as a child process (as `npm run simulators` runs it); two apps on
 * one database point at it with PAYMENTS_SIMULATOR_URL, start no simulator of their own, and see
 * the same provider records: a card or Paya payment taken through one is found (or completed) by
 * the other's reconciler.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildApp } from '../../src/server/app.ts'
import { loadConfig } from '../../src/server/config.ts'
import { paymentAttempts } from '../../src/server/modules/payments/payments.tables.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'

type App = Awaited<ReturnType<typeof buildApp>>

/** Whether this process imported the simulators' apps (the instances should not). */
const loaded = vi.hoisted(() => ({ simulators: false }))
vi.mock(import('../../src/simulators/index.ts'), async (importOriginal) => {
  loaded.simulators = true
  return await importOriginal()
})

const root = resolve(import.meta.dirname, '../..')
/** Where the browser would reach the service through a proxy (only named in pages and policies). */
const PUBLIC_URL = 'http://simulators.example.test:8081'

let child: ChildProcess | undefined
let serviceUrl = ''
let testDb: TestDatabase | undefined
const apps: App[] = []

/** Starts the simulator service's entry on a free loopback port; resolves with its origin. */
function startService(port = 0): Promise<string> {
  return new Promise((done, fail) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/simulators/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PAYMENTS_SIMULATOR_HOST: '127.0.0.1',
        PAYMENTS_SIMULATOR_PORT: String(port),
        PAYMENTS_SIMULATOR_PUBLIC_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child = proc
    let out = ''
    let err = ''
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
      if (m) done(m[1]!)
    })
    proc.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()))
    proc.once('exit', (code) => fail(new Error(`simulator service exited (${code}): ${err}`)))
  })
}

async function instance(): Promise<App> {
  const { payments } = loadConfig({
    NODE_ENV: 'test',
    PAYMENTS_MODE: 'simulator',
    PAYMENTS_SIMULATOR_URL: serviceUrl,
    PAYMENTS_SIMULATOR_PUBLIC_URL: PUBLIC_URL,
  })
  const config = loadConfig({ NODE_ENV: 'test', SEED_ON_START: 'false' }, { payments })
  const app = await buildApp(config, { database: testDb!.database, migrated: true })
  await app.ready()
  apps.push(app)
  return app
}

async function siteId(app: App, code: string): Promise<number> {
  const rows = await app.db.execute(sql`select id from sites where code = ${code}`)
  const list = (Array.isArray(rows) ? rows : (rows as { rows: { id: number }[] }).rows) as { id: number }[]
  return Number(list[0]!.id)
}

/** The hosted form's address as the browser gets it, turned into the service's (what the proxy does). */
const throughProxy = (url: string) => url.replace(PUBLIC_URL, serviceUrl)

let app1: App
let app2: App
beforeAll(async () => {
  serviceUrl = await startService()
  testDb = await createTestDatabase()
  app1 = await instance()
  app2 = await instance()
}, 180_000)

async function stopService(): Promise<void> {
  if (child && child.exitCode === null) {
    const exited = new Promise((done) => child!.once('exit', done))
    child.kill('SIGTERM')
    await exited
  }
}

afterAll(async () => {
  for (const app of apps) await app.close()
  await testDb?.dispose()
  await stopService()
})

describe('one payment simulator service for several shop instances', () => {
  it('answers its health and readiness checks', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const res = await fetch(`${serviceUrl}${path}`)
      expect(res.status).toBe(200)
    }
  })

  it('is used by both instances, which start no simulator of their own', () => {
    expect(loaded.simulators).toBe(false)
    for (const app of [app1, app2]) {
      expect(app.paymentSimulators).toBeNull()
      expect(app.paymentProviders.sagepay?.baseUrl).toBe(`${serviceUrl}/opayo/api/v1`)
      // The browser loads the simulators' scripts and forms from the public address.
      expect(app.paymentProviders.sagepay?.scriptUrl).toBe(`${PUBLIC_URL}/opayo/api/v1/js/sagepay.js`)
      expect(app.paymentProviders.paypal?.sdkUrl).toBe(`${PUBLIC_URL}/paypal/sdk/js`)
    }
  })

  it("finds through the second instance's reconciler a Paya payment taken through the first", async () => {
    const p1 = app1.payments
    const attempt = await p1.createAttempt({
      siteId: await siteId(app1, 'northgate'),
      orderRef: `sims-${Math.random().toString(36).slice(2, 10)}`,
      method: 'paya',
      amountMinor: 4200,
      currency: 'USD',
    })
    const form = await p1.payaForm(attempt.id, { orderNumber: attempt.orderRef, billingZip: '32606' })
    expect(form.iframeUrl.startsWith(`${PUBLIC_URL}/paya/v2/payform?`)).toBe(true)
    const page = await (await fetch(throughProxy(form.iframeUrl))).text()
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page)![1]!
    const paid = await fetch(`${serviceUrl}/paya/v2/payform/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        hash: field('hash'),
        data: field('data'),
        account_number: '4111111111111111',
        exp_date: '1230',
        cvv: '999',
        billing_zip: '32606',
      }),
    })
    expect(paid.status).toBe(200)
    // The first instance's confirmation is lost (a 5xx): the attempt is unknown there.
    const fault = await fetch(`${serviceUrl}/__sim/control/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'paya', match: 'GET /v2/transactions', kind: 'error500', times: 1 }),
    })
    expect(fault.status).toBe(204)
    expect((await p1.payaConfirm(attempt.id)).state).toBe('unknown')

    await app2.db
      .update(paymentAttempts)
      .set({ reconcileAfter: new Date(Date.now() - 1000) })
      .where(eq(paymentAttempts.id, attempt.id))
    await app2.jobs.runNow('payments-reconcile')
    const after = await app2.payments.get(attempt.id)
    expect(after?.state).toBe('captured')
    expect(after?.amountMinor).toBe(4200)
  })

  it('completes through the second instance a card payment whose answer the first did not get', async () => {
    const p1 = app1.payments
    const { merchantSessionKey } = await p1.cardSession()
    // The card form tokenises in the browser, at the provider (the simulator service).
    const tokenised = await fetch(`${serviceUrl}/opayo/api/v1/card-identifiers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${merchantSessionKey}` },
      body: JSON.stringify({
        cardDetails: {
          cardholderName: 'SUCCESSFUL',
          cardNumber: '4929000000006',
          expiryDate: '1230',
          securityCode: '123',
        },
      }),
    })
    expect(tokenised.status).toBe(201)
    const { cardIdentifier } = (await tokenised.json()) as { cardIdentifier: string }
    const attempt = await p1.createAttempt({
      siteId: await siteId(app1, 'harbour'),
      orderRef: `sims-${Math.random().toString(36).slice(2, 10)}`,
      method: 'sagepay',
      amountMinor: 2349,
      currency: 'GBP',
    })
    await fetch(`${serviceUrl}/__sim/control/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'opayo', match: 'POST /transactions$', kind: 'error500', times: 1 }),
    })
    const lost = await p1.cardPay(attempt.id, {
      merchantSessionKey,
      cardIdentifier,
      description: 'Harbour order',
      customer: { firstName: 'Sam', lastName: 'Jones', email: 'sam@example.com' },
      billingAddress: { address1: '88', city: 'London', postalCode: '412', country: 'GB' },
      browser: {
        browserIP: '127.0.0.1',
        browserAcceptHeader: 'text/html',
        browserJavascriptEnabled: true,
        browserLanguage: 'en-GB',
        browserUserAgent: 'test',
      },
      notificationURL: 'http://127.0.0.1/payments/3ds/notify',
      challengeWindowSize: 'Medium',
    })
    expect(lost.state).toBe('unknown')

    // The second instance repeats the request: the service knows the card identifier made for
    // the first (an instance's own simulators would not).
    await app2.db
      .update(paymentAttempts)
      .set({ reconcileAfter: new Date(Date.now() - 1000) })
      .where(eq(paymentAttempts.id, attempt.id))
    await app2.jobs.runNow('payments-reconcile')
    const after = await app2.payments.get(attempt.id)
    expect(after?.state).toBe('captured')
    expect(after?.providerRefs.opayoTransactionId).toBeTruthy()
  })

  it("accepts each instance's own Amazon Pay signature", async () => {
    // Each instance made its own key pair and registered its public half: an unknown session is
    // a 404 (null) for a signature the service accepts, a 401 (an error) otherwise.
    for (const app of [app1, app2])
      await expect(app.payments.adapters.amazon!.getCheckoutSession('no-such-session')).resolves.toBeNull()
  })

  it('stops the start of an instance whose simulator service refuses it, naming the URL', async () => {
    const notSimulators = createServer((_req, res) => {
      res.statusCode = 404
      res.end()
    })
    await new Promise<void>((done) => notSimulators.listen(0, '127.0.0.1', done))
    const url = `http://127.0.0.1:${(notSimulators.address() as AddressInfo).port}`
    try {
      const { payments } = loadConfig({ NODE_ENV: 'test', PAYMENTS_SIMULATOR_URL: url })
      const config = loadConfig({ NODE_ENV: 'test', SEED_ON_START: 'false' }, { payments })
      await expect(buildApp(config, { database: testDb!.database, migrated: true })).rejects.toThrow(
        `PAYMENTS_SIMULATOR_URL: the payment simulator service at ${url} could not be reached (answered 404)`,
      )
    } finally {
      notSimulators.close()
    }
  })

  it('refuses a merchant key that is not a public key, and keeps the ones it has', async () => {
    const res = await fetch(`${serviceUrl}/__sim/control/amazon-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ publicKey: 'x'.repeat(200) }),
    })
    expect(res.status).toBe(422)
    await expect(app1.payments.adapters.amazon!.getCheckoutSession('no-such-session')).resolves.toBeNull()
  })

  // Last: it restarts the service, which forgets every payment and key.
  it('tells a restarted service its Amazon Pay key again', async () => {
    // Only the instance's periodic registration runs on fake time; fetch and time-outs are real.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    try {
      const app3 = await instance()
      const amazon = app3.payments.adapters.amazon!
      await expect(amazon.getCheckoutSession('no-such-session')).resolves.toBeNull()
      await stopService()
      serviceUrl = await startService(Number(new URL(serviceUrl).port))
      // The restarted service knows no key: the instance's signature is refused…
      await expect(amazon.getCheckoutSession('no-such-session')).rejects.toThrow(/HTTP 401/)
      // …until the instance registers it again.
      await vi.advanceTimersByTimeAsync(30_000)
      await expect
        .poll(() => amazon.getCheckoutSession('no-such-session').catch((err: Error) => err.message), {
          timeout: 5000,
        })
        .toBeNull()
    } finally {
      vi.useRealTimers()
    }
  })
})
