import { constants, createPublicKey, createVerify, generateKeyPairSync, type KeyObject } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  AMAZON_ALGORITHM,
  AmazonSigner,
  amazonApiPath,
  amazonTimestamp,
  canonicalQuery,
  canonicalRequest,
  stringToSign,
} from './amazon.signing.ts'

/**
 * Known answers recorded on 2026-11-28 with @amazonpay/amazon-pay-api-sdk-nodejs 2.3.4 on Node
 * 24.21.0 (`getSignedHeaders` and `generateButtonSignature`, algorithm AMZN-PAY-RSASSA-PSS-V2,
 * the clock fixed at 2026-11-28T04:50:07.123Z), with a key pair made for this test only (its
 * private half was thrown away). RSASSA-PSS is randomised, so the proof of equality is: our
 * headers and SignedHeaders equal the SDK's, and the SDK's signature verifies over OUR string to
 * sign (a different canonical request would not verify).
 */
const SDK_PUBLIC_KEY = createPublicKey(`-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEArMxiqsqKfgb/zrFYaSlV
Jh5Q9wJrrFTUaj+gQLJejJ0RajvJXPvkcS3xZDd6dTenGf/x5VZsAnYnsTCSfF38
6tvxfAz4elX36Du2LK3LNzmHO8Sd1xfhR0nLACMN4N19vd/KJeD+4biPbD9uir2s
OJrO1wd3ZYb7bEErIyMz9dZmxzLcMvxsJzf2HIddAb6J2JOzIXdm2+FElJ5ROcqy
itZ2UfkVZg6YCZYEGlJaGkwhoEYSuQdWnUiG+vSFFdB0/N6WPyncMcXODm9V9Uc5
P/K0FQ9osCoscYl+8t0YKwYtoZCdhiUcbnHea0Zq8TDeVdIvV9jf1yRkzLVXYJln
4wIDAQAB
-----END PUBLIC KEY-----`)

const SDK_USER_AGENT = 'amazon-pay-api-sdk-nodejs/2.3.4 (JS/24.21.0; linux)'

/** SDK input: POST, key SANDBOX-AHEXAMPLEKEY, region uk, sandbox, fragment checkoutSessions/a1b2-c3%2Fd4/complete. */
const SDK_POST = {
  path: '/v2/checkoutSessions/a1b2-c3%2Fd4/complete',
  payload: '{"chargeAmount":{"amount":"23.49","currencyCode":"GBP"}}',
  headers: {
    'x-amz-pay-idempotency-key': 'amz-7f3c2a0e9b1d4c5e',
    'x-amz-pay-region': 'eu',
    'x-amz-pay-host': 'pay-api.amazon.eu',
    'x-amz-pay-date': '2026-11-28T04:50:07Z',
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': SDK_USER_AGENT,
  },
  authorization:
    'AMZN-PAY-RSASSA-PSS-V2 PublicKeyId=SANDBOX-AHEXAMPLEKEY, SignedHeaders=accept;content-type;user-agent;x-amz-pay-date;x-amz-pay-host;x-amz-pay-idempotency-key;x-amz-pay-region, Signature=F7hr8+UpaYYgUUh9n1Hfr8xUIs+8cYVG0oktw35gzxuzSMw2sCW4Iv8zt8SQuHT6r6AK5V1dNgmli+BnkUbhQKKhQTG1EDfykZ2Z+PmOkuNIiyEf+dlZaWqhSEakClONjpkA51zydKBtESMJALAbmNMdbKAOtxXB3EsPCROqX8oxeCoLq6W4ziN9CgYMPkgnodkPbddEr/x0lskm10JRL+ikyLHjwcVMCg5myW419cWeYO/EY+UF2lmIkAta+6LnDWOr/erz59Kwdlhu09PrizQyNiFUaGnqqrZkqkumatrguRCZJBC3mQMRp0nZgkGx5LXKg4ju1mE5sbVFFmZCCg==',
}

/** SDK input: GET, key AHEXAMPLEKEYNOPREFIX, region na, sandbox, query { b: 'x y', a: 'é&=' }, no payload. */
const SDK_GET = {
  path: '/sandbox/v2/charges/S02-1234567-7654321-C000001',
  query: { b: 'x y', a: 'é&=' },
  headers: {
    'x-amz-pay-region': 'na',
    'x-amz-pay-host': 'pay-api.amazon.com',
    'x-amz-pay-date': '2026-11-28T04:50:07Z',
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': SDK_USER_AGENT,
  },
  authorization:
    'AMZN-PAY-RSASSA-PSS-V2 PublicKeyId=AHEXAMPLEKEYNOPREFIX, SignedHeaders=accept;content-type;user-agent;x-amz-pay-date;x-amz-pay-host;x-amz-pay-region, Signature=oSdXcm3mQ3mYoYjsSkLvov2UzC72+KrwMBq0/5VC8kaqtWpsSTtzF+giFfMA/KUbVueTnOpTJVsRDDjwtOYmOeJuooN+bdTzWo162bSiMIGcfxN9eejhN5OvIrp9LfCn+1kMrMFfMn9Am3ZezZCuo86C5MbCLpKat4cNehE8EjG8dtXIDbEvT+GX6ITQ4muVOELouG14bDHOGNCM+V7u4S4JKbP5BFT/GYkJYUbFbRUZ+uFEucL/l7Rxlyw2RVuM2Ualxge3i7dj6r3bkYgjl4n3jqSfOsALloHY2NeGV4i+TEsiyyv05yOGZzrRqaap3ozQz5vMn8lskVhfUTrxoA==',
}

