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
  /** The header message's HTML is sanitised once, when the site is loaded */
  settings: Omit<ResolvedSiteSettings, 'headerMessage'> & { headerMessage: HeaderMessage | null }
}

/** Host header value -> the host name used as the site key (no port, lower case). */
export function hostKey(host: string | undefined): string {
  if (!host) return ''
  const h = host.trim().toLowerCase()
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1)
  return h.replace(/:\d+$/, '')
}

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
