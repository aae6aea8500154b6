/**
 * The composition root: buildApp(config) assembles plugins, modules and routes. main.ts and
 * the tests both call it; nothing else creates a Fastify instance.
 */
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { installMarketingCsp } from './modules/sites/marketing-tags.ts'
import { currentCustomerId } from './modules/auth/auth.session.ts'
import { siteBaseUrl } from './modules/sites/site-url.ts'
import { installInputGuard } from './plugins/input-guard.ts'
import { PostgresRateLimitCounter, postgresRateLimitStore } from './plugins/rate-limit-store.ts'
import { publicFilePaths, staticFileExemption } from './plugins/rate-limit-exempt.ts'
import { compressionPlugin } from './plugins/compression.ts'
import fastifyCookie from '@fastify/cookie'
import formbody from '@fastify/formbody'
import rateLimit from '@fastify/rate-limit'
import fastifyStatic from '@fastify/static'
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RouteOptions,
} from 'fastify'
import type { Redis } from 'ioredis'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import qs from 'qs'
import type { Config } from './config.ts'
import './app.types.ts'
import { createUploadStore, type UploadStore } from './lib/upload-store.ts'
import { openDatabase, type Database } from './db/client.ts'
import { createJobQueue, registerJobs } from './jobs/index.ts'
import { createWebhooks } from './modules/webhooks/webhooks.module.ts'
import { connectCaches } from './ops/cache-signals.ts'
import { LocalChangeBus, PostgresChangeBus, type ChangeBus } from './ops/change-bus.ts'
import { healthRoutes } from './ops/health.ts'
import { createMetrics } from './ops/metrics.ts'
import { prepareDatabase } from './ops/startup.ts'
import { ADMIN_PREFIX, adminRoutes } from './modules/admin/admin.routes.ts'
import { adminAttentionRoutes as apiAttentionRoutes } from './modules/staff/api.attention.routes.ts'
import { adminCustomerStandingRoutes as apiCustomerStandingRoutes } from './modules/staff/api.customers-standing.routes.ts'
import { createFrontend, type Frontend } from './frontend.ts'
import { inertiaPlugin } from './inertia/plugin.ts'
import { cartRoutes } from './modules/cart/cart.routes.ts'
import { orderPreviewRoutes } from './modules/builders/order-builds.routes.ts'
import { signRoutes } from './modules/builders/signs.routes.ts'
import { workwearRoutes } from './modules/builders/workwear.routes.ts'
import { CartService } from './modules/cart/cart.service.ts'
import type { SendMail } from './modules/auth/auth.mail.ts'
import { authPlugin } from './modules/auth/auth.plugin.ts'
import { authRoutes } from './modules/auth/auth.routes.ts'
import { CatalogService } from './modules/catalog/catalog.service.ts'
import { contentRoutes, type NotifySiteContact } from './modules/content/content.routes.ts'
import { ContentService } from './modules/content/content.service.ts'
import { settingsFromContent } from './modules/content/content.settings.ts'
import { createContentStore } from './modules/content/content.stores.ts'
import { formSubmissionMail } from './modules/content/form-mail.ts'
import { webhookRoutes } from './modules/content/webhook.routes.ts'
import { newsletterRoutes } from './modules/newsletter/newsletter.routes.ts'
import { mailRoutes } from './modules/mail/mail.routes.ts'
import { createMailer } from './modules/mail/mail.service.ts'
import { mediaRoutes } from './modules/media/media.routes.ts'
import { customerRoutes } from './modules/customers/customers.routes.ts'
import { accountPasswordUpdate, accountRoutes } from './modules/account/account.routes.ts'
import { checkoutPageRoutes, checkoutRoutes } from './modules/checkout/checkout.routes.ts'
import { addressLookupFor } from './modules/checkout/address-lookup.ts'
import { OrderOwnerLinks } from './modules/orders/order-owner.ts'
import { CheckoutService } from './modules/checkout/checkout.service.ts'
import { OrdersService } from './modules/orders/orders.service.ts'
import { OrderPlacement } from './modules/orders/placement.workflow.ts'
import { orderLifecycleFor, ordersPaymentHooks } from './modules/orders/orders.plugin.ts'
import { copyWorkwearSessions, loadLogo } from './modules/builders/workwear.service.ts'
import { orderPreviews, recordOrderBuilds } from './modules/builders/order-builds.ts'
import { PaymentMethodRegistry } from './modules/payments/payment-methods.ts'
import { purchaseOrder } from './modules/payment-methods/purchase-order/purchase-order.method.ts'
import { enqueueMail, MailQueueWorker } from './modules/mail/mail.queue.ts'
import { mailJobs } from './modules/mail/mail.tables.ts'
import { CustomerService } from './modules/customers/customers.service.ts'
import { keepRegistrationDetails } from './modules/customers/registration.ts'
import { createSearchEngine } from './modules/search/search.factory.ts'
import { analyticsFor, searchRoutes } from './modules/search/search.routes.ts'
import { SearchService } from './modules/search/search.service.ts'
import type { SearchEngine } from './modules/search/search.engine.ts'
import { storefrontRoutes } from './modules/pages/storefront.routes.ts'
import { pageRoutes } from './modules/pages/pages.routes.ts'
import { paymentsPlugin } from './modules/payments/payments.plugin.ts'
import { paymentMethodsPlugin } from './modules/payment-methods/payment-methods.plugin.ts'
import { methodPayments } from './modules/payment-methods/method-payments.ts'
import { presentSite, SiteRegistry, withSisterLinks } from './modules/sites/sites.service.ts'
import { csrfPlugin, ensureXsrfCookie, XSRF_COOKIE } from './plugins/csrf.ts'
import { installErrorHandler, MESSAGES, wantsPage } from './plugins/error-handler.ts'
import { noStorePath, securityHeadersPlugin } from './plugins/security-headers.ts'
import { sessionPlugin } from './plugins/session.ts'
import { withQueryTally, type QueryTally } from './db/query-count.ts'
import { CART_SESSION_KEY, rememberCart, sessionCartId } from './lib/customer-session.ts'
import { allSiteIds } from './modules/sites/sites.queries.ts'
import { StaffService } from './modules/staff/staff.service.ts'
import { staffPlugin } from './modules/staff/staff.plugin.ts'

