/**
 * The ad pixel and the tag manager (spec §7: add-to-cart events reach an ad pixel and a data
 * layer). A site turns each on in its settings: `adPixel` with `adPixelId` (the Meta pixel), and
 * `tagManagerId` (Google Tag Manager, which reads the `dataLayer` the shop always fills). Their
 * loaders are inline scripts carrying the page's CSP nonce, and the page's Content-Security-Policy
 * then allows exactly the origins those scripts load from and report to, for that site only.
 * Nothing is loaded, and the policy is unchanged, when a site has neither.
 */
import type { FastifyInstance } from 'fastify'
import type { Site } from './sites.service.ts'

export const PIXEL_ORIGINS = {
  script: ['https://connect.facebook.net'],
  img: ['https://www.facebook.com'],
  connect: ['https://www.facebook.com', 'https://connect.facebook.net'],
}
export const TAG_MANAGER_ORIGINS = {
  script: ['https://www.googletagmanager.com'],
  img: ['https://www.googletagmanager.com', 'https://www.google-analytics.com'],
  connect: [
    'https://www.googletagmanager.com',
    'https://www.google-analytics.com',
    'https://*.google-analytics.com',
    'https://*.analytics.google.com',
  ],
}

type SiteLike =
  { settings: Pick<Site['settings'], 'adPixel' | 'adPixelId' | 'tagManagerId'> } | null | undefined

/** The pixel id when the site turns the pixel on (digits only, checked by the settings schema). */
export function pixelIdOf(site: SiteLike): string | null {
  const s = site?.settings
  return s?.adPixel && s.adPixelId ? s.adPixelId : null
}

export function tagManagerIdOf(site: SiteLike): string | null {
  return site?.settings.tagManagerId || null
}

/**
 * The loader scripts for the site's pixel and tag manager, each with the CSP nonce. Ids are
 * validated by the settings schema (digits; GTM-XXXX) and serialised as JSON, so nothing from a
 * setting can close the script.
 */
export function marketingTags(site: SiteLike, nonce: string): string {
  const n = nonce.replace(/[^A-Za-z0-9+/=]/g, '')
  const tags: string[] = []
  const pixel = pixelIdOf(site)
  if (pixel) {
    tags.push(
      `<script nonce="${n}" data-marketing="ad-pixel">!function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=function(){n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments)};if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';n.queue=[];t=b.createElement(e);t.async=!0;t.nonce=${JSON.stringify(n)};t.src=v;s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}(window,document,'script','https://connect.facebook.net/en_US/fbevents.js');fbq('init',${JSON.stringify(pixel)});fbq('track','PageView');</script>`,
    )
  }
  const gtm = tagManagerIdOf(site)
  if (gtm) {
    tags.push(
      `<script nonce="${n}" data-marketing="tag-manager">(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],j=d.createElement(s);j.async=true;j.nonce=${JSON.stringify(n)};j.src='https://www.googletagmanager.com/gtm.js?id='+encodeURIComponent(i);f.parentNode.insertBefore(j,f)})(window,document,'script','dataLayer',${JSON.stringify(gtm)});</script>`,
    )
  }
  return tags.join('\n')
}

/** Adds origins to one directive of a serialised Content-Security-Policy. */
export function extendCsp(policy: string, directive: string, origins: string[]): string {
  if (origins.length === 0) return policy
  const parts = policy.split(';')
  const i = parts.findIndex((p) => p.trim().split(/\s+/)[0] === directive)
  if (i === -1) return [...parts, `${directive} ${origins.join(' ')}`].join(';')
  const have = new Set(parts[i]!.trim().split(/\s+/))
  parts[i] = [parts[i]!.trim(), ...origins.filter((o) => !have.has(o))].join(' ')
  return parts.join(';')
}

/** The page's policy with the origins of the site's pixel and tag manager added. */
export function marketingCsp(policy: string, site: SiteLike): string {
  const sets = [pixelIdOf(site) ? PIXEL_ORIGINS : null, tagManagerIdOf(site) ? TAG_MANAGER_ORIGINS : null]
  let out = policy
  for (const set of sets) {
    if (!set) continue
    out = extendCsp(out, 'script-src', set.script)
    out = extendCsp(out, 'img-src', set.img)
    out = extendCsp(out, 'connect-src', set.connect)
  }
  return out
}

/** Widens the CSP of HTML pages of sites that turn the pixel or tag manager on. */
export function installMarketingCsp(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const site = request.site
    if (!site || (!pixelIdOf(site) && !tagManagerIdOf(site))) return payload
    const policy = reply.getHeader('content-security-policy')
    if (typeof policy === 'string') reply.header('content-security-policy', marketingCsp(policy, site))
    return payload
  })
}
