import { generateKeyPair, type KeyPairKeyObjectResult } from 'node:crypto'

/**
 * A 2048-bit RSA key pair made on libuv's thread pool, so the event loop keeps serving (or
 * starting up) meanwhile; `generateKeyPairSync` held the main thread for a tenth of a cold start.
 */
export function rsaKeyPair(): Promise<KeyPairKeyObjectResult> {
  return new Promise((done, fail) =>
    generateKeyPair('rsa', { modulusLength: 2048 }, (err, publicKey, privateKey) =>
      err ? fail(err) : done({ publicKey, privateKey }),
    ),
  )
}
