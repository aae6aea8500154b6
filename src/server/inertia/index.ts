/** Public surface of the Inertia adapter. */
export {
  inertiaPlugin,
  renderErrorPage,
  sameOriginReferer,
  appendVary,
  InertiaRequest,
  InertiaReply,
  type InertiaOptions,
  type RenderOptions,
  type DocumentContext,
  type DocumentRenderer,
  type SharedPropsProvider,
} from './plugin.ts'
export {
  optional,
  always,
  defer,
  merge,
  deepMerge,
  once,
  scroll,
  isInertiaProp,
  InertiaProp,
  type Lazy,
  type MaybeLazy,
  type OnceOptions,
  type ScrollOptions,
  type ScrollMetadata,
  type DeferOptions,
} from './props.ts'
export {
  resolveProps,
  type PropsMetadata,
  type ResolvedProps,
  type PropsRequestInfo,
} from './resolve-props.ts'
export { buildPage, serializePageForHtml, clientSideBody, type Page } from './page.ts'
export { parseRequestInfo, type InertiaRequestInfo } from './request-info.ts'
export {
  resolveErrors,
  errorsFromIssues,
  SESSION_KEYS,
  type ErrorMessages,
  type ErrorBags,
  type ValidationIssues,
} from './session.ts'
export {
  createModuleSsrRenderer,
  type SsrRenderer,
  type SsrResult,
  type SsrModule,
  type SsrContext,
} from './ssr.ts'
export {
  loadProductionAssets,
  createProductionAssets,
  devAssetTags,
  collectDevCss,
  createViteDevSsrRenderer,
  DEV_ASSET_VERSION,
  type ProductionAssets,
  type ViteManifest,
} from './vite.ts'
