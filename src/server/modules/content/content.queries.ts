import { and, eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { contentPages } from './content.tables.ts'

export async function findContentPage(db: Db, siteId: number, slug: string) {
  const [row] = await db
    .select()
    .from(contentPages)
    .where(and(eq(contentPages.siteId, siteId), eq(contentPages.slug, slug)))
    .limit(1)
  return row ?? null
}
