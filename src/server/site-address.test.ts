import { describe, expect, it } from 'vitest'
import { siteAddress } from './site-address.ts'

describe('siteAddress', () => {
  it('gives each demo site its own address on the port the server listens on', () => {
    expect(siteAddress('localhost', 3000)).toBe('http://localhost:3000')
    expect(siteAddress('127.0.0.1', 3000)).toBe('http://127.0.0.1:3000')
  })

  it('leaves out port 80 and brackets an IPv6 host', () => {
    expect(siteAddress('shop.example', 80)).toBe('http://shop.example')
    expect(siteAddress('::1', 8080)).toBe('http://[::1]:8080')
  })
})
