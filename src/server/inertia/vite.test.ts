import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  collectDevCss,
  createProductionAssets,
  devAssetTags,
  loadProductionAssets,
  shortHash,
} from './vite.ts'

const manifest = {
  'src/client/app.tsx': {
    file: 'assets/app-abc.js',
    src: 'src/client/app.tsx',
    isEntry: true,
    imports: ['_vendor-1.js', '_shared-2.js'],
    dynamicImports: ['src/client/pages/Home.tsx'],
    css: ['assets/app-abc.css'],
  },
  '_vendor-1.js': { file: 'assets/vendor-1.js' },
  '_shared-2.js': { file: 'assets/shared-2.js', imports: ['_vendor-1.js'], css: ['assets/shared-2.css'] },
  'src/client/pages/Home.tsx': {
    file: 'assets/Home-9.js',
    isDynamicEntry: true,
    imports: ['_shared-2.js', '_home-dep.js'],
    css: ['assets/Home-9.css'],
  },
  '_home-dep.js': { file: 'assets/home-dep.js' },
}
const text = JSON.stringify(manifest)

describe('production assets from the Vite manifest', () => {
  it('emits stylesheets (dependencies first), module preloads of static imports and the entry script', () => {
    const assets = createProductionAssets(text)
    expect(assets.tags()).toBe(
      [
        '<link rel="stylesheet" href="/assets/shared-2.css">',
        '<link rel="stylesheet" href="/assets/app-abc.css">',
        '<link rel="modulepreload" href="/assets/vendor-1.js">',
        '<link rel="modulepreload" href="/assets/shared-2.js">',
        '<script type="module" src="/assets/app-abc.js"></script>',
      ].join('\n'),
    )
  })

  it('adds the CSP nonce to the entry script only: the same-origin links need none', () => {
    const tags = createProductionAssets(text).tags({ nonce: 'n0nce"x' })
    expect(tags.match(/ nonce="n0nce&quot;x"/g)).toHaveLength(1)
    expect(tags).toContain('<script type="module" src="/assets/app-abc.js" nonce="n0nce&quot;x"></script>')
    expect(tags).toContain('<link rel="modulepreload" href="/assets/vendor-1.js">')
  })

  it('preloads the page chunk and its CSS when a page module mapping is given', () => {
    const assets = createProductionAssets(text, { pageModule: (c) => `src/client/pages/${c}.tsx` })
    const tags = assets.tags({ component: 'Home' })
    expect(tags).toContain('<link rel="stylesheet" href="/assets/Home-9.css">')
    expect(tags).toContain('<link rel="modulepreload" href="/assets/Home-9.js">')
    expect(tags).toContain('<link rel="modulepreload" href="/assets/home-dep.js">')
    expect(tags.match(/shared-2\.js/g)).toHaveLength(1)
    expect(assets.tags({ component: 'Missing' })).toBe(assets.tags())
  })

  it('derives a short, stable version from the manifest contents', () => {
    const a = createProductionAssets(text)
    expect(a.version).toMatch(/^[0-9a-f]{16}$/)
    expect(a.version).toBe(shortHash(text))
    expect(createProductionAssets(text.replace('abc', 'abd')).version).not.toBe(a.version)
  })

  it('reads the manifest file and honours a base path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'inertia-vite-'))
    const file = join(dir, 'manifest.json')
    writeFileSync(file, text)
    const assets = loadProductionAssets(file, { base: '/static' })
    expect(assets.version).toBe(shortHash(text))
    expect(assets.tags()).toContain('<script type="module" src="/static/assets/app-abc.js"></script>')
  })

  it('fails clearly when the entry is not in the manifest', () => {
    expect(() => createProductionAssets(text, { entry: 'src/nope.tsx' })).toThrow(/no entry "src\/nope.tsx"/)
  })
})

describe('development assets', () => {
  it('emits the React refresh preamble, the Vite client and the entry with the nonce', () => {
    const tags = devAssetTags({ nonce: 'abc' })
    expect(tags).toContain('<script type="module" nonce="abc">')
    expect(tags).toContain('import { injectIntoGlobalHook } from "/@react-refresh";')
    expect(tags).toContain('<script type="module" src="/@vite/client" nonce="abc"></script>')
    expect(tags).toContain('<script type="module" src="/src/client/app.tsx" nonce="abc"></script>')
    expect(tags.indexOf('@react-refresh')).toBeLessThan(tags.indexOf('/src/client/app.tsx'))
  })

  it('collects stylesheet links from the SSR module graph', async () => {
    type Node = { url: string; id: string | null; importedModules: Set<Node> }
    const css: Node = {
      url: '/src/client/app.css',
      id: '/abs/src/client/app.css',
      importedModules: new Set(),
    }
    const inline: Node = { url: '/src/x.css?inline', id: null, importedModules: new Set() }
    const page: Node = {
      url: '/src/client/pages/Home.tsx',
      id: null,
      importedModules: new Set([css, inline]),
    }
    const entry: Node = { url: '/src/client/ssr.tsx', id: null, importedModules: new Set([page, css]) }
    const vite = {
      ssrLoadModule: async () => ({}),
      ssrFixStacktrace: () => {},
      environments: { ssr: { moduleGraph: { getModuleByUrl: async () => entry } } },
    }
    const links = await collectDevCss(vite as never, '/src/client/ssr.tsx')
    expect(links).toEqual([
      '<link rel="stylesheet" href="/src/client/app.css" data-vite-dev-id="/abs/src/client/app.css">',
    ])
  })
})
