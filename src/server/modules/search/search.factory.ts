import type { Config } from '../../config.ts'
import { EmbeddedSearchEngine, type SearchEngine } from './search.engine.ts'

/** The engine the configuration asks for (SEARCH_ENGINE). */
export function createSearchEngine(config: Config): SearchEngine {
  return new EmbeddedSearchEngine()
}
