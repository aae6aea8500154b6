import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../config.ts'

const base = { NODE_ENV: 'test' }
const opayo = { OPAYO_VENDOR_NAME: 'shop', OPAYO_INTEGRATION_KEY: 'k', OPAYO_INTEGRATION_PASSWORD: 'p' }

describe('payments configuration', () => {
  it('runs the simulators when no provider credentials are configured', () => {
    const c = loadConfig({ ...base, PAYMENTS_SIMULATOR_PORT: '4194' }).payments
    expect(c.mode).toBe('simulator')
    expect(c.simulator).toEqual({ host: '127.0.0.1', port: 4194 })
  })

  it('leaves starting simulators to the tests themselves unless a port is given', () => {
    expect(loadConfig(base).payments).toEqual({
      mode: 'simulator',
      simulator: null,
      providers: null,
      timeoutMs: 20_000,
    })
  })

  it('uses the sandbox hosts when credentials are given without a mode', () => {
    const c = loadConfig({ ...base, ...opayo }).payments
    expect(c.mode).toBe('sandbox')
    expect(c.providers?.sagepay?.baseUrl).toBe('https://sandbox.opayo.eu.elavon.com/api/v1')
    expect(c.providers?.paypal).toBeNull()
  })

  it('uses the live hosts in live mode', () => {
    const c = loadConfig({ ...base, ...opayo, PAYMENTS_MODE: 'live' }).payments
    expect(c.providers?.sagepay?.baseUrl).toBe('https://live.opayo.eu.elavon.com/api/v1')
  })

  it('refuses to start live with a provider URL on a loopback address', () => {
    for (const url of ['http://127.0.0.1:4194/opayo/api/v1', 'https://localhost/api/v1', 'https://[::1]/x']) {
      expect(() => loadConfig({ ...base, ...opayo, PAYMENTS_MODE: 'live', OPAYO_BASE_URL: url })).toThrow(
        ConfigError,
      )
    }
    expect(() =>
      loadConfig({
        ...base,
        PAYMENTS_MODE: 'live',
        PAYPAL_CLIENT_ID: 'id',
        PAYPAL_CLIENT_SECRET: 's',
        PAYPAL_SDK_URL: 'http://127.0.0.1:3100/paypal/sdk/js',
      }),
    ).toThrow(/PAYPAL_SDK_URL/)
  })

  it('refuses simulator mode combined with real credentials', () => {
    expect(() => loadConfig({ ...base, ...opayo, PAYMENTS_MODE: 'simulator' })).toThrow(ConfigError)
  })
})
