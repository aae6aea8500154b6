import { describe, expect, it } from 'vitest'
import { checkoutCsp, checkoutOrigins } from './checkout-csp.ts'
import { simulatorProviders, type ProviderConfigs } from '../../config/payments.ts'

const SITE =
  "default-src 'self';script-src 'self' 'nonce-abc';frame-src 'self' https://player.vimeo.com;connect-src 'self';form-action 'self';object-src 'none'"

describe('the checkout page CSP', () => {
  it('allows the simulator origin for every configured provider and nothing else', () => {
    const sim = 'http://127.0.0.1:3114'
    const origins = checkoutOrigins(simulatorProviders(sim, 'key'), 'simulator')
    expect(origins).toEqual({ script: [sim], frame: [sim], connect: [sim], form: [sim] })
    const csp = checkoutCsp(SITE, origins)
    expect(csp).toContain(`script-src 'self' 'nonce-abc' ${sim}`)
    expect(csp).toContain(`frame-src 'self' ${sim}`)
    expect(csp).not.toContain('vimeo')
    expect(csp).toContain(`form-action 'self' ${sim}`)
    expect(csp).toContain("object-src 'none'")
  })

  it('names each real provider host, and lets the 3-D Secure challenge reach any https bank', () => {
    const p: ProviderConfigs = {
      sagepay: {
        baseUrl: 'https://live.opayo.eu.elavon.com/api/v1',
        scriptUrl: 'https://live.opayo.eu.elavon.com/api/v1/js/sagepay.js',
        vendorName: 'v',
        integrationKey: 'k',
        integrationPassword: 'p',
      },
      paya: null,
      paypal: {
        baseUrl: 'https://api-m.paypal.com',
        sdkUrl: 'https://www.paypal.com/sdk/js',
        clientId: 'c',
        clientSecret: 's',
        webhookId: null,
      },
      amazon: null,
    }
    const o = checkoutOrigins(p, 'live')
    expect(o.script).toEqual([
      'https://live.opayo.eu.elavon.com',
      'https://www.paypal.com',
      'https://*.paypal.com',
    ])
    expect(o.form).toEqual(['https:'])
    expect(o.connect).toEqual(['https://www.paypal.com', 'https://*.paypal.com'])
  })

  it('names the simulator service where the browser reaches it, not where the server calls it', () => {
    const internal = 'http://simulators:3100'
    const browser = 'http://localhost:8081'
    const origins = checkoutOrigins(simulatorProviders(internal, 'key', browser), 'simulator')
    expect(origins).toEqual({ script: [browser], frame: [browser], connect: [browser], form: [browser] })
    expect(checkoutCsp(SITE, origins)).not.toContain(internal)
  })

  it('adds nothing when no provider is configured', () => {
    const none = checkoutOrigins({ sagepay: null, paya: null, paypal: null, amazon: null }, 'live')
    expect(checkoutCsp(SITE, none)).toBe(SITE.replace(' https://player.vimeo.com', ''))
  })
})
