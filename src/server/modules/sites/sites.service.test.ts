import { describe, expect, it } from 'vitest'
import { hostKey } from './sites.service.ts'
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
