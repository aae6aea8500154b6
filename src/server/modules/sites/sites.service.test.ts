import { describe, expect, it } from 'vitest'
import { hostKey, toSite, withSisterLinks } from './sites.service.ts'
import { siteSettingsSchema } from './sites.settings.ts'

describe('hostKey', () => {
  it('drops the port and lower-cases the host', () => {
    expect(hostKey('LocalHost:3000')).toBe('localhost')
    expect(hostKey('127.0.0.1:8080')).toBe('127.0.0.1')
  })

  it('keeps IPv6 literals whole', () => {
    expect(hostKey('[::1]:3000')).toBe('[::1]')
  })

  it('gives an empty key when the header is missing', () => {
    expect(hostKey(undefined)).toBe('')
  })
})

describe('site settings', () => {
  it('fill every missing value with the spec defaults', () => {
    const s = siteSettingsSchema.parse({})
    expect(s.cartName).toBe('Basket')
    expect(s.colours.addToCart).toBe('#7cad0a')
    expect(s.headerMessage).toBeNull()
  })

  it('reject a colour that would inject CSS', () => {
    const r = siteSettingsSchema.safeParse({ colours: { primary: 'red;} body{display:none' } })
    expect(r.success).toBe(false)
  })
})

describe('sister-site links', () => {
  const row = (code: string, host: string, settings: Record<string, unknown> = {}) =>
    toSite({
      id: code === 'harbour' ? 1 : 2,
      host,
      code,
      name: code,
      currency: 'GBP',
      logo: null,
      settings,
    } as never)
  const northgate = row('northgate', '127.0.0.1')
  const harbour = row('harbour', 'localhost', {
    sisterSites: [
      { name: 'Northgate Workplace', site: 'northgate', logo: '/brands/northgate.svg' },
      { name: 'Elsewhere', url: 'https://elsewhere.example/', logo: '/brands/elsewhere.svg' },
      { name: 'Gone', site: 'closed-down', logo: '/brands/gone.svg' },
    ],
  })
  const byCode = (code: string) => (code === 'northgate' ? northgate : undefined)

  it("link to the sister site's own host with the scheme and port this request came on, never a fixed port", () => {
    const linked = withSisterLinks(harbour, byCode, (s) => `http://${s.host}:4205`)
    expect(linked.settings.sisterSites).toEqual([
      { name: 'Northgate Workplace', url: 'http://127.0.0.1:4205/', logo: '/brands/northgate.svg' },
      { name: 'Elsewhere', url: 'https://elsewhere.example/', logo: '/brands/elsewhere.svg' },
    ])
    const behindProxy = withSisterLinks(harbour, byCode, (s) => `https://${s.host}`)
    expect(behindProxy.settings.sisterSites[0]!.url).toBe('https://127.0.0.1/')
  })

  it('give back the same site object for the same links (no work per request)', () => {
    const a = withSisterLinks(harbour, byCode, (s) => `http://${s.host}:3000`)
    const b = withSisterLinks(harbour, byCode, (s) => `http://${s.host}:3000`)
    expect(a).toBe(b)
    expect(withSisterLinks(northgate, byCode, () => 'x')).toBe(northgate)
  })

  it('refuse a sister site with neither a site code nor a url, or a url that is not http(s)', () => {
    expect(siteSettingsSchema.safeParse({ sisterSites: [{ name: 'X', logo: '/x.svg' }] }).success).toBe(false)
    expect(
      siteSettingsSchema.safeParse({
        sisterSites: [{ name: 'X', url: 'javascript:alert(1)', logo: '/x.svg' }],
      }).success,
    ).toBe(false)
  })
})

describe('the demo content', () => {
  it.each(['harbour', 'northgate'])(
    "names the %s site's sister sites by code, with no address (and no port) written in",
    async (code) => {
      const { readFile } = await import('node:fs/promises')
      const json = JSON.parse(await readFile(`content/${code}/settings/site.json`, 'utf8')) as {
        content: { sisterSites: Record<string, unknown>[] }
      }
      expect(json.content.sisterSites.length).toBeGreaterThan(0)
      for (const sister of json.content.sisterSites) {
        expect(sister.site).toMatch(/^(harbour|northgate)$/)
        expect(sister.url).toBeUndefined()
      }
      expect(siteSettingsSchema.safeParse({ sisterSites: json.content.sisterSites }).success).toBe(true)
    },
  )
})
