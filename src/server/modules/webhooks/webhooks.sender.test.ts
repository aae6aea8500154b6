import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkEndpointUrl, isPublicAddress, postWebhook, urlPolicyFor } from './webhooks.sender.ts'

describe('endpoint URLs', () => {
  const prod = urlPolicyFor({ allowLocalEndpoints: false })
  const test = urlPolicyFor({ allowLocalEndpoints: true })

  it('are https only in production, to a public host', () => {
    expect(checkEndpointUrl('https://erp.example.com/hooks', prod)).toEqual({
      ok: true,
      url: 'https://erp.example.com/hooks',
    })
    expect(checkEndpointUrl('http://erp.example.com/hooks', prod)).toMatchObject({
      ok: false,
      message: 'The URL must use https.',
    })
    for (const url of [
      'https://localhost/x',
      'https://127.0.0.1/x',
      'https://10.1.2.3/x',
      'https://[::1]/x',
      'https://169.254.169.254/x',
    ]) {
      expect(checkEndpointUrl(url, prod), url).toMatchObject({
        ok: false,
        message: expect.stringMatching(/public address/),
      })
    }
  })

  it('may be plain http to this machine in development and tests, but nowhere else', () => {
    expect(checkEndpointUrl('http://127.0.0.1:4000/hook', test).ok).toBe(true)
    expect(checkEndpointUrl('http://localhost:4000/hook', test).ok).toBe(true)
    expect(checkEndpointUrl('http://erp.example.com/hook', test).ok).toBe(false)
  })

  it('refuse credentials, fragments, other schemes and what is not a URL', () => {
    expect(checkEndpointUrl('https://user:pw@erp.example.com/', prod).ok).toBe(false)
    expect(checkEndpointUrl('https://erp.example.com/#x', prod).ok).toBe(false)
    expect(checkEndpointUrl('ftp://erp.example.com/', prod).ok).toBe(false)
    expect(checkEndpointUrl('not a url', prod)).toMatchObject({
      ok: false,
      message: 'The URL is not a valid absolute URL.',
    })
  })

  it('tell public addresses from private, loopback, link-local and mapped ones', () => {
    expect(isPublicAddress('93.184.216.34')).toBe(true)
    expect(isPublicAddress('2606:4700::1111')).toBe(true)
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
    ]) {
      expect(isPublicAddress(a), a).toBe(false)
    }
  })
})

describe('one webhook request', () => {
  let server: Server
  let base = ''
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/ok') return void res.writeHead(204).end()
      if (req.url === '/moved') return void res.writeHead(302, { location: '/ok' }).end()
      if (req.url === '/slow') return void setTimeout(() => res.writeHead(200).end(), 2000)
      res.writeHead(500).end('x'.repeat(5000))
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((r) => server.close(() => r())))

  const post = (path: string, extra: Partial<Parameters<typeof postWebhook>[0]> = {}) =>
    postWebhook({ url: base + path, headers: {}, body: '{}', timeoutMs: 1000, publicOnly: false, ...extra })

  it('reports the answer, and does not follow a redirect', async () => {
    expect((await post('/ok')).statusCode).toBe(204)
    expect((await post('/moved')).statusCode).toBe(302)
  })

  it('keeps only a short snippet of a long answer', async () => {
    const r = await post('/fail')
    expect(r.statusCode).toBe(500)
    expect(r.snippet.length).toBeLessThanOrEqual(512)
  })

  it('gives up when no answer comes within its time-out', async () => {
    await expect(post('/slow', { timeoutMs: 200 })).rejects.toThrow(/no answer within 200 ms/)
  })

  it('refuses to connect to a name that resolves to this machine when only public addresses are allowed', async () => {
    const port = new URL(base).port
    await expect(post('/ok', { url: `http://localhost:${port}/ok`, publicOnly: true })).rejects.toThrow(
      /private or local address/,
    )
  })
})
