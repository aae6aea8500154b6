/**
 * Issue 29, defect 13: the payment simulators' code is loaded in simulator mode and only there.
 * A shop in sandbox or live mode never imports it (in the server bundle it sits in chunks of its
 * own, reached only through the dynamic import in payments.plugin.ts; ADR 0126).
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { loadConfig } from '../../src/server/config.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'

/** The simulator modules the app has imported so far in this test file. */
const loaded = vi.hoisted(() => new Set<string>())

vi.mock(import('../../src/simulators/index.ts'), async (importOriginal) => {
  loaded.add('simulators/index')
  return await importOriginal()
})
vi.mock(import('../../src/simulators/keys.ts'), async (importOriginal) => {
  loaded.add('simulators/keys')
  return await importOriginal()
})

let t: TestApp | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

const opayo = { OPAYO_VENDOR_NAME: 'shop', OPAYO_INTEGRATION_KEY: 'k', OPAYO_INTEGRATION_PASSWORD: 'p' }

describe('loading the payment simulators', () => {
  it('does not load the simulator code when the shop starts in sandbox or live mode', async () => {
    for (const mode of ['sandbox', 'live']) {
      const { payments } = loadConfig({ NODE_ENV: 'test', PAYMENTS_MODE: mode, ...opayo })
      t = await buildTestApp({ payments })
      expect(t.app.payments.mode).toBe(mode)
      expect(t.app.paymentSimulators).toBeNull()
      expect([...loaded]).toEqual([])
      await t.close()
      t = undefined
    }
  })

  it('loads and starts the simulators in simulator mode', async () => {
    const { payments } = loadConfig({
      NODE_ENV: 'test',
      PAYMENTS_MODE: 'simulator',
      PAYMENTS_SIMULATOR_PORT: '0',
    })
    t = await buildTestApp({ payments })
    expect(t.app.payments.mode).toBe('simulator')
    expect(t.app.paymentSimulators?.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect([...loaded].sort()).toEqual(['simulators/index', 'simulators/keys'])
    const sdk = await fetch(`${t.app.paymentSimulators!.origin}/paypal/sdk/js?client-id=x`)
    expect(sdk.status).toBeLessThan(500)
  })
})
