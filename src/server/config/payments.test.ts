import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig, loadSimulatorServiceSettings } from '../config.ts'
import { simulatorProviders } from './payments.ts'

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

  describe('a simulator service of its own process (PAYMENTS_SIMULATOR_URL, ADR 0195)', () => {
    it('starts no simulator and names the service, for the server and for the browser', () => {
      const c = loadConfig({
        ...base,
        PAYMENTS_SIMULATOR_PORT: '4194',
        PAYMENTS_SIMULATOR_URL: 'http://simulators:3100/',
        PAYMENTS_SIMULATOR_PUBLIC_URL: 'https://shop.example:8081',
      }).payments
      expect(c).toMatchObject({ mode: 'simulator', simulator: null, providers: null })
      expect(c.simulatorService).toEqual({
        url: 'http://simulators:3100',
        publicUrl: 'https://shop.example:8081',
      })
    })

    it('shows the browser the same address unless a public one is given', () => {
      const c = loadConfig({ ...base, PAYMENTS_SIMULATOR_URL: 'http://127.0.0.1:4501' }).payments
      expect(c.simulatorService).toEqual({ url: 'http://127.0.0.1:4501', publicUrl: 'http://127.0.0.1:4501' })
    })

    it('keeps starting its own simulators when the URL is unset or empty', () => {
      const c = loadConfig({ NODE_ENV: 'production', PAYMENTS_SIMULATOR_URL: '' }).payments
      expect(c.simulator).toEqual({ host: '127.0.0.1', port: 3100 })
      expect(c.simulatorService).toBeUndefined()
    })

    it('refuses a URL that is not an http(s) origin, in one line naming the variable', () => {
      for (const [name, value] of [
        ['PAYMENTS_SIMULATOR_URL', 'ftp://simulators:3100'],
        ['PAYMENTS_SIMULATOR_URL', 'simulators:3100'],
        ['PAYMENTS_SIMULATOR_URL', 'http://simulators:3100/sims'],
        ['PAYMENTS_SIMULATOR_PUBLIC_URL', 'javascript:alert(1)'],
      ] as const) {
        let error: unknown
        try {
          loadConfig({ ...base, PAYMENTS_SIMULATOR_URL: 'http://simulators:3100', [name]: value })
        } catch (err) {
          error = err
        }
        expect(error).toBeInstanceOf(ConfigError)
        expect((error as ConfigError).issues).toEqual([
          `${name}: must be an http(s) origin such as http://simulators:3100 (no path), not '${value}'`,
        ])
      }
    })

    it('refuses to start live with a provider URL at the simulator service', () => {
      expect(() =>
        loadConfig({
          ...base,
          ...opayo,
          PAYMENTS_MODE: 'live',
          PAYMENTS_SIMULATOR_URL: 'https://sims.example',
          OPAYO_BASE_URL: 'https://sims.example/opayo/api/v1',
        }),
      ).toThrow(/OPAYO_BASE_URL: live payments must use/)
    })

    it("points the providers' server calls at the service and the browser's pages at its public origin", () => {
      const p = simulatorProviders('http://simulators:3100', 'key', 'http://localhost:8081')
      expect(p.sagepay).toMatchObject({
        baseUrl: 'http://simulators:3100/opayo/api/v1',
        scriptUrl: 'http://localhost:8081/opayo/api/v1/js/sagepay.js',
      })
      expect(p.paya).toMatchObject({
        baseUrl: 'http://simulators:3100/paya',
        formBaseUrl: 'http://localhost:8081/paya',
      })
      expect(p.paypal).toMatchObject({
        baseUrl: 'http://simulators:3100/paypal',
        sdkUrl: 'http://localhost:8081/paypal/sdk/js',
      })
      expect(p.amazon).toMatchObject({
        baseUrl: 'http://simulators:3100/amazon',
        scriptUrl: 'http://localhost:8081/amazon/checkout.js',
      })
      expect(p.amazon!.snsCertHost.test('localhost:8081')).toBe(true)
      // In-process, one origin serves both: the form is where the API is.
      expect(simulatorProviders('http://127.0.0.1:3114', 'key').paya?.formBaseUrl).toBeUndefined()
    })

    it("reads the service's own settings: where it listens and its public origin", () => {
      expect(loadSimulatorServiceSettings({})).toEqual({ host: '127.0.0.1', port: 3100, publicUrl: null })
      expect(
        loadSimulatorServiceSettings({
          PAYMENTS_SIMULATOR_HOST: '0.0.0.0',
          PAYMENTS_SIMULATOR_PORT: '3100',
          PAYMENTS_SIMULATOR_PUBLIC_URL: 'http://localhost:8081',
          // The shop's variables are not the service's business.
          SESSION_SECRET: '',
        }),
      ).toEqual({ host: '0.0.0.0', port: 3100, publicUrl: 'http://localhost:8081' })
      expect(() => loadSimulatorServiceSettings({ PAYMENTS_SIMULATOR_PORT: 'x' })).toThrow(ConfigError)
      expect(loadSimulatorServiceSettings({ PAYMENTS_MODE: 'simulator' }).port).toBe(3100)
      expect(() => loadSimulatorServiceSettings({ PAYMENTS_MODE: 'live' })).toThrow(
        "PAYMENTS_MODE: the payment simulator service runs only in simulator mode, not 'live'",
      )
      expect(() => loadSimulatorServiceSettings({ PAYMENTS_SIMULATOR_PUBLIC_URL: 'file:///etc' })).toThrow(
        /PAYMENTS_SIMULATOR_PUBLIC_URL: must be an http\(s\) origin/,
      )
    })
  })

  it('refuses simulator mode combined with real credentials', () => {
    expect(() => loadConfig({ ...base, ...opayo, PAYMENTS_MODE: 'simulator' })).toThrow(ConfigError)
  })
})
