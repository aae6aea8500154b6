/**
 * The upload store's contract, run against both adapters: the local folder and an S3-compatible
 * bucket served by s3rver (an S3-compatible server from the npm registry, speaking S3's REST
 * paths, headers and XML errors). s3rver does not verify signatures; the signing is aws4fetch's.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  checkKey,
  LocalUploadStore,
  S3UploadStore,
  UploadStoreError,
  type UploadStore,
} from '../../src/server/lib/upload-store.ts'

let dir: string
let server: S3rver
let endpoint: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shop-uploads-'))
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: join(dir, 's3'),
    configureBuckets: [{ name: 'shop-uploads', configs: [] }],
  })
  const { address, port } = await server.run()
  endpoint = `http://${address}:${port}`
})

afterAll(async () => {
  await server?.close()
  await rm(dir, { recursive: true, force: true })
})

const adapters: [string, () => UploadStore][] = [
  ['the local folder', () => new LocalUploadStore(join(dir, 'local'))],
  [
    'an S3-compatible bucket',
    () =>
      new S3UploadStore({
        endpoint,
        bucket: 'shop-uploads',
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        prefix: 'shop/',
      }),
  ],
]

describe.each(adapters)('the upload store on %s', (_name, make) => {
  it('gives back what was put, with its content type, and nothing for an unknown key', async () => {
    const store = make()
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255])
    await store.put('workwear-logos/abc.png', png, 'image/png')
    const file = await store.get('workwear-logos/abc.png')
    expect(file?.contentType).toBe('image/png')
    expect(file?.data.equals(png)).toBe(true)
    expect(await store.get('workwear-logos/missing.png')).toBeNull()
  })

  it('replaces a file put again under the same key, and deletes it', async () => {
    const store = make()
    await store.put('sign-proofs/p.pdf', Buffer.from('one'), 'application/pdf')
    await store.put('sign-proofs/p.pdf', Buffer.from('two'), 'application/pdf')
    expect((await store.get('sign-proofs/p.pdf'))?.data.toString()).toBe('two')
    await store.delete('sign-proofs/p.pdf')
    expect(await store.get('sign-proofs/p.pdf')).toBeNull()
    await store.delete('sign-proofs/p.pdf')
  })

  it('refuses a key that could leave its folder', async () => {
    const store = make()
    for (const key of ['../x', 'a/../../x', '/abs', 'a//b', '', 'a/./b', 'sp ace']) {
      await expect(store.put(key, Buffer.from('x'), 'text/plain'), key).rejects.toThrow(/Invalid upload key/)
    }
  })
})

describe('the S3 adapter', () => {
  it('reports an S3 error (a bucket that does not exist) with its code, never as a missing file', async () => {
    const store = new S3UploadStore({
      endpoint,
      bucket: 'no-such-bucket',
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    })
    await expect(store.put('x.txt', Buffer.from('x'), 'text/plain')).rejects.toThrow(/NoSuchBucket/)
    await expect(store.get('x.txt')).rejects.toBeInstanceOf(UploadStoreError)
  })
})

describe('upload keys', () => {
  it('allow folders of letters, digits, dots, dashes and underscores', () => {
    expect(checkKey('workwear-logos/0a_b-c.svg')).toBe('workwear-logos/0a_b-c.svg')
  })
})