export interface AppDependencies {
  /** An already-open database (tests pass an isolated one), or one opening; otherwise opened from config. */
  database?: Database | Promise<Database>
  /** Close `database` when the app closes (the server process opens it before the app's modules load). */
  ownsDatabase?: boolean
  /** Skip migrations when the caller already ran them. */
  migrated?: boolean
  /** E-mails the site contact about a content-form submission; default: through app.mailer. */
  notifySiteContact?: NotifySiteContact
  /** Delivers auth e-mails (verification, reset, welcome); default: app.mailer. Tests capture mail here. */
  sendMail?: SendMail
  /** Start background jobs when ready (default true; tests that drive jobs themselves pass false). */
  startJobs?: boolean
  /** The upload store; default: from config (local folder or S3). */
  uploads?: UploadStore
  /** The search engine; default: from config (tests pass one whose first build they hold back). */
  searchEngine?: SearchEngine
  /** Sees every route as it is added (the routes-table test lists them). */
  onRoute?: (route: RouteOptions) => void
  /** The first search index build starts at the latest this long after ready (default 500 ms). */
  firstIndexBuildWithinMs?: number
}

/** The first search index build starts at the latest this long after the server is ready. */
const FIRST_INDEX_BUILD_WITHIN_MS = 500

export async function buildApp(config: Config, deps: AppDependencies = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(config.logPretty ? { transport: { target: 'pino-pretty', options: { colorize: true } } } : {}),
      redact: ['req.headers.cookie', 'req.headers.authorization', 'req.headers["x-xsrf-token"]'],
    },
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    // Inertia sends GET data in brackets format (a[]=1, f[x]=y): parse it like qs, with limits.
    routerOptions: {
      querystringParser: (s: string) => qs.parse(s, { depth: 4, arrayLimit: 50, parameterLimit: 200 }),
      maxParamLength: 500,
    },
    // On close, idle keep-alive connections go at once; requests in flight are answered first.
    forceCloseConnections: 'idle',
  })
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute)

  // --- Infrastructure -------------------------------------------------------------------
  const ownsDatabase = !deps.database || deps.ownsDatabase === true
  const database = await (deps.database ?? openDatabase(config.db))
  // Migrations (and the demo seed) run while the rest is set up, which sends no statement; the app
  // is returned once they are done. The embedded database may still be starting here (ADR 0114).
  const prepared = prepareDatabase(database, {
    migrated: deps.migrated,
    seed: config.seedOnStart,
    log: (m) => app.log.info(m),
  })
  prepared.catch(() => {}) // awaited below, where a failure is thrown

  const redis: Redis | null = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 })
    : null

  app.decorate('config', config)
  app.decorate('db', database.db)
  app.decorate('uploads', deps.uploads ?? createUploadStore(config.uploads))
  const content = new ContentService(createContentStore(config, database.db))
  app.decorate('content', content)
  // Site settings, products settings and the header message come from content stories.
  app.decorate(
    'sites',
    new SiteRegistry(database.db, 30_000, (siteId) => settingsFromContent(content, siteId)),
  )
  content.onInvalidate(() => app.sites.invalidate())
  app.decorate('catalog', new CatalogService(database.db))
  app.decorate(
    'searchService',
    new SearchService(
      database.db,
      deps.searchEngine ?? (await createSearchEngine(config)),
      app.catalog,
      app.log,
    ),
  )
  // Built in the background once the server has answered its first request (often /readyz), or
  // half a second after it is ready without one, so that answer does not queue behind the build's
  // reads of the whole catalogue (ADR 0114). /readyz says 503 until it is done, and a search asked
  // for before then starts it and waits for it (search.service.ts).
  app.addHook('onReady', async () =>
    app.searchService.startWithin(deps.firstIndexBuildWithinMs ?? FIRST_INDEX_BUILD_WITHIN_MS),
  )
  let firstAnswered = false
  app.addHook('onResponse', (_request, _reply, done) => {
    if (!firstAnswered) {
      firstAnswered = true
      setImmediate(() => void app.searchService.start())
    }
    done()
  })
  // A copied basket (share link, saved basket) gets copies of its workwear designs (ADR 0151).
  app.decorate('carts', new CartService(database.db, { copy: copyWorkwearSessions }))
  app.decorate(
    'mailer',
    createMailer(config, database.db, (m) =>
      // The outbox sends nothing: its mails are shown in the server's own output (the terminal
      // of `npm start`), so a demo account can be verified without a mail server.
      app.log.info(
        `E-mail to ${m.to.join(', ')} (not sent, kept in the outbox): ${m.subject}\n\n${m.text}\n`,
      ),
    ),
  )

  // Caches of this instance follow writes made by the others (LISTEN/NOTIFY on PostgreSQL).
  let changes: ChangeBus = new LocalChangeBus(app.log)
  if (database.connectionString) {
    const bus = new PostgresChangeBus({ connectionString: database.connectionString, log: app.log })
    await bus.start()
    changes = bus
  }
  app.decorate('changes', changes)
  connectCaches(
    changes,
    {
      catalog: app.catalog,
      content,
      carts: app.carts,
      searchService: app.searchService,
      sites: app.sites,
      refreshContentVersion: async () =>
        content.refreshVersions(await allSiteIds(database.db), (err) => {
          throw err
        }),
    },
    app.log,
  )
  app.decorate('customers', new CustomerService(database.db))
  // Order e-mails: queued in the order's transaction, sent by this worker (any instance may run it).
  app.decorate(
    'mailQueue',
    new MailQueueWorker(database.db, app.mailer, {
      log: app.log,
      from: config.mail.from,
      leaseMs: config.mail.leaseMs,
      sendTimeoutMs: config.mail.sendTimeoutMs,
    }),
  )
  // Payment methods: purchase order here; the payments module registers the card and wallet ones.
  app.decorate('paymentMethods', new PaymentMethodRegistry())
  app.paymentMethods.register(purchaseOrder)
  app.decorate('addressLookup', addressLookupFor(config, app.log))
  app.decorate(
    'orders',
    new OrdersService(database.db, new OrderOwnerLinks(config.session.secret), orderPreviews),
  )
  app.decorate('webhooks', createWebhooks(app)) // outbound webhooks (ADR 0230)
  // After the order (ADR 0200): money goes back through the payments module's refund ledger
  // (ADR 0210, decorated with the payments plugin below, hence read at call time) and every
  // change is announced through the webhooks outbox in the change's own transaction.
  app.decorate(
    'orderLifecycle',
    orderLifecycleFor(app, database.db, {
      money: {
        refund: (input) => app.refunds.refund(input),
        giveBackAll: (input) => app.refunds.giveBackAll(input),
      },
      events: (tx, event) => app.webhooks.recordWebhookEvent(tx, event),
    }),
  )
  app.decorate('checkout', new CheckoutService(database.db, app.carts, () => app.placement))
  app.decorate(
    'placement',
    new OrderPlacement({
      db: database.db,
      carts: app.carts,
      customers: app.customers,
      orders: app.orders,
      methods: app.paymentMethods,
      zoneOf: (site, country, postcode) => app.checkout.zoneOf(site, country, postcode),
      // Send the new order's e-mails now rather than at the next poll.
      onPlaced: () =>
        app.mailQueue.kick().catch((err: unknown) => app.log.warn({ err }, 'mail queue run failed')),
      recordBuilds: (tx, order) =>
        recordOrderBuilds(tx, { ...order, loadLogo: (row) => loadLogo(app.uploads, row) }),
    }),
  )
  // Background work on the job queue (pg-boss on PostgreSQL, the in-process driver otherwise).
  app.decorate('jobs', registerJobs(app, createJobQueue(app, database.connectionString)))
  if (deps.startJobs !== false) app.addHook('onReady', async () => app.jobs.start())
  app.decorate('assetVersion', '')
  app.decorateRequest('site', null)

  app.addHook('onClose', async () => {
    await app.jobs.stop()
    await app.mailQueue.stop()
    await app.changes.close()
    await app.searchService.close()
    if (redis) await redis.quit().catch(() => {})
    if (ownsDatabase) await database.close()
  })

  const frontend: Frontend = await createFrontend(app, config)
  app.assetVersion = frontend.version

  // --- Cross-cutting plugins (order matters) ----------------------------------------------
  if (config.serverTiming) {
    // Time spent in this process for the request, so load tests can tell server time from queueing.
    app.addHook('onSend', async (_request, reply) => {
      reply.header('server-timing', `app;dur=${reply.elapsedTime.toFixed(2)}`)
    })
    // The SQL statements the request sent (the bench's query counts): everything the request
    // does from here on runs with a tally of its own; the header is set after the session write.
    app.decorateRequest('queryTally', null)
    app.addHook('onRequest', (request, _reply, done) => {
      const tally: QueryTally = { count: 0 }
      request.queryTally = tally
      withQueryTally(tally, done)
    })
  }
  // Brotli/gzip for HTML and JSON made per request; before the routes and the static files.
  await app.register(compressionPlugin)
  await app.register(securityHeadersPlugin, {
    isDev: config.isDev,
    httpsOnly: config.session.cookieSecure === true,
    scriptOrigins: config.content.scriptOrigins,
  })
  // The ad pixel's and tag manager's origins join the CSP of the sites that turn them on.
  installMarketingCsp(app)
  // Control characters in the URL end here, in the one error handler (bodies: src/shared/text.ts).
  installInputGuard(app)
  await app.register(formbody)
  // Counts shared by every instance: in Redis, else in PostgreSQL (ADR 0176); in this process's
  // memory only on the embedded database, which one process serves.
  const rateLimitCounts =
    !redis && config.rateLimitStore === 'postgres' ? new PostgresRateLimitCounter(database.db) : null
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    // The shop's own static files are not counted (a page asks for several at once).
    allowList: staticFileExemption(publicFilePaths(resolve(config.paths.root, 'public'))),
    ...(redis ? { redis } : {}),
    // A count the database cannot take lets the request through (the route answers on its own
    // terms), logged, rather than turning every request into an error while it is away.
    ...(rateLimitCounts
      ? {
          store: postgresRateLimitStore(rateLimitCounts, (err) =>
            app.log.warn({ err }, 'rate-limit count failed; request let through'),
          ),
          skipOnError: true,
        }
      : {}),
    // The error handler turns the 429 into a page or JSON with a clear message.
    errorResponseBuilder: (_req, context) => ({
      statusCode: 429,
      code: 'FST_RATE_LIMITED',
      message: MESSAGES.rateLimited,
      headers: { 'retry-after': String(Math.ceil(context.ttl / 1000)) },
    }),
  })
  await app.register(fastifyCookie, { secret: config.session.secret })
  await app.register(sessionPlugin, {
    secret: config.session.secret,
    ttlSeconds: config.session.ttlSeconds,
    cookieSecure: config.session.cookieSecure,
    db: database.db,
    redis,
    changes: app.changes,
  })
  await app.register(csrfPlugin, { cookieSecure: config.session.cookieSecure })
  await app.register(authPlugin, {
    db: database.db,
    secret: config.session.secret,
    cookieSecure: config.session.cookieSecure,
    rememberTtlMs: config.session.ttlSeconds * 1000,
    recaptchaSecret: config.recaptchaSecret,
    changes: app.changes,
    onRegistered: keepRegistrationDetails,
    // Tests run account-mail jobs at once (they drain them); elsewhere after a random delay.
    deferMs: config.env === 'test' ? () => 0 : undefined,
    jobs: app.jobs,
    // Auth e-mails go through the shop's mailer (outbox or SMTP) unless a test captures them.
    // Account e-mails are durable (ADR 0186): a row in the mail queue, sent by it at once; a
    // crash before or during the send leaves the row, which the next worker sends. A keyed
    // message (one per account-mail job, ADR 0250) is queued once however often it is sent.
    sendMail:
      deps.sendMail ??
      (async (m, key) => {
        const dedupeKey = `account:${key ?? randomUUID()}`
        await enqueueMail(database.db, [{ dedupeKey, message: { ...m, to: [m.to] } }])
        await app.mailQueue.flush()
      }),
    mailQueued: deps.sendMail
      ? undefined
      : async (key) =>
          (
            await database.db
              .select({ id: mailJobs.id })
              .from(mailJobs)
              .where(eq(mailJobs.dedupeKey, `account:${key}`))
              .limit(1)
          ).length > 0,
  })

  if (config.serverTiming) {
    app.addHook('onSend', async (request, reply) => {
      if (request.queryTally) reply.header('x-db-queries', String(request.queryTally.count))
    })
  }

  // A basket started as a visitor belongs to the customer once they log in.
  app.auth.onLogin(async ({ request, customerId }) => {
    const cartId = sessionCartId(request)
    if (cartId && request.site) await app.carts.attachToCustomer(request.site.id, cartId, customerId)
  })

  // The checkout's logout keeps the browser's basket, no longer the customer's (ADR 0136).
  app.auth.onLogout(async ({ request, customerId, previousSession }) => {
    const cartId = previousSession[CART_SESSION_KEY]
    if (typeof cartId !== 'string' || !request.site) return
    const ctx = { site: request.site, cartId, baseUrl: siteBaseUrl(request) }
    if (await app.carts.releaseFromCustomer(ctx, customerId)) rememberCart(request, cartId)
  })

  // Static files: brand logos, favicon and (in production) the built client assets.
  await app.register(fastifyStatic, {
    root: resolve(config.paths.root, 'public'),
    prefix: '/',
    wildcard: false,
    maxAge: config.isDev ? 0 : 3600_000,
  })
  const assetsDir = resolve(config.paths.dist, 'client/assets')
  if (!config.isDev && existsSync(assetsDir)) {
    await app.register(fastifyStatic, {
      root: assetsDir,
      prefix: '/assets/',
      decorateReply: false,
      // Hashed names: a changed file gets a new name, so a year and `immutable` are safe.
      immutable: true,
      maxAge: 365 * 24 * 3600_000,
      // The build writes .br and .gz beside each text asset (scripts/precompress.ts).
      preCompressed: true,
    })
  }

  // Every request learns its site from the Host header (an in-memory lookup).
  app.addHook('onRequest', async (request) => {
    // The same host name Fastify reports (X-Forwarded-Host only behind a trusted proxy); links
    // are built from the site's configured host either way (modules/sites/site-url.ts).
    const site = await app.sites.forHost(request.host)
    // Sister-site links are built from each sister's own configured host, as this request reaches it.
    request.site = site
      ? withSisterLinks(
          site,
          (code) => app.sites.byCode(code),
          (sister) => siteBaseUrl(request, sister),
        )
      : null
  })

  // --- Inertia --------------------------------------------------------------------------
  await app.register(inertiaPlugin, {
    version: frontend.version,
    ssr: frontend.ssr,
    share: async (request: FastifyRequest) => ({
      site: request.site ? presentSite(request.site, siteBaseUrl(request)) : null,
      auth: { customer: await app.auth.summary(request) },
      // The header summary: no query without a basket in the session, else a cached row read.
      cart: async () => {
        const cartId = request.site ? sessionCartId(request) : null
        if (!cartId || !request.site) return { count: 0, total: 0 }
        return (await app.carts.summary(request.site.id, cartId)) ?? { count: 0, total: 0 }
      },
      search: {
        suggestions: config.search.suggestions,
        clickAnalytics: analyticsFor(request),
        bestSellers: config.search.bestSellers,
      },
    }),
    document: (parts) => {
      ensureXsrfCookie(parts.request, parts.reply, config.session.cookieSecure)
      return frontend.document(parts)
    },
  })

  // Pages with personal data (any page of a logged-in customer, and the account, two-factor and
  // checkout pages) are encrypted in the browser's history; logout clears it (auth.plugin.ts).
  app.addHook('preHandler', async (request) => {
    if (currentCustomerId(request) !== null || noStorePath(request.url)) request.inertia.encryptHistory()
  })

  // --- Errors -------------------------------------------------------------------------
  const renderErrorPage = (request: FastifyRequest, reply: FastifyReply, status: number, message: string) => {
    if (status === 404) return reply.inertia.render('NotFound', {}, { status })
    return reply.inertia.render('Error', { status, message }, { status })
  }
  installErrorHandler(app, {
    isDev: config.isDev,
    renderErrorPage,
    onCsrfFailure: (request, reply) => {
      // Start the browser over with a fresh secret and token, so a refresh fixes it.
      delete request.cookies[XSRF_COOKIE]
      delete request.cookies.shop_csrf
      ensureXsrfCookie(request, reply, config.session.cookieSecure)
    },
  })
  app.setNotFoundHandler(async (request, reply) => {
    if (!wantsPage(request)) return reply.code(404).send({ message: MESSAGES.notFound })
    if (!request.site) return reply.inertia.render('SiteSetup', { host: request.hostname }, { status: 404 })
    return reply.inertia.render('NotFound', {}, { status: 404 })
  })

  // --- Routes -------------------------------------------------------------------------
  await app.register(healthRoutes, {
    database,
    redis,
    metrics: createMetrics(app, database),
    metricsToken: config.metricsToken,
  })
  await app.register(mediaRoutes)
  await app.register(cartRoutes)
  await app.register(signRoutes)
  await app.register(workwearRoutes)
  await app.register(orderPreviewRoutes)
  if (config.mail.outboxPage) await app.register(mailRoutes)
  await app.register(pageRoutes)
  await app.register(searchRoutes)
  await app.register(contentRoutes, {
    notifySiteContact: deps.notifySiteContact ?? ((m) => app.mailer.send(formSubmissionMail(m))),
  })
  await app.register(newsletterRoutes)
  await app.register(webhookRoutes, { secret: config.content.storyblok.webhookSecret })
  // One address changes a password: by a reset link (auth) or, logged in, in the account.
  await app.register(authRoutes, { accountPasswordUpdate })
  await app.register(customerRoutes)
  await app.register(accountRoutes)
  await app.register(checkoutRoutes)
  await app.register(checkoutPageRoutes)
  await app.register(paymentsPlugin, { createService: methodPayments })
  await app.register(ordersPaymentHooks)
  await app.register(paymentMethodsPlugin)
  // The back office's own operations the integration API serves too (ADR 0282).
  await app.register(adminRoutes, {
    prefix: ADMIN_PREFIX,
    secured: [apiCustomerStandingRoutes, apiAttentionRoutes],
  })
  // The staff back office under /admin: its own cookie, CSRF token and headers (ADR 0261).
  app.decorate('staffService', new StaffService(database.db, config.session.secret))
  await app.register(staffPlugin, {
    db: database.db,
    staff: app.staffService,
    secret: config.session.secret,
    cookieSecure: config.session.cookieSecure,
    isDev: config.isDev,
  })
  // The storefront catch-all (catalogue paths, then content pages) goes last so explicit routes win.
  await app.register(storefrontRoutes)

  await prepared
  return app
}
