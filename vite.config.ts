/**
 * Two builds from one config:
 *   vite build        -> dist/client (browser bundle + .vite/manifest.json for the server's asset tags)
 *   vite build --ssr  -> dist/ssr/ssr.js (imported in-process by the server to render first loads)
 * In development the server runs Vite in middleware mode and loads src/client/ssr.tsx itself.
 */
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss()],
  build: isSsrBuild
    ? {
        ssr: 'src/client/ssr.tsx',
        outDir: 'dist/ssr',
        emptyOutDir: true,
        copyPublicDir: false,
        sourcemap: true,
        // `vite build --ssr` (no entry on the command line) replaces build.ssr with `true`,
        // so the entry is named here as well.
        rolldownOptions: { input: 'src/client/ssr.tsx', output: { entryFileNames: 'ssr.js' } },
      }
    : {
        outDir: 'dist/client',
        emptyOutDir: true,
        manifest: true,
        rolldownOptions: { input: 'src/client/app.tsx' },
      },
}))
