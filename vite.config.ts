/**
 * Two builds from one config:
 *   vite build        -> dist/client (browser bundle + .vite/manifest.json for the server's asset tags)
 *   vite build --ssr  -> dist/ssr/ssr.js (imported in-process by the server to render first loads)
 * In development the server runs Vite in middleware mode and loads src/client/ssr.tsx itself.
 */
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import { preactAliases } from './src/client/preact/aliases.ts'

/**
 * The shipped pages run on Preact's React compatibility layer instead of React DOM (ADR 0105):
 * the same components and @inertiajs/react, about 50 KB less first-load JavaScript (Brotli). Both
 * builds use it, so the server renders with the renderer that hydrates (useId agrees). The
 * component tests run under the same aliases (vitest.config.ts, ADR 0155); development and type
 * checking keep React.
 */
const preactCompat = preactAliases()

const ssrFormData = fileURLToPath(new URL('src/client/ssr-form-data.ts', import.meta.url))

export default defineConfig(({ isSsrBuild, command }) => ({
  plugins: [react(), tailwindcss()],
  resolve: command === 'build' ? { alias: preactCompat } : {},
  // The production SSR build bundles its dependencies: their `react` imports resolve to Preact
  // too, and the server loads one file at start instead of resolving each package (ADR 0113).
  ssr: command === 'build' ? { noExternal: true } : {},
  build: isSsrBuild
    ? {
        ssr: 'src/client/ssr.tsx',
        outDir: 'dist/ssr',
        emptyOutDir: true,
        copyPublicDir: false,
        sourcemap: true,
        // `vite build --ssr` (no entry on the command line) replaces build.ssr with `true`,
        // so the entry is named here as well.
        rolldownOptions: {
          input: 'src/client/ssr.tsx',
          output: { entryFileNames: 'ssr.js' },
          // Inertia's `instanceof FormData` on every <Link> would read Node's lazy global, which
          // loads undici (25–30 ms before the first answer after a start); the SSR bundle gets a
          // FormData that answers without it and is the real one otherwise (ssr-form-data.ts).
          transform: { inject: { FormData: [ssrFormData, 'SsrFormData'] } },
        },
      }
    : {
        outDir: 'dist/client',
        emptyOutDir: true,
        manifest: true,
        rolldownOptions: { input: 'src/client/app.tsx' },
      },
}))
