import type { Config } from '../../config.ts'
import type { Db } from '../../db/client.ts'
import { LocalContentStore, type ContentStore } from './content.store.ts'

/** The configured content store: the embedded one unless Storyblok is configured (ADR 0040). */
export function createContentStore(_config: Config, db: Db): ContentStore {
  return new LocalContentStore(db)
}
