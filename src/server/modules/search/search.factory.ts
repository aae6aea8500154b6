import type { Config } from '../../config.ts'
import { EmbeddedSearchEngine, type SearchEngine } from './search.engine.ts'

/**
 * The engine the configuration asks for (SEARCH_ENGINE; Algolia needs its app id and key). The
 * Algolia client is imported only when it is used: the embedded engine starts without it.
 */
export async function createSearchEngine(config: Config): Promise<SearchEngine> {
  if (config.search.engine === 'algolia' && config.search.algolia) {
    const { AlgoliaSearchEngine } = await import('./algolia.engine.ts')
    return new AlgoliaSearchEngine(config.search.algolia)
  }
  return new EmbeddedSearchEngine()
}
