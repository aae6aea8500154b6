/**
 * What `react` resolves to in the shipped builds (vite.config.ts, ADR 0105): Preact's
 * compatibility layer, with one change. Preact's `use(context)` reads the context through the
 * renderer's component internals, which preact-render-to-string does not fill in, so server
 * rendering failed at the first `usePage()`. Reading a context is exactly `useContext`, which both
 * renderers support; promises still go to Preact's own `use`.
 *
 * Plain JavaScript: Preact's compat types are written as `export =`, which a TypeScript module
 * cannot re-export with `export *`; type checking keeps React's own types.
 */
import compat, { use as preactUse, useContext } from 'preact/compat'

export * from 'preact/compat'

export function use(resource) {
  // A given call site always passes the same kind of resource, so the hook order is stable.
  return typeof resource.then === 'function' ? preactUse(resource) : useContext(resource)
}

export default { ...compat, use }
