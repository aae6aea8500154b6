/**
 * The `FormData` the production SSR bundle sees: vite.config.ts injects this class for every free
 * reference to `FormData` in the SSR build only (the browser bundle keeps the browser's own).
 *
 * Why: Inertia asks `data instanceof FormData` while rendering every `<Link>`
 * (`mergeDataIntoQueryString` → `isFormData`). In Node the global `FormData` is a lazy property
 * whose first read loads undici, 25–30 ms of main thread, and the first page rendered after a
 * start paid for it before its answer (issue 18, ADR 0114). A page's props in SSR come from JSON
 * and a link's data is a plain object, so the answer is always "no"; this class gives the same
 * answer as the global without reading it for anything that cannot be a FormData.
 *
 * It is not a stand-in: anything whose `Symbol.toStringTag` says FormData (every real instance
 * does) is checked against the real class, and `new FormData()` builds a real one.
 */
export class SsrFormData {
  constructor(...args: ConstructorParameters<typeof FormData>) {
    // A constructor that returns an object makes `new` give that object: the real FormData.
    return new globalThis.FormData(...args) as unknown as SsrFormData
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return (
      typeof value === 'object' &&
      value !== null &&
      Object.prototype.toString.call(value) === '[object FormData]' &&
      value instanceof globalThis.FormData
    )
  }
}
