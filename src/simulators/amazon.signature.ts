/**
 * Amazon Pay's signatures as the simulator checks them: a request's (RSA-PSS over the canonical
 * request of its signed headers) and the button payload's. A signature is good if any of the
 * merchant keys the simulators know verifies it: one per shop instance using a shared simulator
 * service (each instance makes its own key pair and registers its public half).
 */
import { constants, createHash, createVerify, type KeyObject } from 'node:crypto'
import type { FastifyRequest } from 'fastify'

const ALGORITHMS: Record<string, number> = { 'AMZN-PAY-RSASSA-PSS-V2': 32, 'AMZN-PAY-RSASSA-PSS': 20 }

/** The request signature, rebuilt from the signed headers (x-amz-pay-host included, whatever Host says). */
export function requestSignatureValid(
  req: FastifyRequest,
  apiPath: string,
  publicKeyId: string,
  merchantPublicKeys: () => readonly KeyObject[],
): boolean {
  const m = /^(\S+) PublicKeyId=([^,]+), SignedHeaders=([^,]+), Signature=(\S+)$/.exec(
    req.headers.authorization ?? '',
  )
  if (!m) return false
  const [, algorithm = '', requestKeyId, signedHeaders = '', signature = ''] = m
  const salt = ALGORITHMS[algorithm]
  if (salt === undefined || requestKeyId !== publicKeyId) return false
  const names = signedHeaders.split(';')
  if (!names.includes('x-amz-pay-date') || !names.includes('x-amz-pay-host')) return false
  const date = Date.parse(String(req.headers['x-amz-pay-date'] ?? ''))
  if (!Number.isFinite(date) || Math.abs(Date.now() - date) > 15 * 60_000) return false
  const raw = (req as FastifyRequest & { rawBody?: string }).rawBody ?? ''
  const query = new URLSearchParams(req.url.split('?')[1] ?? '')
  const sortedQuery = [...query.keys()]
    .sort()
    .map((k) => `${k}=${encodeURIComponent(query.get(k) ?? '')}`)
    .join('&')
  let canonical = `${req.method}\n${apiPath}\n${sortedQuery}\n`
  for (const h of names) canonical += `${h}:${String(req.headers[h] ?? '')}\n`
  canonical += `\n${signedHeaders}\n${createHash('sha256').update(raw).digest('hex')}`
  const stringToSign = `${algorithm}\n${createHash('sha256').update(canonical).digest('hex')}`
  return merchantPublicKeys().some((key) =>
    createVerify('RSA-SHA256')
      .update(stringToSign)
      .verify({ key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: salt }, signature, 'base64'),
  )
}

/** The button payload's signature (AMZN-PAY-RSASSA-PSS-V2), as the sign-in page checks it. */
export function buttonPayloadSignatureValid(
  payloadJSON: string,
  signature: string,
  merchantPublicKeys: () => readonly KeyObject[],
): boolean {
  const stringToSign = `AMZN-PAY-RSASSA-PSS-V2\n${createHash('sha256').update(payloadJSON).digest('hex')}`
  try {
    return merchantPublicKeys().some((key) =>
      createVerify('RSA-SHA256')
        .update(stringToSign)
        .verify({ key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, signature, 'base64'),
    )
  } catch {
    return false
  }
}
