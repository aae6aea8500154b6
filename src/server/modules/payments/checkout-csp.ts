/**
 * The checkout page's own Content-Security-Policy (PCI DSS v4 SAQ A: "not susceptible to attacks
 * from scripts"): the site-wide policy, with exactly the configured providers' script, frame and
 * connect origins added, computed from the payment configuration of all four providers. Other
 * pages never allow them.
 *
 * - sagepay: sagepay.js and its drop-in iframe come from Opayo's host; the 3-D Secure challenge
 *   is posted (form-action) into an iframe at the card issuer's ACS, whose host no one knows in
 *   advance: any https origin outside simulator mode, the simulator's otherwise.
 * - paya: the hosted payment form (iframe) on Paya's host (its form address, where the browser
 *   loads it, if that differs from the API's: a simulator service behind a proxy, ADR 0195).
 * - paypal: the JS SDK, its button and pop-up frames and their calls (*.paypal.com).
 * - amazon: checkout.js and its frames (*.payments-amazon.com).
 */
import type { PaymentsMode, ProviderConfigs } from '../../config/payments.ts'

export interface CheckoutOrigins {
  script: string[]
  frame: string[]
  connect: string[]
  form: string[]
}

const origin = (url: string) => new URL(url).origin

export function checkoutOrigins(p: ProviderConfigs, mode: PaymentsMode): CheckoutOrigins {
  const o = {
    script: new Set<string>(),
    frame: new Set<string>(),
    connect: new Set<string>(),
    form: new Set<string>(),
  }
  const real = mode !== 'simulator'
  if (p.sagepay) {
    const opayo = origin(p.sagepay.scriptUrl)
    o.script.add(opayo)
    o.frame.add(opayo)
    o.form.add(real ? 'https:' : opayo)
    o.frame.add(real ? 'https:' : opayo)
  }
  if (p.paya) o.frame.add(origin(p.paya.formBaseUrl ?? p.paya.baseUrl))
  if (p.paypal) {
    const sdk = origin(p.paypal.sdkUrl)
    for (const k of ['script', 'frame', 'connect'] as const) {
      o[k].add(sdk)
      if (real) o[k].add('https://*.paypal.com')
    }
  }
  if (p.amazon) {
    const amazon = origin(p.amazon.scriptUrl)
    for (const k of ['script', 'frame', 'connect'] as const) {
      o[k].add(amazon)
      if (real) o[k].add('https://*.payments-amazon.com')
    }
    // Amazon's button may post the shopper to Amazon's sign-in page.
    o.form.add(amazon)
  }
  // 'https:' already allows every https origin of the same directive.
  const tidy = (s: Set<string>) =>
    s.has('https:') ? ['https:', ...[...s].filter((x) => !x.startsWith('https'))] : [...s]
  return { script: tidy(o.script), frame: tidy(o.frame), connect: tidy(o.connect), form: tidy(o.form) }
}

/**
 * The site's policy with the providers' origins added: script-src, connect-src and form-action
 * extended; frame-src replaced by 'self' and the providers' frames (the content video players
 * have no place on the checkout).
 */
export function checkoutCsp(sitePolicy: string, origins: CheckoutOrigins): string {
  const directives = sitePolicy
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean)
    .map((d) => {
      const [name, ...values] = d.split(/\s+/)
      return [name!, values] as [string, string[]]
    })
  const set = (name: string, values: string[]) => {
    const found = directives.find(([n]) => n === name)
    if (found) found[1] = values
    else directives.push([name, values])
  }
  const get = (name: string) => directives.find(([n]) => n === name)?.[1] ?? ["'self'"]
  const add = (list: string[], extra: string[]) => [...new Set([...list, ...extra])]
  set('script-src', add(get('script-src'), origins.script))
  set('connect-src', add(get('connect-src'), origins.connect))
  set('form-action', add(get('form-action'), origins.form))
  set('frame-src', add(["'self'"], origins.frame))
  return directives.map(([n, v]) => [n, ...v].join(' ')).join(';')
}
