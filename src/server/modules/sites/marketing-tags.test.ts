import { describe, expect, it } from 'vitest'
import { siteSettingsSchema } from './sites.settings.ts'
import { extendCsp, marketingCsp, marketingTags } from './marketing-tags.ts'

const site = (settings: Record<string, unknown>) => ({ settings: siteSettingsSchema.parse(settings) })
const POLICY = "default-src 'self';script-src 'self' 'nonce-abc';img-src 'self' data:;connect-src 'self'"

describe('ad pixel and tag manager', () => {
  it('loads nothing and leaves the policy alone when the site turns neither on', () => {
    expect(marketingTags(site({}), 'abc')).toBe('')
    expect(marketingTags(site({ adPixel: true }), 'abc')).toBe('')
    expect(marketingTags(site({ adPixel: false, adPixelId: '1234567890' }), 'abc')).toBe('')
    expect(marketingCsp(POLICY, site({ adPixel: true }))).toBe(POLICY)
  })

  it('loads the pixel and the tag manager with the page nonce, and allows only their origins', () => {
    const s = site({ adPixel: true, adPixelId: '1234567890', tagManagerId: 'GTM-AB12CD' })
    const tags = marketingTags(s, 'abc')
    expect(tags.match(/<script nonce="abc" data-marketing="(ad-pixel|tag-manager)">/g)).toHaveLength(2)
    expect(tags).toContain(`fbq('init',"1234567890")`)
    expect(tags).toContain(`'dataLayer',"GTM-AB12CD"`)
    const csp = marketingCsp(POLICY, s)
    expect(csp).toContain(
      "script-src 'self' 'nonce-abc' https://connect.facebook.net https://www.googletagmanager.com",
    )
    expect(csp).toContain("img-src 'self' data: https://www.facebook.com")
    expect(csp).toContain("connect-src 'self' https://www.facebook.com")
  })

  it('refuses ids that are not ids, so a setting cannot write markup', () => {
    const s = site({
      adPixel: true,
      adPixelId: '1"></script><script>alert(1)//',
      tagManagerId: 'GTM-x</script>',
    })
    expect(marketingTags(s, 'abc')).toBe('')
    expect(marketingTags(site({ adPixel: true, adPixelId: '123456' }), 'a"b')).toContain('nonce="ab"')
  })

  it('adds a directive the policy lacks', () => {
    expect(extendCsp("default-src 'self'", 'connect-src', ['https://x.example'])).toBe(
      "default-src 'self';connect-src https://x.example",
    )
  })
})
