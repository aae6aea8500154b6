/** The server process: read config, build the app, listen, and close cleanly on SIGTERM/SIGINT. */
import type { AddressInfo } from 'node:net'
import { ConfigError, loadConfig, type Config } from './config.ts'
import { startEmbeddedDatabase } from './db/embedded.ts'
import { siteAddress } from './site-address.ts'

let config: Config
try {
  config = loadConfig()
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message)
    process.exit(1)
  }
  throw err
}

// The embedded database starts first (ADR 0114): its files are read and its WebAssembly compiled
// while the app's modules load.
const embedded = config.db.driver === 'pglite' ? startEmbeddedDatabase(config.db.dataDir) : undefined
embedded?.catch(() => {}) // awaited by openDatabase, which reports a failure
const { openDatabase } = await import('./db/client.ts')
const database = openDatabase(config.db, embedded)
database.catch(() => {}) // awaited by buildApp; a failure is reported there
const { buildApp } = await import('./app.ts')
const app = await buildApp(config, { database, ownsDatabase: true })

let closing = false
async function shutdown(signal: string) {
  if (closing) return
  closing = true
  app.log.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down')
  const force = setTimeout(() => {
    app.log.error('shutdown timed out; exiting')
    process.exit(1)
  }, config.shutdownDrainMs + 10_000)
  force.unref()
  try {
    // /readyz answers 503 while requests are still served, so the proxy stops sending here; then
    // the server stops accepting, answers what is in flight, and closes.
    app.markDraining()
    await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs))
    await app.close()
    process.exit(0)
  } catch (err) {
    app.log.error({ err }, 'error while shutting down')
    process.exit(1)
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))

try {
  await app.listen({ host: config.host, port: config.port })
} catch (err) {
  app.log.error({ err }, 'could not start the server')
  process.exit(1)
}

// Each brand is picked by host name: print the address of every site, not only the listen address.
// Only when these lines are printed (LOG_LEVEL info or lower): otherwise the query would reach the
// database just as the first requests arrive, for nothing.
if (['info', 'debug', 'trace'].includes(app.log.level)) {
  try {
    const port = (app.server.address() as AddressInfo | null)?.port ?? config.port
    const { sites } = await import('./db/schema.ts')
    const rows = await app.db.select({ host: sites.host, name: sites.name }).from(sites).orderBy(sites.id)
    for (const site of rows) app.log.info(`${site.name}: ${siteAddress(site.host, port)}`)
    if (config.mail.outboxPage)
      app.log.info(`E-mails the shop sends: ${siteAddress('localhost', port)}/dev/mail`)
  } catch (err) {
    app.log.warn({ err }, 'could not list the sites')
  }
}
