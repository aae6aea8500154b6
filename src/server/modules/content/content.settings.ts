/**
 * Site settings, products settings and the header message come from content stories
 * (`settings/site`, `settings/products`, `settings/header-message`). They are laid over the
 * site row's settings; the site settings schema then checks every value (a bad colour or length
 * falls back to the default instead of reaching the page).
 */
import type { SiteSettings } from '../sites/sites.settings.ts'
import { richTextHtml } from './content.presenter.ts'
import type { ContentService } from './content.service.ts'

const SITE_FIELDS = [
  'pageWidth',
  'fontFamily',
  'fontWeight',
  'colours',
  'padding',
  'globalCSS',
  'contactNumber',
  'contactEmail',
  'cartName',
  'freephoneNumber',
  'invoicingEntity',
  'sisterSites',
  'deliveryWarnings',
  'marketingOptOut',
  'paymentMethods',
  'purchaseOrderAccess',
  'countries',
  'orderNotificationEmail',
  'adPixel',
  'adPixelId',
  'tagManagerId',
] as const

const PRODUCT_FIELDS = [
  'titleColour',
  'mediaHW',
  'showAlternatives',
  'alternativesLimit',
  'pageLayout',
] as const

export async function settingsFromContent(
  content: ContentService,
  siteId: number,
): Promise<Partial<SiteSettings>> {
  const { site, products, headerMessage } = await content.settingsStories(siteId)
  const out: Record<string, unknown> = {}
  if (site) {
    for (const f of SITE_FIELDS) {
      const v = site.content[f]
      if (v !== undefined && v !== null && v !== '')
        out[f] = f === 'colours' && typeof v === 'object' ? { ...v } : v
    }
  }
  if (products) {
    const p: Record<string, unknown> = {}
    for (const f of PRODUCT_FIELDS) {
      const v = products.content[f]
      if (v !== undefined && v !== null && v !== '')
        p[f] = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v
    }
    out.products = p
  }
  if (headerMessage) {
    const c = headerMessage.content
    out.headerMessage =
      c.display === false
        ? null
        : {
            display: true,
            christmas_message: c.christmas_message === true,
            title: typeof c.title === 'string' ? c.title : '',
            text: richTextHtml(c.text),
            show_more_text: richTextHtml(c.show_more_text) || null,
          }
  }
  return out as Partial<SiteSettings>
}
