/**
 * The object store of the two-instance test (ADR 0175): s3rver, an S3-compatible server, on
 * E2E_S3_PORT with one bucket, keeping its objects in a temporary folder that is removed when
 * Playwright stops it (SIGTERM). Both instances keep their uploads here and nowhere else.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'
import { S3_BUCKET, S3_PORT } from './ports.ts'

const directory = await mkdtemp(join(tmpdir(), 'shop-e2e-s3-'))
const server = new S3rver({
  address: '127.0.0.1',
  port: S3_PORT,
  silent: true,
  directory,
  configureBuckets: [{ name: S3_BUCKET, configs: [] }],
})
await server.run()
process.stdout.write(`s3rver on http://127.0.0.1:${S3_PORT}, bucket ${S3_BUCKET}, in ${directory}\n`)

let stopping = false
async function stop() {
  if (stopping) return
  stopping = true
  await server.close().catch(() => {})
  await rm(directory, { recursive: true, force: true })
  process.exit(0)
}
process.on('SIGTERM', () => void stop())
process.on('SIGINT', () => void stop())
