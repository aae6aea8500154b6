/** Every table the app owns, in one import for Drizzle and drizzle-kit. */
export * from '../modules/sites/sites.tables.ts'
export * from '../modules/content/content.tables.ts'
export * from '../plugins/session.tables.ts'
export * from '../modules/catalog/catalog.tables.ts'
export * from '../modules/auth/auth.tables.ts'
