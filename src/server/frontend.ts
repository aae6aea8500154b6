/**
 * How the browser code reaches the page: in development Vite serves it with hot reload and
 * renders SSR from source; in production the built manifest and SSR bundle are read at boot.
 */
import { marketingTags } from './modules/sites/marketing-tags.ts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Config } from './config.ts'
import type { Page } from './inertia/page.ts'
import { memoizeSsr } from './inertia/ssr-cache.ts'
import { createModuleSsrRenderer, type SsrModule, type SsrRenderer } from './inertia/ssr.ts'
import {
  createViteDevSsrRenderer,
  DEV_ASSET_VERSION,
  devAssetTags,
  escapeAttribute,
  loadProductionAssets,
} from './inertia/vite.ts'
import { scriptNonce } from './plugins/security-headers.ts'

export interface DocumentParts {
  page: Page
  head: string
  body: string
  /** Head elements for this first load only (the render's `head` option) */
  extraHead?: string
  request: FastifyRequest
  reply: FastifyReply
}

export interface Frontend {
  version: string
  ssr: SsrRenderer | null
  document(parts: DocumentParts): string
}

function htmlDocument(
  lang: string,
  title: string,
  head: string,
  assets: string,
  body: string,
  extraHead = '',
): string {
  return `<!doctype html>
<html lang="${escapeAttribute(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${head || `<title>${escapeAttribute(title)}</title>`}${extraHead ? `\n${extraHead}` : ''}
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
${assets}
</head>
<body>
${body}
</body>
</html>`
}

export async function createFrontend(app: FastifyInstance, config: Config): Promise<Frontend> {
  const langOf = (request: FastifyRequest) => request.site?.settings.locale ?? 'en-GB'
  const titleOf = (request: FastifyRequest) => request.site?.name ?? 'Shop'

  if (config.isDev) {
    const { createServer } = await import('vite')
    const middie = (await import('@fastify/middie')).default
    const vite = await createServer({
      root: config.paths.root,
      server: { middlewareMode: true, hmr: { server: app.server } },
      appType: 'custom',
    })
    await app.register(middie)
    app.use(vite.middlewares)
    app.addHook('onClose', async () => vite.close())
    return {
      version: DEV_ASSET_VERSION,
      ssr: config.ssr ? createViteDevSsrRenderer(vite) : null,
      document: ({ head, body, extraHead, request, reply }) =>
        htmlDocument(
          langOf(request),
          titleOf(request),
          head,
          [marketingTags(request.site, scriptNonce(reply)), devAssetTags({ nonce: scriptNonce(reply) })]
            .filter(Boolean)
            .join('\n'),
          body,
          extraHead,
        ),
    }
  }

  const manifestPath = resolve(config.paths.dist, 'client/.vite/manifest.json')
  const ssrPath = resolve(config.paths.dist, 'ssr/ssr.js')
  const built = existsSync(manifestPath)
  if (!built && config.env === 'production') {
    throw new Error(`No client build in ${manifestPath}: run \`npm run build\` first (npm start does).`)
  }
  const assets = built
    ? loadProductionAssets(manifestPath, { pageModule: (c) => `src/client/pages/${c}.tsx` })
    : null

  let ssr: SsrRenderer | null = null
  if (config.ssr && existsSync(ssrPath)) {
    const url = pathToFileURL(ssrPath).href
    // Import once at boot so the first request does not pay for it, and fail fast if it is broken.
    const module = (await import(url)) as SsrModule
    ssr = memoizeSsr(createModuleSsrRenderer(async () => module))
  } else if (config.ssr && config.env === 'production') {
    throw new Error(`No SSR bundle at ${ssrPath}: run \`npm run build\` first, or set SSR=false.`)
  }

  return {
    version: assets?.version ?? 'unbuilt',
    ssr,
    document: ({ page, head, body, extraHead, request, reply }) =>
      htmlDocument(
        langOf(request),
        titleOf(request),
        head,
        [
          marketingTags(request.site, scriptNonce(reply)),
          assets?.tags({ nonce: scriptNonce(reply), component: page.component }) ?? '',
        ]
          .filter(Boolean)
          .join('\n'),
        body,
        extraHead,
      ),
  }
}
