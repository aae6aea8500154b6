/**
 * The React → Preact aliases of the shipped builds (ADR 0105), in one place: `vite.config.ts`
 * applies them to `vite build` and `vite build --ssr`, `vitest.config.ts` to the component tests
 * (ADR 0155), so the tests run the renderer that ships. `reactEntry` is what `react` itself
 * resolves to: the production layer, or the test layer that adds Preact's `act`.
 */
import { fileURLToPath } from 'node:url'

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url))

export function preactAliases(reactEntry: 'compat' | 'compat-test' = 'compat') {
  return [
    { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
    { find: /^react-dom\/server$/, replacement: 'preact/compat/server' },
    { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
    { find: /^react-dom$/, replacement: 'preact/compat' },
    { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
    { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
    { find: /^react$/, replacement: here(`./${reactEntry}.js`) },
  ]
}
