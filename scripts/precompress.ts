/**
 * Writes `name.br` (Brotli quality 11) and `name.gz` (gzip level 9) beside every text asset of the
 * client build in dist/client/assets, so the server sends them as they are (@fastify/static's
 * `preCompressed`) instead of compressing on every request. A compressed copy that would not be
 * smaller is not written (the server then sends the file itself). Run by `npm run build`.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

/** Text assets worth compressing; images and fonts are compressed formats already. */
const PRECOMPRESS = /\.(?:js|mjs|css|svg|json|txt|xml|html|wasm)$/u

function precompressDir(dir: string): { files: number; raw: number; br: number; gz: number } {
  const totals = { files: 0, raw: 0, br: 0, gz: 0 }
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      const sub = precompressDir(path)
      totals.files += sub.files
      totals.raw += sub.raw
      totals.br += sub.br
      totals.gz += sub.gz
      continue
    }
    if (!PRECOMPRESS.test(name)) continue
    const bytes = readFileSync(path)
    const br = brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
      },
    })
    const gz = gzipSync(bytes, { level: 9 })
    if (br.byteLength < bytes.byteLength) writeFileSync(`${path}.br`, br)
    if (gz.byteLength < bytes.byteLength) writeFileSync(`${path}.gz`, gz)
    totals.files++
    totals.raw += bytes.byteLength
    totals.br += Math.min(br.byteLength, bytes.byteLength)
    totals.gz += Math.min(gz.byteLength, bytes.byteLength)
  }
  return totals
}

const totals = precompressDir(resolve(import.meta.dirname, '../dist/client/assets'))
const kb = (n: number) => `${(n / 1000).toFixed(0)} KB`
console.log(
  `precompressed ${totals.files} assets in dist/client/assets: ${kb(totals.raw)} -> Brotli ${kb(totals.br)}, gzip ${kb(totals.gz)}`,
)
