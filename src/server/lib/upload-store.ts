/**
 * Uploaded and generated files (workwear logos, sign proofs) in one store every instance reads:
 * a folder on the local disk by default (one machine, or a shared volume), or an S3-compatible
 * object store by configuration (ADR 0083). Keys are relative paths of letters, digits, `-`, `_`,
 * `.` and `/`; a key is written whole or not at all, so a reader never sees half a file.
 */
import { AwsClient } from 'aws4fetch'
import { randomUUID } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, resolve, sep } from 'node:path'

export interface StoredFile {
  data: Buffer
  contentType: string
}

export interface UploadStore {
  /** Writes (or replaces) the file at `key`. */
  put(key: string, data: Buffer, contentType: string): Promise<void>
  /** The file at `key`, or null when there is none. */
  get(key: string): Promise<StoredFile | null>
  /** Removes the file at `key` (nothing happens when there is none). */
  delete(key: string): Promise<void>
}

const KEY = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/

/** Refuses a key that could leave the store's folder or bucket prefix. */
export function checkKey(key: string): string {
  if (key.length > 512 || !KEY.test(key) || key.split('/').some((p) => p === '..' || p === '.'))
    throw new Error(`Invalid upload key: ${JSON.stringify(key)}`)
  return key
}

/** Files under a folder; the content type is kept beside each file (`<name>.type`). */
export class LocalUploadStore implements UploadStore {
  private readonly root: string

  constructor(root: string) {
    this.root = resolve(root)
  }

  private path(key: string): string {
    const path = resolve(this.root, checkKey(key))
    if (!path.startsWith(this.root + sep)) throw new Error(`Invalid upload key: ${key}`)
    return path
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    const path = this.path(key)
    await mkdir(dirname(path), { recursive: true })
    // Written to a temporary name and renamed: readers see the old file or the new one.
    const tmp = `${path}.${randomUUID()}.tmp`
    await writeFile(`${tmp}.type`, contentType)
    await rename(`${tmp}.type`, `${path}.type`)
    await writeFile(tmp, data)
    await rename(tmp, path)
  }

  async get(key: string): Promise<StoredFile | null> {
    const path = this.path(key)
    try {
      const [data, contentType] = await Promise.all([
        readFile(path),
        readFile(`${path}.type`, 'utf8').catch(() => 'application/octet-stream'),
      ])
      return { data, contentType }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw err
    }
  }

  async delete(key: string): Promise<void> {
    const path = this.path(key)
    await rm(path, { force: true })
    await rm(`${path}.type`, { force: true })
  }
}

export interface S3Options {
  /** e.g. https://s3.eu-west-2.amazonaws.com or http://127.0.0.1:4569 (a compatible server) */
  endpoint: string
  bucket: string
  region: string
  accessKeyId: string
  secretAccessKey: string
  /** Key prefix inside the bucket, e.g. `shop/` */
  prefix?: string
  /** Per request, in ms (default 10 s). */
  timeoutMs?: number
}

export class UploadStoreError extends Error {}

/**
 * An S3-compatible bucket over its REST API (PUT/GET/DELETE Object), path-style URLs, requests
 * signed with AWS Signature Version 4 by aws4fetch. Works with AWS S3, MinIO, Ceph, R2 and others.
 */
export class S3UploadStore implements UploadStore {
  private readonly client: AwsClient
  private readonly base: string
  private readonly prefix: string
  private readonly timeoutMs: number

  constructor(options: S3Options) {
    this.client = new AwsClient({
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
      region: options.region,
      service: 's3',
      retries: 2,
    })
    this.base = `${options.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(options.bucket)}/`
    this.prefix = options.prefix ?? ''
    this.timeoutMs = options.timeoutMs ?? 10_000
  }

  private url(key: string): string {
    return this.base + `${this.prefix}${checkKey(key)}`.split('/').map(encodeURIComponent).join('/')
  }

  private async send(method: string, key: string, init: RequestInit = {}): Promise<Response> {
    return this.client.fetch(this.url(key), {
      ...init,
      method,
      signal: AbortSignal.timeout(this.timeoutMs),
    })
  }

  private async fail(res: Response, what: string): Promise<never> {
    const body = await res.text().catch(() => '')
    const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1] ?? ''
    throw new UploadStoreError(`S3 ${what} failed: ${res.status}${code ? ` ${code}` : ''}`)
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    const res = await this.send('PUT', key, {
      body: new Uint8Array(data),
      headers: { 'content-type': contentType, 'content-length': String(data.length) },
    })
    if (!res.ok) await this.fail(res, `PUT ${key}`)
    await res.arrayBuffer()
  }

  async get(key: string): Promise<StoredFile | null> {
    const res = await this.send('GET', key)
    if (res.status === 404) {
      // A missing key is no file; a missing bucket is a misconfiguration and must be seen.
      const body = await res.text().catch(() => '')
      if (!body.includes('<Code>NoSuchBucket</Code>')) return null
      throw new UploadStoreError(`S3 GET ${key} failed: 404 NoSuchBucket`)
    }
    if (!res.ok) return this.fail(res, `GET ${key}`)
    return {
      data: Buffer.from(await res.arrayBuffer()),
      contentType: res.headers.get('content-type') ?? 'application/octet-stream',
    }
  }

  async delete(key: string): Promise<void> {
    const res = await this.send('DELETE', key)
    if (!res.ok && res.status !== 404) await this.fail(res, `DELETE ${key}`)
    await res.arrayBuffer()
  }
}

export type UploadConfig = { kind: 'local'; dir: string } | ({ kind: 's3' } & S3Options)

export function createUploadStore(config: UploadConfig): UploadStore {
  return config.kind === 's3' ? new S3UploadStore(config) : new LocalUploadStore(config.dir)
}
