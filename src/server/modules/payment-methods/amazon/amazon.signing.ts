/**
 * Amazon Pay API v2 request and button signing (AMZN-PAY-RSASSA-PSS-V2) with node:crypto alone.
 *
 * 1. canonical request = METHOD \n /path \n sorted query \n (name:value\n per signed header)
 *    \n signed header names joined by ';' \n hex(sha256(payload))
 * 2. string to sign = "AMZN-PAY-RSASSA-PSS-V2\n" + hex(sha256(canonical request))
 * 3. signature = base64(RSASSA-PSS, SHA-256, MGF1 SHA-256, salt length 32) over the string to sign
 * 4. authorization = "<algorithm> PublicKeyId=…, SignedHeaders=…, Signature=…"
 *
 * The button payload signature is step 3 over "AMZN-PAY-RSASSA-PSS-V2\n" + hex(sha256(payload)).
 * A known-answer test (amazon.signing.test.ts) proves this equals what Amazon's Node SDK 2.3.4
 * produced for the same inputs (ADR 0245). Pure functions plus a signer holding one parsed key:
 * nothing is shared between instances, so any number of them sign independently.
 */
import { constants, createHash, createPrivateKey, createSign, type KeyObject } from 'node:crypto'

export const AMAZON_ALGORITHM = 'AMZN-PAY-RSASSA-PSS-V2'
/** V2's salt length; the legacy AMZN-PAY-RSASSA-PSS used 20 (Amazon Pay SDK 2.3.0 change log). */
export const AMAZON_SALT_LENGTH = 32
export const AMAZON_API_VERSION = 'v2'

export type AmazonRegion = 'eu' | 'uk' | 'na' | 'jp'

/** The region a request names in x-amz-pay-region (the UK is served by the EU endpoint). */
export const AMAZON_REGION_CODE: Record<AmazonRegion, 'eu' | 'na' | 'jp'> = {
  eu: 'eu',
  uk: 'eu',
  na: 'na',
  jp: 'jp',
}

/** The host a request names in x-amz-pay-host: always Amazon's, wherever the request is sent. */
export const AMAZON_API_HOST: Record<'eu' | 'na' | 'jp', string> = {
  eu: 'pay-api.amazon.eu',
  na: 'pay-api.amazon.com',
  jp: 'pay-api.amazon.jp',
}

/**
 * The path below the API host: keys named for one environment (SANDBOX-…, LIVE-…) use /v2/…;
 * older keys name the environment in the path (/sandbox/v2/…, /live/v2/…).
 */
export function amazonApiPath(publicKeyId: string, sandbox: boolean, fragment: string): string {
  const id = publicKeyId.toUpperCase()
  const envInKey = id.startsWith('LIVE') || id.startsWith('SANDBOX')
  const prefix = envInKey ? '' : sandbox ? 'sandbox/' : 'live/'
  return `/${prefix}${AMAZON_API_VERSION}/${fragment.replace(/^\/+/, '')}`
}

