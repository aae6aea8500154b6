/**
 * Contract-test harness: the simulators on a free loopback port and the real app on an isolated
 * database, its payment adapters pointing at the simulators. The app also listens (loopback,
 * free port) so the simulators can deliver webhooks, IPNs and postbacks to it.
 */
import { generateKeyPairSync } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { simulatorProviders, type ProviderConfigs } from '../../../src/server/config/payments.ts'
import { startSimulators, type Simulators } from '../../../src/simulators/index.ts'
import type { AppDependencies } from '../../../src/server/app.ts'
import { buildTestApp, type TestApp } from '../../helpers/app.ts'

export interface PaymentsHarness extends TestApp {
  sims: Simulators
  providers: ProviderConfigs
  /** http://127.0.0.1:<port> of the listening app */
  shopOrigin: string
  siteId(code: 'harbour' | 'northgate'): Promise<number>
}

export async function startPaymentsHarness(
  timeoutMs = 1500,
  deps: Pick<AppDependencies, 'sendMail'> = {},
): Promise<PaymentsHarness> {
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const sims = await startSimulators({
    port: 0,
    amazonPublicKey: keys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  })
  const providers = simulatorProviders(
    sims.origin,
    keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  )
  const t = await buildTestApp(
    { payments: { mode: 'simulator', simulator: null, providers, timeoutMs } },
    deps,
  )
  await t.app.listen({ host: '127.0.0.1', port: 0 })
  const address = t.app.server.address()
  const shopOrigin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  return {
    ...t,
    sims,
    providers,
    shopOrigin,
    siteId: async (code) => {
      const rows = await t.app.db.execute(sql`select id from sites where code = ${code}`)
      const list = (Array.isArray(rows) ? rows : (rows as { rows: { id: number }[] }).rows) as {
        id: number
      }[]
      return Number(list[0]!.id)
    },
    close: async () => {
      await t.close()
      await sims.close()
    },
  }
}

/** A random order reference per test (the checkout's order ids are not needed here). */
export function orderRef(): string {
  return `test-${Math.random().toString(36).slice(2, 10)}`
}
