/**
 * Header names used by the Inertia v3 protocol, lower-cased as Node delivers them.
 * See docs/design inertia.md §1.2–1.3.
 */
export const H = {
  inertia: 'x-inertia',
  version: 'x-inertia-version',
  location: 'x-inertia-location',
  redirect: 'x-inertia-redirect',
  partialComponent: 'x-inertia-partial-component',
  partialData: 'x-inertia-partial-data',
  partialExcept: 'x-inertia-partial-except',
  reset: 'x-inertia-reset',
  errorBag: 'x-inertia-error-bag',
  exceptOnceProps: 'x-inertia-except-once-props',
  mergeIntent: 'x-inertia-infinite-scroll-merge-intent',
  purpose: 'purpose',
  precognition: 'precognition',
  vary: 'vary',
  referer: 'referer',
} as const