const SDK_BUTTON = {
  payload:
    '{"webCheckoutDetails":{"checkoutReviewReturnUrl":"https://shop.example/checkout/amazon/review"},"storeId":"amzn1.application-oa2-client.example","scopes":["name","email"]}',
  signature:
    'BWPZ4P70Qt0C0nOPQgt+iLQtZV/7ulXNze6az1lYjZmGyjxvynGeZn/AjLQH5WgYxVddiLW4pBkO75IBSz6iRw9CjJ/Z1iSbgQJ7Kx3CJA/oIqijtmqV4lHX++ChlPtMUkkf9tidXc8HKjbdZrpQXAab49OCAgmk6byUJJMgQ+FZT7tjl2rb81hf1SBILUaHBYhDV6XW599AorbYy5otOauC8mc11+hlQMiZZ8kq+uAI5rDHayIzN8dN8h6CihRhBuTReBms1JzMXXwMu5LBwemUJsTRwvSRWS1VJGOlzGagN1OrGF/7WHvcgKrc0sZZMfFLrd48uQKa3Gbl7GJLiA==',
}

function pssValid(key: KeyObject, text: string, signature: string, saltLength = 32): boolean {
  return createVerify('RSA-SHA256')
    .update(text)
    .verify({ key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength }, signature, 'base64')
}

const signatureOf = (authorization: string) => /Signature=(\S+)$/.exec(authorization)?.[1] ?? ''
const signedHeadersOf = (authorization: string) => /SignedHeaders=([^,]+),/.exec(authorization)?.[1] ?? ''

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
const FIXED = new Date('2026-11-28T04:50:07.123Z')

describe('Amazon Pay signing, against what the official SDK produced', () => {
  it('builds the same canonical request as the SDK for a POST with a body and an idempotency key', () => {
    const { canonical, signedHeaders } = canonicalRequest({
      method: 'POST',
      path: SDK_POST.path,
      headers: SDK_POST.headers,
      payload: SDK_POST.payload,
    })
    expect(signedHeaders).toBe(signedHeadersOf(SDK_POST.authorization))
    expect(pssValid(SDK_PUBLIC_KEY, stringToSign(canonical), signatureOf(SDK_POST.authorization))).toBe(true)
  })

  it('builds the same canonical request as the SDK for a GET with a sorted, encoded query and no body', () => {
    const { canonical } = canonicalRequest({
      method: 'GET',
      path: SDK_GET.path,
      query: SDK_GET.query,
      headers: SDK_GET.headers,
    })
    expect(canonicalQuery(SDK_GET.query)).toBe('a=%C3%A9%26%3D&b=x%20y')
    expect(pssValid(SDK_PUBLIC_KEY, stringToSign(canonical), signatureOf(SDK_GET.authorization))).toBe(true)
  })

  it("does not verify the SDK's signature over a canonical request that differs by one byte", () => {
    const { canonical } = canonicalRequest({
      method: 'POST',
      path: SDK_POST.path,
      headers: SDK_POST.headers,
      payload: SDK_POST.payload.replace('23.49', '23.48'),
    })
    expect(pssValid(SDK_PUBLIC_KEY, stringToSign(canonical), signatureOf(SDK_POST.authorization))).toBe(false)
  })

  it("signs the button payload over the same string as the SDK's generateButtonSignature", () => {
    expect(pssValid(SDK_PUBLIC_KEY, stringToSign(SDK_BUTTON.payload), SDK_BUTTON.signature)).toBe(true)
    expect(pssValid(SDK_PUBLIC_KEY, stringToSign(`${SDK_BUTTON.payload} `), SDK_BUTTON.signature)).toBe(false)
  })

  it('chooses the same path prefix and x-amz-pay-date format as the SDK', () => {
    expect(amazonApiPath('SANDBOX-AHEXAMPLEKEY', true, 'checkoutSessions/a1b2-c3%2Fd4/complete')).toBe(
      SDK_POST.path,
    )
    expect(amazonApiPath('AHEXAMPLEKEYNOPREFIX', true, 'charges/S02-1234567-7654321-C000001')).toBe(
      SDK_GET.path,
    )
    expect(amazonApiPath('AHEXAMPLEKEYNOPREFIX', false, 'refunds')).toBe('/live/v2/refunds')
    expect(amazonApiPath('live-ahexample', false, 'refunds')).toBe('/v2/refunds')
    expect(amazonTimestamp(FIXED)).toBe(SDK_POST.headers['x-amz-pay-date'])
  })
})

