/** Newsletter subscriptions: one row per site and address; signing up again refreshes it. */
import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { newsletterSubscribers } from './newsletter.tables.ts'

export interface Subscription {
  siteId: number
  email: string
  firstName: string
  consentText: string
  source: string
}

/** Adds the subscription, or updates the name, wording, source and consent time of an existing one. */
export async function upsertSubscription(db: Db, values: Subscription): Promise<void> {
  await db
    .insert(newsletterSubscribers)
    .values(values)
    .onConflictDoUpdate({
      target: [newsletterSubscribers.siteId, newsletterSubscribers.email],
      set: {
        firstName: values.firstName,
        consentText: values.consentText,
        source: values.source,
        consentAt: sql`now()`,
      },
    })
}
