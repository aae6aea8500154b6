/**
 * The production server bundle's esbuild options (scripts/build-server.ts builds with them; the
 * bundle test builds with them in memory) and the check that keeps optional code out of a start.
 */
import type { BuildOptions, Metafile } from 'esbuild'
import { lazyResponseCheck } from './server-bundle-plugins.ts'

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
]

export function serverBuildOptions(root: string, outdir: string): BuildOptions & { metafile: true } {
  return {
    absWorkingDir: root,
    entryPoints: {
      main: 'src/server/main.ts',
      // The command-line tools, at the places `tsc` used to emit them (e.g. `node dist/node/server/db/seed/cli.js`)
      'db/migrate-cli': 'src/server/db/migrate-cli.ts',
      'db/seed/cli': 'src/server/db/seed/cli.ts',
      'modules/admin/cli': 'src/server/modules/admin/cli.ts',
      'modules/content/import-cli': 'src/server/modules/content/import-cli.ts',
      // The payment simulator service of its own process (`node dist/node/server/simulators.js`,
      // ADR 0195); the shop's own start never loads it (simulatorFilesLoadedAtStart).
      simulators: 'src/simulators/main.ts',
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
  }
}

/**
 * The modules every start of the server runs, whatever its configuration: main.ts imports serve.ts
 * and serve.ts imports app.ts with `import()` (ADR 0114), so those three are followed as well.
 */
export const START_MODULES = ['src/server/main.ts', 'src/server/serve.ts', 'src/server/app.ts']

/**
 * The source files a start loads whatever the configuration: the inputs of the outputs holding
 * START_MODULES and of every chunk those import statically, transitively. Chunks reached only
 * through another `import()` (loaded when a feature needs them) are left out.
 */
export function loadedAtStart(metafile: Metafile): Set<string> {
  const seen = new Set<string>()
  const inputs = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const output = metafile.outputs[file]
    if (!output) return
    for (const input of Object.keys(output.inputs)) inputs.add(input)
    for (const imported of output.imports)
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path)
  }
  const starts = Object.entries(metafile.outputs).filter(([, o]) =>
    START_MODULES.some((m) => m in o.inputs || o.entryPoint === m),
  )
  if (starts.length === 0) throw new Error(`no output holds ${START_MODULES.join(', ')}`)
  for (const [file] of starts) visit(file)
  return inputs
}

/** The payment simulators load only in simulator mode (ADR 0126): none of their files may load at start. */
export function simulatorFilesLoadedAtStart(metafile: Metafile): string[] {
  return [...loadedAtStart(metafile)].filter((input) => input.startsWith('src/simulators/'))
}
