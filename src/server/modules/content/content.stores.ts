import { eq } from 'drizzle-orm'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/client.ts'
import { sites } from '../sites/sites.tables.ts'
import { LocalContentStore, type ContentStore } from './content.store.ts'
import { StoryblokContentStore } from './storyblok.store.ts'

/** The configured content store: the embedded one unless CONTENT_PROVIDER=storyblok (ADR 0040). */
export function createContentStore(config: Config, db: Db): ContentStore {
  if (config.content.provider !== 'storyblok') return new LocalContentStore(db)
  const { tokens, version, endpoint } = config.content.storyblok
  const codes = new Map<number, string | null>()
  return new StoryblokContentStore({
    version,
    endpoint,
    tokenFor: async (siteId) => {
      if (!codes.has(siteId)) {
        const [row] = await db.select({ code: sites.code }).from(sites).where(eq(sites.id, siteId))
        codes.set(siteId, row?.code ?? null)
      }
      const code = codes.get(siteId)
      return (code ? tokens[code] : undefined) ?? tokens['*'] ?? null
    },
  })
}
