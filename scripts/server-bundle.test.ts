import { build } from 'esbuild'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadedAtStart, serverBuildOptions, simulatorFilesLoadedAtStart } from './server-bundle.ts'

const root = resolve(import.meta.dirname, '..')

describe('the production server bundle', () => {
  it('keeps the payment simulators in chunks that only simulator mode loads (issue 29, defect 13)', async () => {
    // The real bundle, built in memory with the options `npm run build` uses.
    const { metafile } = await build({
      ...serverBuildOptions(root, resolve(root, 'dist/node/server')),
      write: false,
    })
    const atStart = loadedAtStart(metafile)
    // What every start loads does include the payments plugin that decides…
    expect(atStart).toContain('src/server/modules/payments/payments.plugin.ts')
    expect(atStart).toContain('src/server/app.ts')
    // …and none of the simulators' files, which are still in the bundle, behind `import()`.
    expect(simulatorFilesLoadedAtStart(metafile)).toEqual([])
    const bundled = Object.values(metafile.outputs).flatMap((o) => Object.keys(o.inputs))
    expect(bundled).toContain('src/simulators/index.ts')
    expect(bundled).toContain('src/simulators/keys.ts')
    // The simulator service is an entry of its own (ADR 0195), beside main.js.
    const service = Object.entries(metafile.outputs).find(
      ([, o]) => o.entryPoint === 'src/simulators/main.ts',
    )
    expect(service?.[0]).toMatch(/dist\/node\/server\/simulators\.js$/)
  }, 120_000)
})