/** x-amz-pay-date: ISO 8601 to the second, in UTC (2026-11-28T04:50:07Z). */
export function amazonTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`
}

/** Query parameters sorted by name, values percent-encoded (encodeURIComponent). */
export function canonicalQuery(query: Readonly<Record<string, string>> = {}): string {
  return Object.keys(query)
    .sort()
    .map((k) => `${k}=${encodeURIComponent(query[k] ?? '')}`)
    .join('&')
}

const HEADER_NAME = /^[a-z0-9-]+$/

/** Lower-cased names, sorted; refuses a duplicate, an odd name or a line break in a value. */
function normaliseHeaders(headers: Readonly<Record<string, string>>): [string, string][] {
  const out = new Map<string, string>()
  for (const [rawName, value] of Object.entries(headers)) {
    const name = rawName.toLowerCase()
    if (!HEADER_NAME.test(name))
      throw new Error(`Amazon Pay signing: bad header name ${JSON.stringify(rawName)}`)
    if (out.has(name)) throw new Error(`Amazon Pay signing: header ${name} given twice`)
    if (/[\r\n]/.test(value)) throw new Error(`Amazon Pay signing: header ${name} has a line break`)
    out.set(name, value)
  }
  return [...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
}

export interface CanonicalRequestInput {
  method: string
  /** The absolute path, e.g. /v2/checkoutSessions/abc/complete (as sent, already encoded). */
  path: string
  query?: Readonly<Record<string, string>>
  /** Every header to sign (they are all signed). */
  headers: Readonly<Record<string, string>>
  /** The exact body sent; none is the empty string. */
  payload?: string
}

const sha256Hex = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex')

export function canonicalRequest(input: CanonicalRequestInput): { canonical: string; signedHeaders: string } {
  const headers = normaliseHeaders(input.headers)
  const signedHeaders = headers.map(([name]) => name).join(';')
  const canonical =
    `${input.method.toUpperCase()}\n${input.path}\n${canonicalQuery(input.query)}\n` +
    headers.map(([name, value]) => `${name}:${value}\n`).join('') +
    `\n${signedHeaders}\n${sha256Hex(input.payload ?? '')}`
  return { canonical, signedHeaders }
}

/** What is signed: the algorithm's name and the SHA-256 of the canonical request (or of a button payload). */
export function stringToSign(canonicalOrPayload: string): string {
  return `${AMAZON_ALGORITHM}\n${sha256Hex(canonicalOrPayload)}`
}

/** RSASSA-PSS with SHA-256 and a 32-byte salt, base64. Randomised: two signatures of one string differ. */
export function pssSign(key: KeyObject, text: string): string {
  return createSign('RSA-SHA256')
    .update(text, 'utf8')
    .sign({ key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: AMAZON_SALT_LENGTH }, 'base64')
}

export function authorizationHeader(publicKeyId: string, signedHeaders: string, signature: string): string {
  return `${AMAZON_ALGORITHM} PublicKeyId=${publicKeyId}, SignedHeaders=${signedHeaders}, Signature=${signature}`
}

export interface AmazonSignerConfig {
  publicKeyId: string
  /** PEM (PKCS#8 or PKCS#1) */
  privateKey: string
  region: AmazonRegion
  sandbox: boolean
}

export interface SignRequestInput {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  /** Below the version, e.g. checkoutSessions/abc (ids already encoded). */
  fragment: string
  query?: Readonly<Record<string, string>>
  payload?: string
  idempotencyKey?: string
  /** Defaults to now; Amazon refuses a date more than 15 minutes off. */
  date?: Date
}

export interface SignedRequest {
  /** The path to append to the API base URL (starts with /). */
  path: string
  /** The headers to send: all of them signed, authorization included. */
  headers: Record<string, string>
}

export class AmazonSigner {
  private key: KeyObject | null = null

  constructor(readonly config: AmazonSignerConfig) {}

  /** The private key is parsed on the first signature (a bad key fails that call, not the start). */
  private get privateKey(): KeyObject {
    this.key ??= createPrivateKey(this.config.privateKey)
    return this.key
  }

  signRequest(input: SignRequestInput): SignedRequest {
    const region = AMAZON_REGION_CODE[this.config.region]
    const path = amazonApiPath(this.config.publicKeyId, this.config.sandbox, input.fragment)
    const headers: Record<string, string> = {
      accept: 'application/json',
      'content-type': 'application/json',
      'x-amz-pay-date': amazonTimestamp(input.date ?? new Date()),
      'x-amz-pay-host': AMAZON_API_HOST[region],
      'x-amz-pay-region': region,
      ...(input.idempotencyKey ? { 'x-amz-pay-idempotency-key': input.idempotencyKey } : {}),
    }
    const { canonical, signedHeaders } = canonicalRequest({
      method: input.method,
      path,
      headers,
      ...(input.query ? { query: input.query } : {}),
      ...(input.payload !== undefined ? { payload: input.payload } : {}),
    })
    const signature = pssSign(this.privateKey, stringToSign(canonical))
    const query = canonicalQuery(input.query)
    return {
      path: query ? `${path}?${query}` : path,
      headers: {
        ...headers,
        authorization: authorizationHeader(this.config.publicKeyId, signedHeaders, signature),
      },
    }
  }

  /** The signature checkout.js is given with the button's payloadJSON. */
  signButtonPayload(payloadJSON: string): string {
    return pssSign(this.privateKey, stringToSign(payloadJSON))
  }
}
