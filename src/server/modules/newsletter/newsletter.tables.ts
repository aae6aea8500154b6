import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { sites } from '../sites/sites.tables.ts'

/** Newsletter subscribers: one row per site and e-mail address, with the consent given. */
export const newsletterSubscribers = pgTable(
  'newsletter_subscribers',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    /** Lower-cased */
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    /** When the visitor signed up (updated when they sign up again) */
    consentAt: timestamp('consent_at', { withTimezone: true }).notNull().defaultNow(),
    /** The wording the visitor agreed to */
    consentText: text('consent_text').notNull(),
    /** Where the form was: the page path */
    source: text('source').notNull().default(''),
  },
  (t) => [
    uniqueIndex('newsletter_subscribers_site_email').on(t.siteId, t.email),
    index('newsletter_subscribers_consent').on(t.siteId, t.consentAt),
  ],
)
