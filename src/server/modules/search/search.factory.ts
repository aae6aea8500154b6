import type { Config } from '../../config.ts'
import { AlgoliaSearchEngine } from './algolia.engine.ts'
import { EmbeddedSearchEngine, type SearchEngine } from './search.engine.ts'

/** The engine the configuration asks for (SEARCH_ENGINE; Algolia needs its app id and key). */
export function createSearchEngine(config: Config): SearchEngine {
  if (config.search.engine === 'algolia' && config.search.algolia) {
    return new AlgoliaSearchEngine(config.search.algolia)
  }
  return new EmbeddedSearchEngine()
}
