import { z } from 'zod'
import { DEFAULT_COUNTRIES } from '../../../shared/customer.ts'

const colour = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$|^rgb\(\s*\d+\s*,\s*\d+\s*,\s*\d+\s*\)$/, 'a CSS colour')

const cssLength = z.string().regex(/^\d+(\.\d+)?(px|rem|em|%|vw)$/, 'a CSS length')

const navItem: z.ZodType<{ label: string; url: string; children?: { label: string; url: string }[] }> =
  z.object({
    label: z.string().min(1).max(80),
    url: z.string().regex(/^\/[^\s]*$|^https?:\/\//, 'a path or http(s) URL'),
    children: z.array(z.object({ label: z.string().min(1).max(80), url: z.string() })).optional(),
  })

/**
 * Site settings as stored (jsonb) and edited in the content system. Every field has a default,
 * so a half-configured site still renders; values are checked so CSS injection through a colour
 * or length is impossible.
 */
export const siteSettingsSchema = z.object({
  locale: z.enum(['en-GB', 'en-US']).default('en-GB'),
  pageWidth: cssLength.default('1280px'),
  fontFamily: z
    .string()
    .regex(/^[\w\s,'"-]+$/, 'font family names only')
    .default('system-ui, -apple-system, "Segoe UI", Roboto, sans-serif'),
  fontWeight: z
    .string()
    .regex(/^\d{3}|normal|bold$/)
    .default('400'),
  padding: cssLength.default('1rem'),
  colours: z
    .object({
      primary: colour.default('#1d4ed8'),
      secondary: colour.default('#0f172a'),
      accent: colour.default('#f59e0b'),
      text: colour.default('#111827'),
      background: colour.default('#ffffff'),
      headerBackground: colour.default('#ffffff'),
      headerText: colour.default('#111827'),
      badge: colour.default('#dc2626'),
      addToCart: colour.default('#7cad0a'),
    })
    .prefault({}),
  globalCSS: z.string().max(100_000).default(''),
  contactNumber: z.string().max(40).default(''),
  contactEmail: z.string().max(200).default(''),
  cartName: z.string().min(1).max(40).default('Basket'),
  /**
   * The site's sales tax: its name ('VAT'), standard rate in percent (0 = the site charges none,
   * e.g. a US export site: no tax line, no tax note) and whether prices are shown with it.
   * Zero-rated goods under VAT relief stay at 0%.
   */
  tax: z
    .object({
      name: z.string().min(1).max(30).default('VAT'),
      rate: z.number().min(0).max(100).default(20),
      pricesIncludeTax: z.boolean().default(false),
    })
    .prefault({}),
  /** The company behind the shop, shown in the footer (UK law: name, number, registered office, VAT number). */
  company: z
    .object({
      name: z.string().max(120).default(''),
      number: z.string().max(80).default(''),
      registeredAddress: z.string().max(300).default(''),
      vatNumber: z.string().max(40).default(''),
    })
    .prefault({}),
  /**
   * The calendar the despatch countdown and delivery dates follow: the bank holidays of England
   * and Wales, or the US federal holidays.
   */
  calendar: z.enum(['england-and-wales', 'us-federal']).default('england-and-wales'),
  /** Goods total (minor units, ex VAT, after discount) a basket needs before checkout; 0 = none */
  minimumOrderValue: z.number().int().min(0).max(100_000_000).default(0),
  /** Fire the ad pixel on add to basket (the data layer event is always pushed) */
  adPixel: z.boolean().default(false),
  /** The ad pixel's id (Meta pixel, digits); the pixel script loads when adPixel is on and this is set */
  adPixelId: z
    .string()
    .regex(/^\d{5,20}$/)
    .optional()
    .catch(undefined),
  /** Google Tag Manager container ('GTM-XXXXXXX'); its script loads when set, reading the dataLayer */
  tagManagerId: z
    .string()
    .regex(/^GTM-[A-Z0-9]{4,12}$/)
    .optional()
    .catch(undefined),
  /** Tree-planting notice on the basket: one tree per 100 spent, capped at 500 (spec §5; off by default) */
  treePlanting: z.boolean().default(false),
  headerMessage: z
    .object({
      display: z.boolean().default(true),
      christmas_message: z.boolean().optional(),
      title: z.string().max(200),
      text: z.string().max(5000).default(''),
      show_more_text: z.string().max(20000).nullable().optional(),
    })
    .nullable()
    .default(null),
  guarantees: z.array(z.string().max(120)).max(8).default([]),
  navigation: z.array(navItem).max(40).default([]),
  stickyHeaderOffset: z.number().int().min(0).max(2000).default(120),
  showSidebar: z.boolean().default(false),
  /** Products settings (from the `settings/products` story); checked by productSettings() */
  products: z.record(z.string(), z.unknown()).optional(),
  /** Bot check on registration and forgot-password: '1' on, '0' off (spec §5). */
  botCheck: z.enum(['0', '1']).default('0'),
  /** Which bot check runs when on: the embedded ALTCHA proof of work, or Google reCAPTCHA. */
  botCheckProvider: z.enum(['altcha', 'recaptcha']).default('altcha'),
  /** reCAPTCHA site key (public); the secret is the RECAPTCHA_SECRET variable. */
  recaptchaSiteKey: z.string().max(200).default(''),
  // --- checkout (spec §2 Checkout, Order complete; design checkout.md) ---
  /** The secure-checkout header's freephone number */
  freephoneNumber: z.string().max(40).default(''),
  /** Who invoices the order, named on Order Complete */
  invoicingEntity: z.string().max(200).default(''),
  /**
   * Sister sites whose logos Order Complete shows. `site` names a sister site of this shop by its
   * code: its link is then built from that site's own configured host, with the scheme and port
   * this request came on (modules/sites/site-url.ts), so no address is written into content.
   * `url` is for a sister shop that is not one of ours.
   */
  sisterSites: z
    .array(
      z
        .object({
          name: z.string().min(1).max(80),
          site: z
            .string()
            .regex(/^[a-z0-9-]{1,40}$/)
            .optional(),
          url: z
            .string()
            .regex(/^https?:\/\/[^\s]+$/, 'an http(s) URL')
            .max(300)
            .optional(),
          logo: z.string().max(300),
        })
        .refine(
          (s) => s.site !== undefined || s.url !== undefined,
          'a sister site needs a site code or a url',
        ),
    )
    .max(10)
    .default([]),
  /** Delivery warnings shown on Order Complete (the brand's manufacture and delivery notes) */
  deliveryWarnings: z.array(z.string().max(500)).max(10).default([]),
  /** 'YES' shows the marketing opt-out on Order Complete to customers registered today */
  marketingOptOut: z.enum(['YES', 'NO']).default('NO'),
  /** The payment methods offered at checkout, in order; ids the payments registry knows */
  paymentMethods: z
    .array(
      z.object({
        id: z.string().regex(/^[a-z_]{2,40}$/),
        label: z.string().min(1).max(80),
        img: z.string().max(300).default(''),
        detail: z.string().max(500).default(''),
      }),
    )
    .max(10)
    .default([{ id: 'purchase_order', label: 'Purchase Order', img: '', detail: '' }]),
  /** Who may pay by purchase order: everyone (the spec), or only logged-in customers */
  purchaseOrderAccess: z.enum(['everyone', 'customers']).default('everyone'),
  /** Countries the site delivers to (2-letter codes) */
  countries: z
    .array(z.object({ code: z.string().regex(/^[A-Z]{2}$/), name: z.string().min(1).max(80) }))
    .min(1)
    .max(250)
    .default(DEFAULT_COUNTRIES),
  /** Where order notifications go (default: contactEmail) */
  orderNotificationEmail: z.string().max(200).default(''),
})

export type SiteSettings = z.input<typeof siteSettingsSchema>
export type ResolvedSiteSettings = z.output<typeof siteSettingsSchema>
