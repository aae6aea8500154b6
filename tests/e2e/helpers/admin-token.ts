/**
 * Run by the browser tests' web server command before the server starts (playwright.config.ts):
 * prepares the fresh embedded database as the server would (migrations, demo seed), then makes a
 * back-office API token for the GBP site with the shop's own token code, and writes it where the
 * specs read it (`ADMIN_TOKEN_FILE`, in the server's own folder: helpers/paths.ts). The embedded database admits one process at a time, so
 * the token cannot be made once the server holds it.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { loadConfig } from '../../../src/server/config.ts'
import { openDatabase } from '../../../src/server/db/client.ts'
import { AdminTokens } from '../../../src/server/modules/admin/admin.tokens.ts'
import { prepareDatabase } from '../../../src/server/ops/startup.ts'
import { ADMIN_TOKEN_FILE } from './paths.ts'

const config = loadConfig()
if (config.db.driver !== 'pglite') throw new Error('the browser tests run on the embedded database')
const database = await openDatabase(config.db)
try {
  await prepareDatabase(database, { seed: config.seedOnStart, log: () => {} })
  const { token } = await new AdminTokens(database.db).create('localhost', 'E2E ERP')
  const file = resolve(config.paths.root, ADMIN_TOKEN_FILE)
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, token)
} finally {
  await database.close()
}
