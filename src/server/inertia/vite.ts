/**
 * Asset tags for the HTML document (inertia.md §3.5) and the asset version (§1.7).
 *
 * Production reads Vite's manifest once at boot. Development points the browser at the Vite dev
 * server. Nothing here imports `vite` at runtime (only types), so the production import graph stays
 * free of it; the lead's dev wiring imports Vite dynamically.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { ViteDevServer } from 'vite'
import type { Page } from './page.ts'
import { createModuleSsrRenderer, type SsrModule, type SsrRenderer } from './ssr.ts'
import { escapeHtml as escapeAttribute } from '../../shared/safe-html.ts'

export interface ViteManifestChunk {
  file: string
  src?: string
  name?: string
  isEntry?: boolean
  isDynamicEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
  css?: string[]
  assets?: string[]
}

export type ViteManifest = Record<string, ViteManifestChunk>

export interface TagOptions {
  /**
   * CSP nonce, added to the entry `<script>`. The stylesheet and module-preload links carry none:
   * they load same-origin files, which `script-src 'self'` and `style-src 'self'` already allow
   * (a nonce of 33 bytes on each of a page's ~15 links was half a kilobyte of every page).
   */
  nonce?: string
  /** The page component; with `pageModule`, its chunk is preloaded to avoid a request waterfall. */
  component?: string
}

export interface ProductionAssets {
  /** Short hash of the manifest contents: the Inertia asset version. */
  readonly version: string
  /** `<link rel="stylesheet">`s, `<link rel="modulepreload">`s and the entry `<script type="module">`. */
  tags(options?: TagOptions): string
}

export interface ProductionAssetsOptions {
  /** Manifest key of the client entry; default `src/client/app.tsx`. */
  entry?: string
  /** Public base path of the built assets; default `/`. */
  base?: string
  /** Maps a component name to its manifest key, e.g. `c => \`src/client/pages/${c}.tsx\``. */
  pageModule?: (component: string) => string
}

export { escapeHtml as escapeAttribute } from '../../shared/safe-html.ts'

function nonceAttribute(nonce: string | undefined): string {
  return nonce ? ` nonce="${escapeAttribute(nonce)}"` : ''
}

/** Short, stable hash of a string (the asset version). */
export function shortHash(contents: string | Buffer): string {
  return createHash('sha256').update(contents).digest('hex').slice(0, 16)
}

interface ChunkAssets {
  css: string[]
  preload: string[]
}

/** CSS files and static imports reachable from a manifest key (depth first, deduplicated). */
function collect(manifest: ViteManifest, key: string): ChunkAssets {
  const css: string[] = []
  const preload: string[] = []
  const seen = new Set<string>()
  const walk = (k: string, isRoot: boolean): void => {
    if (seen.has(k)) return
    seen.add(k)
    const chunk = manifest[k]
    if (!chunk) return
    for (const imported of chunk.imports ?? []) walk(imported, false)
    if (!isRoot && !preload.includes(chunk.file)) preload.push(chunk.file)
    for (const file of chunk.css ?? []) if (!css.includes(file)) css.push(file)
  }
  walk(key, true)
  return { css, preload }
}

/** Builds the production asset helper from the manifest text (pure; see `loadProductionAssets`). */
export function createProductionAssets(
  manifestText: string,
  options: ProductionAssetsOptions = {},
): ProductionAssets {
  const manifest = JSON.parse(manifestText) as ViteManifest
  const entryKey = options.entry ?? 'src/client/app.tsx'
  const entry = manifest[entryKey]
  if (!entry) {
    throw new Error(
      `Vite manifest has no entry "${entryKey}" (is build.manifest enabled and the entry built?)`,
    )
  }
  const base = (options.base ?? '/').replace(/\/?$/, '/')
  const url = (file: string): string => escapeAttribute(base + file)
  const entryAssets = collect(manifest, entryKey)
  const pageCache = new Map<string, ChunkAssets | null>()

  const pageAssets = (component: string): ChunkAssets | null => {
    if (!options.pageModule) return null
    let assets = pageCache.get(component)
    if (assets === undefined) {
      const key = options.pageModule(component)
      const chunk = manifest[key]
      if (chunk) {
        const nested = collect(manifest, key)
        assets = { css: nested.css, preload: [chunk.file, ...nested.preload] }
      } else {
        assets = null
      }
      pageCache.set(component, assets)
    }
    return assets
  }

  return {
    version: shortHash(manifestText),
    tags({ nonce, component } = {}) {
      const n = nonceAttribute(nonce)
      const css = [...entryAssets.css]
      const preload = [...entryAssets.preload]
      const page = component === undefined ? null : pageAssets(component)
      if (page) {
        for (const f of page.css) if (!css.includes(f)) css.push(f)
        for (const f of page.preload) if (!preload.includes(f) && f !== entry.file) preload.push(f)
      }
      return [
        ...css.map((f) => `<link rel="stylesheet" href="${url(f)}">`),
        ...preload.map((f) => `<link rel="modulepreload" href="${url(f)}">`),
        `<script type="module" src="${url(entry.file)}"${n}></script>`,
      ].join('\n')
    },
  }
}