describe('AmazonSigner', () => {
  const signer = new AmazonSigner({
    publicKeyId: 'SANDBOX-AHEXAMPLEKEY',
    privateKey: pem,
    region: 'uk',
    sandbox: true,
  })

  it("produces the SDK's headers (less its user-agent) and an authorization the public key verifies", () => {
    const signed = signer.signRequest({
      method: 'POST',
      fragment: 'checkoutSessions/a1b2-c3%2Fd4/complete',
      payload: SDK_POST.payload,
      idempotencyKey: 'amz-7f3c2a0e9b1d4c5e',
      date: FIXED,
    })
    expect(signed.path).toBe(SDK_POST.path)
    const { 'user-agent': _ua, ...sdkHeaders } = SDK_POST.headers
    const { authorization, ...headers } = signed.headers
    expect(headers).toEqual(sdkHeaders)
    expect(authorization).toMatch(
      /^AMZN-PAY-RSASSA-PSS-V2 PublicKeyId=SANDBOX-AHEXAMPLEKEY, SignedHeaders=accept;content-type;x-amz-pay-date;x-amz-pay-host;x-amz-pay-idempotency-key;x-amz-pay-region, Signature=[A-Za-z0-9+/]+=*$/,
    )
    const { canonical } = canonicalRequest({
      method: 'POST',
      path: signed.path,
      headers,
      payload: SDK_POST.payload,
    })
    expect(pssValid(publicKey, stringToSign(canonical), signatureOf(authorization!))).toBe(true)
  })

  it('uses a 32-byte PSS salt (V2), so a verifier expecting the legacy 20 bytes refuses it', () => {
    const signature = signer.signButtonPayload(SDK_BUTTON.payload)
    expect(pssValid(publicKey, stringToSign(SDK_BUTTON.payload), signature, 32)).toBe(true)
    expect(pssValid(publicKey, stringToSign(SDK_BUTTON.payload), signature, 20)).toBe(false)
    expect(stringToSign(SDK_BUTTON.payload).startsWith(`${AMAZON_ALGORITHM}\n`)).toBe(true)
  })

  it('sends the query it signed, and names the region and Amazon host of the key, whatever the base URL', () => {
    const na = new AmazonSigner({
      publicKeyId: 'AHEXAMPLEKEYNOPREFIX',
      privateKey: pem,
      region: 'na',
      sandbox: true,
    })
    const signed = na.signRequest({
      method: 'GET',
      fragment: 'charges/S02-1234567-7654321-C000001',
      query: SDK_GET.query,
      date: FIXED,
    })
    expect(signed.path).toBe(`${SDK_GET.path}?a=%C3%A9%26%3D&b=x%20y`)
    expect(signed.headers['x-amz-pay-host']).toBe('pay-api.amazon.com')
    expect(signed.headers['x-amz-pay-region']).toBe('na')
    expect(signed.headers['x-amz-pay-idempotency-key']).toBeUndefined()
  })

  it('refuses a header value with a line break, which would forge a line of the canonical request', () => {
    expect(() =>
      signer.signRequest({
        method: 'POST',
        fragment: 'refunds',
        payload: '{}',
        idempotencyKey: 'k\nx-amz-pay-host:evil',
      }),
    ).toThrow(/line break/)
    expect(() =>
      canonicalRequest({ method: 'GET', path: '/v2/x', headers: { Accept: 'a', accept: 'b' } }),
    ).toThrow(/given twice/)
  })

  it('fails the signature, not the start, when the private key is not a key', () => {
    const bad = new AmazonSigner({
      publicKeyId: 'SANDBOX-X',
      privateKey: 'not a key',
      region: 'uk',
      sandbox: true,
    })
    expect(() => bad.signButtonPayload('{}')).toThrow()
  })

  it('gives a canonical request that changes whenever the method, path, a header or the body changes', () => {
    const base = {
      method: 'POST',
      path: '/v2/refunds',
      headers: { 'x-amz-pay-date': '2026-11-28T04:50:07Z' },
      payload: '{}',
    }
    const ref = canonicalRequest(base).canonical
    fc.assert(
      fc.property(
        fc.constantFrom('method', 'path', 'header', 'payload'),
        fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !/[\r\n]/.test(s)),
        (field, s) => {
          const changed =
            field === 'method'
              ? { ...base, method: `X${s}` }
              : field === 'path'
                ? { ...base, path: `${base.path}/${s}` }
                : field === 'header'
                  ? { ...base, headers: { 'x-amz-pay-date': `${base.headers['x-amz-pay-date']}${s}` } }
                  : { ...base, payload: `${base.payload}${s}` }
          return canonicalRequest(changed).canonical !== ref
        },
      ),
    )
  })
})
