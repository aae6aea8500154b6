/**
 * One HTTP POST of a webhook, and the checks on an endpoint's URL (ADR 0230). No redirect is
 * followed (a 3xx is a failed attempt), the answer's body is read only up to a small snippet, the
 * request has a time-out of its own, and in production the connection goes only to a public
 * address: the name is resolved and every private, loopback, link-local or otherwise internal
 * address is refused at connect time, so neither the URL nor its DNS can point the shop at its
 * own network.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import { BlockList, isIP } from 'node:net'

const INTERNAL = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  INTERNAL.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
] as const)
  INTERNAL.addSubnet(net, prefix, 'ipv6')

/** True for an address on the public internet (neither private, loopback, link-local nor reserved). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return false
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return !INTERNAL.check(mapped[1]!, 'ipv4')
  return !INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

export interface UrlPolicy {
  /** Development and tests: plain http to this machine (a local receiver) is allowed */
  allowLoopbackHttp: boolean
}

/**
 * The policy the configuration sets (`config.webhooks`): https to public addresses only in
 * production; http to this machine in development and tests.
 */
export function urlPolicyFor(webhooks: { allowLocalEndpoints: boolean }): UrlPolicy {
  return { allowLoopbackHttp: webhooks.allowLocalEndpoints }
}

/** The endpoint URL, checked: a message for the person registering it when it will not do. */
export function checkEndpointUrl(
  raw: string,
  policy: UrlPolicy,
): { ok: true; url: string } | { ok: false; message: string } {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { ok: false, message: 'The URL is not a valid absolute URL.' }
  }
  if (raw.length > 2000) return { ok: false, message: 'The URL is longer than 2000 characters.' }
  if (url.username || url.password)
    return { ok: false, message: 'The URL must not contain a user name or password.' }
  if (url.hash) return { ok: false, message: 'The URL must not contain a fragment (#…).' }
  const loopback = LOOPBACK_HOSTS.has(url.hostname)
  if (url.protocol === 'http:') {
    if (!(policy.allowLoopbackHttp && loopback)) {
      return {
        ok: false,
        message: policy.allowLoopbackHttp
          ? 'The URL must use https (plain http only to this machine, in development and tests).'
          : 'The URL must use https.',
      }
    }
  } else if (url.protocol !== 'https:') {
    return { ok: false, message: 'The URL must use https.' }
  }
  if (!policy.allowLoopbackHttp) {
    const host = url.hostname.replace(/^\[|\]$/g, '')
    if (loopback || (isIP(host) && !isPublicAddress(host))) {
      return { ok: false, message: 'The URL must point to a public address, not a private or local one.' }
    }
  }
  return { ok: true, url: url.toString() }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void

/** dns.lookup that refuses internal addresses (the connection is made to what it answers). */
function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, [])
    const list = addresses as LookupAddress[]
    const refused = list.find((a) => !isPublicAddress(a.address))
    if (refused || list.length === 0) {
      const e: NodeJS.ErrnoException = new Error(
        `refused to connect to ${hostname}: it resolves to a private or local address`,
      )
      e.code = 'EWEBHOOKADDRESS'
      return callback(e, [])
    }
    if (options.all) return callback(null, list)
    callback(null, list[0]!.address, list[0]!.family)
  })
}

export interface PostOptions {
  url: string
  headers: Record<string, string>
  body: string
  timeoutMs: number
  /** Connect only to public addresses (production) */
  publicOnly: boolean
  signal?: AbortSignal
}

export interface PostResult {
  statusCode: number
  /** The first bytes of the answer, for the deliveries list */
  snippet: string
}

const SNIPPET_BYTES = 512

/** No answer within the time-out: the receiver may still be working on the message. */
export class WebhookTimeoutError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`)
    this.name = 'WebhookTimeoutError'
  }
}

/** POSTs once; resolves with any HTTP answer, rejects when there was none (refused, time-out). */
export function postWebhook(o: PostOptions): Promise<PostResult> {
  const url = new URL(o.url)
  const client = url.protocol === 'https:' ? https : http
  return new Promise<PostResult>((resolve, reject) => {
    const timeout = AbortSignal.timeout(o.timeoutMs)
    const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: {
          ...o.headers,
          'content-length': String(Buffer.byteLength(o.body)),
          'user-agent': 'shop-webhooks/1',
        },
        signal,
        agent: false,
        ...(o.publicOnly ? { lookup: publicOnlyLookup as never } : {}),
      },
      (res) => {
        const chunks: Buffer[] = []
        let size = 0
        res.on('data', (chunk: Buffer) => {
          if (size < SNIPPET_BYTES) chunks.push(chunk)
          size += chunk.length
          if (size >= SNIPPET_BYTES) res.destroy()
        })
        const done = () =>
          resolve({
            statusCode: res.statusCode ?? 0,
            snippet: Buffer.concat(chunks).subarray(0, SNIPPET_BYTES).toString('utf8'),
          })
        res.on('end', done)
        res.on('close', done)
        res.on('error', done)
      },
    )
    req.on('error', (err) =>
      reject(signal.aborted && timeout.aborted ? new WebhookTimeoutError(o.timeoutMs) : err),
    )
    req.end(o.body)
  })
}
