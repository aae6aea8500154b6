/**
 * The back office under /admin (ADRs 0260, 0261), registered by app.ts as one encapsulated
 * plugin: its hooks (session, CSRF, headers, the declared access of every route) apply to its
 * routes only, never to the shop's.
 */
import type { FastifyInstance } from 'fastify'
import type { Db } from '../../db/client.ts'
import { staffAttentionRoutes } from './staff.attention.routes.ts'
import { staffAuthRoutes } from './staff.auth.routes.ts'
import { staffCatalogueRoutes } from './staff.catalogue.routes.ts'
import { staffDeliveryRoutes } from './staff.delivery.routes.ts'
import { staffCustomerRoutes } from './staff.customers.routes.ts'
import { AdminHttp, registerAdminHooks } from './staff.http.ts'
import { staffPageRoutes } from './staff.pages.routes.ts'
import { staffOrderRoutes } from './staff.orders.routes.ts'
import { staffIntegrationRoutes } from './staff.integrations.routes.ts'
import { staffSettingsRoutes } from './staff.settings.routes.ts'
import { staffPromotionRoutes } from './staff.promotions.routes.ts'
import type { StaffService } from './staff.service.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Staff accounts, sessions and the audit log of the back office. */
    staffService: StaffService
  }
}

export interface StaffPluginOptions {
  db: Db
  staff: StaffService
  secret: string
  cookieSecure: boolean | 'auto'
  isDev: boolean
}

export async function staffPlugin(app: FastifyInstance, opts: StaffPluginOptions) {
  const http = new AdminHttp({ secret: opts.secret, cookieSecure: opts.cookieSecure, isDev: opts.isDev })
  registerAdminHooks(app, http, (token) => opts.staff.sessions.read(token))
  await app.register(staffAuthRoutes, { staff: opts.staff, http })
  await app.register(staffPageRoutes, { db: opts.db, staff: opts.staff })
  await app.register(staffOrderRoutes, { db: opts.db, lifecycle: () => app.orderLifecycle })
  await app.register(staffSettingsRoutes, { db: opts.db }) // content, search
  await app.register(staffIntegrationRoutes, { db: opts.db }) // API tokens, webhook endpoints
  await app.register(staffCatalogueRoutes, { db: opts.db }) // catalogue, promotions, delivery rates
  await app.register(staffPromotionRoutes, { db: opts.db })
  await app.register(staffDeliveryRoutes, { db: opts.db })
  await app.register(staffCustomerRoutes, { db: opts.db })
  await app.register(staffAttentionRoutes, { db: opts.db })
}
