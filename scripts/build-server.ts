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
 */
import { build } from 'esbuild'
import { rmSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { lazyResponseCheck } from './server-bundle-plugins.ts'

const root = resolve(import.meta.dirname, '..')
const outdir = resolve(root, 'dist/node/server')

/** Packages that must stay files of their own in node_modules. */
export const external = [
  // WebAssembly and data files beside the module
  '@electric-sql/pglite',
  // native addons
  'sharp',
  '@node-rs/argon2',
  // standard fonts (.afm) read from beside its module
  'pdfkit',
  // worker-thread transports loaded by file name
  'pino',
  'pino-pretty',
  'thread-stream',
  // uses its own module's __dirname (error stacks)
  'ioredis',
  // development only (devDependencies): Vite in middleware mode
  'vite',
  '@fastify/middie',
  // loaded with createRequire at its first use (CommonJS, axios)
  '@amazonpay/amazon-pay-api-sdk-nodejs',
]

rmSync(resolve(root, 'dist/node'), { recursive: true, force: true })

const result = await build({
  absWorkingDir: root,
  entryPoints: {
    main: 'src/server/main.ts',
    // The command-line tools, at the places `tsc` used to emit them (e.g. `node dist/node/server/db/seed/cli.js`)
    'db/migrate-cli': 'src/server/db/migrate-cli.ts',
    'db/seed/cli': 'src/server/db/seed/cli.ts',
    'modules/admin/cli': 'src/server/modules/admin/cli.ts',
    'modules/content/import-cli': 'src/server/modules/content/import-cli.ts',
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  sourcemap: true,
  external,
  chunkNames: '[name]-[hash]',
  logLevel: 'warning',
  metafile: true,
  plugins: [lazyResponseCheck],
  // CommonJS packages bundled into ES modules still call `require` for Node's built-ins.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
})

// `SERVER_BUNDLE_META=file.json`: esbuild's metafile, to see what each chunk holds.
if (process.env.SERVER_BUNDLE_META)
  writeFileSync(process.env.SERVER_BUNDLE_META, JSON.stringify(result.metafile))
const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith('.js'))
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`
const entry = outputs.find(([file]) => file.endsWith('/main.js'))
console.log(
  `server bundle: ${outputs.length} files, ${kb(outputs.reduce((sum, [, o]) => sum + o.bytes, 0))} (main.js ${kb(entry?.[1].bytes ?? 0)})`,
)
