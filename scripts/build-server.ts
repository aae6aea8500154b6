/**
 * Bundles the production server (ADR 0113): `src/server/main.ts` and everything it imports,
 * node_modules included, into ES modules under dist/node/server (entry `main.js`). A start then
 * loads a few files instead of resolving and compiling about a thousand modules.
 *
 * - Code splitting: every `import()` of the server (pdfkit, nodemailer, qrcode, ioredis, pg, the
 *   demo seed, …) becomes its own chunk, so what loads lazily in the source still loads lazily.
 *   The chunks sit beside `main.js`: `config.ts` finds the project root from its own file's place.
 * - `main.ts` stays the small entry that turns on Node's compile cache before the rest loads; the
 *   command-line tools (migrate, seed, admin, content import) are entries of their own.
 * - External (loaded from node_modules at run time): packages with native code or WebAssembly, or
 *   that read files beside their own module (fonts, workers), and the dev-only Vite.
 * - The payment simulators are only in chunks that main.js does not import statically (ADR 0126);
 *   the build fails if that stops being true. Their service of its own process is the entry
 *   `simulators.js` (ADR 0195). The options live in server-bundle.ts.
 */
import { build } from 'esbuild'
import { rmSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { serverBuildOptions, simulatorFilesLoadedAtStart } from './server-bundle.ts'

const root = resolve(import.meta.dirname, '..')
const outdir = resolve(root, 'dist/node/server')

rmSync(resolve(root, 'dist/node'), { recursive: true, force: true })

const result = await build(serverBuildOptions(root, outdir))

// The payment simulators sit in chunks reached only through `import()` in simulator mode: a static
// import of them anywhere on a start's way (main, serve, app and what they import) would load them
// in sandbox and live mode too.
const simulators = simulatorFilesLoadedAtStart(result.metafile)
if (simulators.length) {
  console.error(`server bundle: every start would load the payment simulators (${simulators.join(', ')})`)
  process.exit(1)
}

// `SERVER_BUNDLE_META=file.json`: esbuild's metafile, to see what each chunk holds.
if (process.env.SERVER_BUNDLE_META)
  writeFileSync(process.env.SERVER_BUNDLE_META, JSON.stringify(result.metafile))
const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith('.js'))
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`
const entry = outputs.find(([file]) => file.endsWith('/main.js'))
console.log(
  `server bundle: ${outputs.length} files, ${kb(outputs.reduce((sum, [, o]) => sum + o.bytes, 0))} (main.js ${kb(entry?.[1].bytes ?? 0)})`,
)
