/**
 * Process entry. Node's on-disk compile cache is turned on before the app's modules load: a start
 * compiles about a thousand modules, and the cached code of the last start spares most of that
 * (ADR 0108). Where the cache directory cannot be written, Node goes on without it.
 */
import { enableCompileCache } from 'node:module'

enableCompileCache()
await import('./serve.ts')
