import type { Db } from '../../db/client.ts'
import type { HeaderMessage } from '../../../shared/page-props.ts'
import type { SiteProps } from '../../../shared/page-props.ts'
import { sanitizeRichText } from '../../lib/sanitize.ts'
import { siteSettingsSchema, type ResolvedSiteSettings, type SiteSettings } from './sites.settings.ts'
import { sites, type SiteRow } from './sites.tables.ts'

export interface Site {
  id: number
  host: string
  code: string
  name: string
  currency: 'GBP' | 'USD'
  logo: string | null
  /**
   * The header message's HTML is sanitised once, when the site is loaded. A sister site named by
   * its code has an empty url until a request works it out (withSisterLinks).
   */
  settings: Omit<ResolvedSiteSettings, 'headerMessage' | 'sisterSites'> & {
    headerMessage: HeaderMessage | null
    sisterSites: (SisterSiteLink & { site?: string })[]
  }
}

/** Host header value -> the host name used as the site key (no port, lower case). */
export function hostKey(host: string | undefined): string {
  if (!host) return ''
  const h = host.trim().toLowerCase()
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1)
  return h.replace(/:\d+$/, '')
}

/** A sister site as pages show it: always with its link. */
export interface SisterSiteLink {
  name: string
  url: string
  logo: string
}

/**
 * The site with its sister sites' links worked out: a sister named by its site code links to that
 * site's own address (`baseUrlOf`, the configured host with this request's scheme and port); one
 * given by url keeps it; one naming an unknown site is left out. The same site object comes back
 * for the same links, so the per-request work is a lookup.
 */
export function withSisterLinks(
  site: Site,
  siteByCode: (code: string) => Site | undefined,
  baseUrlOf: (sister: Site) => string,
): Site {
  const sisters = site.settings.sisterSites
  if (!sisters.some((s) => s.site !== undefined)) return site
  const links: SisterSiteLink[] = sisters.flatMap((s) => {
    const sister = s.site !== undefined ? siteByCode(s.site) : undefined
    const url = sister ? `${baseUrlOf(sister)}/` : s.site === undefined ? s.url : undefined
    return url ? [{ name: s.name, url, logo: s.logo }] : []
  })
  const key = links.map((l) => l.url).join('\n')
  let byKey = linked.get(site)
  if (!byKey) linked.set(site, (byKey = new Map()))
  let out = byKey.get(key)
  if (!out) {
    out = { ...site, settings: { ...site.settings, sisterSites: links } }
    byKey.set(key, out)
  }
  return out
}
const linked = new WeakMap<Site, Map<string, Site>>()

/** Settings laid over a site row's own (the content system's site settings stories). */
export type SettingsOverlay = (siteId: number) => Promise<Partial<SiteSettings>>

function parseSettings(value: unknown): ResolvedSiteSettings | null {
  const parsed = siteSettingsSchema.safeParse(value ?? {})
  return parsed.success ? parsed.data : null
}

export function toSite(row: SiteRow, overlay: Partial<SiteSettings> = {}): Site {
  // A broken settings document must not take the site down: a bad overlay field is skipped (the
  // row's value or the default stays), a broken row falls back to the defaults.
  const base: Record<string, unknown> = parseSettings(row.settings) ? { ...row.settings } : {}
  for (const [key, value] of Object.entries(overlay)) {
    if (parseSettings({ ...base, [key]: value })) base[key] = value
  }
  const settings = parseSettings(base) ?? siteSettingsSchema.parse({})
  return {
    id: row.id,
    host: row.host,
    code: row.code,
    name: row.name,
    currency: row.currency,
    logo: row.logo,
    settings: {
      ...settings,
      sisterSites: settings.sisterSites.map((s) => ({ ...s, url: s.url ?? '' })),
      headerMessage: settings.headerMessage
        ? {
            ...settings.headerMessage,
            text: sanitizeRichText(settings.headerMessage.text),
            show_more_text: settings.headerMessage.show_more_text
              ? sanitizeRichText(settings.headerMessage.show_more_text)
              : null,
          }
        : null,
    },
  }
}

/**
 * Sites by host, held in memory: every request needs its site, and sites change rarely.
 * The cache is refreshed after `ttlMs` or when `invalidate()` is called after a write.
 */
export class SiteRegistry {
  private byHost = new Map<string, Site>()
  private loadedAt = 0
  private loading: Promise<void> | null = null

  constructor(
    private readonly db: Db,
    private readonly ttlMs = 30_000,
    private readonly overlay: SettingsOverlay | null = null,
  ) {}

  async forHost(host: string | undefined): Promise<Site | null> {
    if (Date.now() - this.loadedAt > this.ttlMs) await this.reload()
    return this.byHost.get(hostKey(host)) ?? null
  }

  /** A loaded site by its code (sister-site links); undefined when there is none. */
  byCode(code: string): Site | undefined {
    for (const site of this.byHost.values()) if (site.code === code) return site
    return undefined
  }

  /** A site by its id (jobs that act without a request). */
  async byId(id: number): Promise<Site | null> {
    if (Date.now() - this.loadedAt > this.ttlMs) await this.reload()
    for (const site of this.byHost.values()) if (site.id === id) return site
    return null
  }

  invalidate(): void {
    this.loadedAt = 0
  }

  private reload(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const rows = await this.db.select().from(sites)
        const entries: [string, Site][] = []
        for (const r of rows) {
          const extra = this.overlay ? await this.overlay(r.id).catch(() => ({})) : {}
          entries.push([r.host.toLowerCase(), toSite(r, extra)])
        }
        this.byHost = new Map(entries)
        this.loadedAt = Date.now()
      } finally {
        this.loading = null
      }
    })()
    return this.loading
  }
}

/** The `site` shared prop. */
export function presentSite(site: Site, baseUrl: string): SiteProps {
  const s = site.settings
  return {
    id: site.id,
    name: site.name,
    host: site.host,
    logo: site.logo,
    currency: site.currency,
    locale: s.locale,
    cartName: s.cartName,
    tax: s.tax,
    calendar: s.calendar,
    company: s.company,
    adPixel: s.adPixel,
    treePlanting: s.treePlanting,
    contactNumber: s.contactNumber,
    contactEmail: s.contactEmail,
    theme: {
      pageWidth: s.pageWidth,
      fontFamily: s.fontFamily,
      fontWeight: s.fontWeight,
      padding: s.padding,
      colours: s.colours,
    },
    globalCSS: s.globalCSS,
    headerMessage: s.headerMessage,
    guarantees: s.guarantees,
    navigation: s.navigation,
    stickyHeaderOffset: s.stickyHeaderOffset,
    showSidebar: s.showSidebar,
    baseUrl,
  }
}
