/**
 * What the composition root (app.ts) decorates the Fastify instance and request with, declared
 * once here so modules can use `app.catalog`, `request.site`… without importing app.ts.
 * Plugins that own a decorator (auth, payments, admin, health, csrf, inertia) declare theirs
 * beside the plugin.
 */
import type { Config } from './config.ts'
import type { Db } from './db/client.ts'
import type { QueryTally } from './db/query-count.ts'
import type { JobQueue } from './jobs/queue.ts'
import type { AddressLookup } from './modules/checkout/address-lookup.ts'
import type { CheckoutService } from './modules/checkout/checkout.service.ts'
import type { PaymentMethodRegistry } from './modules/payments/payment-methods.ts'
import type { CartService } from './modules/cart/cart.service.ts'
import type { CatalogService } from './modules/catalog/catalog.service.ts'
import type { ContentService } from './modules/content/content.service.ts'
import type { CustomerService } from './modules/customers/customers.service.ts'
import type { MailQueueWorker } from './modules/mail/mail.queue.ts'
import type { Mailer } from './modules/mail/mail.service.ts'
import type { SearchService } from './modules/search/search.service.ts'
import type { Site, SiteRegistry } from './modules/sites/sites.service.ts'
import type { ChangeBus } from './ops/change-bus.ts'
import type { UploadStore } from './lib/upload-store.ts'

declare module 'fastify' {
  interface FastifyInstance {
    config: Config
    db: Db
    sites: SiteRegistry
    content: ContentService
    catalog: CatalogService
    searchService: SearchService
    carts: CartService
    customers: CustomerService
    paymentMethods: PaymentMethodRegistry
    checkout: CheckoutService
    addressLookup: AddressLookup
    mailer: Mailer
    /** Sends queued e-mails (order acknowledgements and notifications) */
    mailQueue: MailQueueWorker
    /** Tells other instances what this one changed, so their caches follow (ADR 0081). */
    changes: ChangeBus
    /** Background work of this instance (started when the app is ready). */
    jobs: JobQueue
    /** Uploaded and generated files (logos, sign proofs), shared by every instance (ADR 0083). */
    uploads: UploadStore
    /** The Inertia asset version the browser must send back. */
    assetVersion: string
  }
  interface FastifyRequest {
    /** The site picked by the Host header; null for an unknown host. */
    site: Site | null
    /** With SERVER_TIMING: the SQL statements this request has sent so far (x-db-queries). */
    queryTally: QueryTally | null
  }
}