/** Reads `dist/client/.vite/manifest.json` (once) and returns the production asset helper. */
export function loadProductionAssets(
  manifestPath: string,
  options: ProductionAssetsOptions = {},
): ProductionAssets {
  return createProductionAssets(readFileSync(manifestPath, 'utf8'), options)
}

export interface DevTagOptions {
  nonce?: string
  /** Entry module URL; default `/src/client/app.tsx`. */
  entry?: string
  /** Vite `base`; default `/`. */
  base?: string
}

/** A constant version for development, so HMR never triggers a version-mismatch reload. */
export const DEV_ASSET_VERSION = 'dev'

/**
 * Development tags: the React Fast Refresh preamble (inline, so it needs the nonce under a strict
 * CSP), the Vite client and the app entry, all served by the Vite dev server middleware.
 */
export function devAssetTags({
  nonce,
  entry = '/src/client/app.tsx',
  base = '/',
}: DevTagOptions = {}): string {
  const n = nonceAttribute(nonce)
  const root = base.replace(/\/?$/, '/')
  const refresh = JSON.stringify(`${root}@react-refresh`)
  const preamble = [
    `import { injectIntoGlobalHook } from ${refresh};`,
    'injectIntoGlobalHook(window);',
    'window.$RefreshReg$ = () => {};',
    'window.$RefreshSig$ = () => (type) => type;',
  ].join('\n')
  const entryUrl = entry.startsWith('/') ? root + entry.slice(1) : root + entry
  return [
    `<script type="module"${n}>\n${preamble}\n</script>`,
    `<script type="module" src="${escapeAttribute(root)}@vite/client"${n}></script>`,
    `<script type="module" src="${escapeAttribute(entryUrl)}"${n}></script>`,
  ].join('\n')
}

/** The part of the Vite dev server used here (structural, so tests can pass a stub). */
export type ViteDevServerLike = Pick<ViteDevServer, 'ssrLoadModule' | 'ssrFixStacktrace'> & {
  environments?: Partial<Pick<ViteDevServer['environments'], 'ssr'>>
}

/**
 * Stylesheet links for every CSS module reachable from an SSR-loaded module, so server-rendered
 * HTML is styled before Vite's client injects the styles (Vite's client removes the links then,
 * matching them by `data-vite-dev-id`).
 */
export async function collectDevCss(vite: ViteDevServerLike, entryUrl: string): Promise<string[]> {
  const graph = vite.environments?.ssr?.moduleGraph
  if (!graph) return []
  const root = await graph.getModuleByUrl(entryUrl)
  if (!root) return []
  const links: string[] = []
  const seen = new Set<unknown>()
  const stack = [root]
  while (stack.length > 0) {
    const node = stack.pop()
    if (!node || seen.has(node)) continue
    seen.add(node)
    const isCss = /\.(css|less|sass|scss|styl|stylus|pcss|postcss|sss)(\?|$)/.test(node.url)
    if (isCss && !/[?&](inline|raw|url)\b/.test(node.url)) {
      links.push(
        `<link rel="stylesheet" href="${escapeAttribute(node.url)}" data-vite-dev-id="${escapeAttribute(node.id ?? node.url)}">`,
      )
    }
    for (const child of node.importedModules) stack.push(child)
  }
  return links
}

/**
 * SSR renderer for development: loads the SSR entry through Vite on every render (so edits apply
 * without a restart), fixes stack traces to point at source files, and adds the CSS links.
 */
export function createViteDevSsrRenderer(
  vite: ViteDevServerLike,
  entry = '/src/client/ssr.tsx',
): SsrRenderer {
  return createModuleSsrRenderer(() => vite.ssrLoadModule(entry) as Promise<SsrModule>, {
    onError: (error) => {
      if (error instanceof Error) vite.ssrFixStacktrace(error)
    },
    extraHead: (_page: Page) => collectDevCss(vite, entry),
  })
}
