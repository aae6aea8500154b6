/** `npm run db:migrate`: apply the SQL migrations in drizzle/ to the configured database. */
import { loadConfig } from '../config.ts'
import { migrate, openDatabase } from './client.ts'

const config = loadConfig()
const database = await openDatabase(config.db)
try {
  await migrate(database)
  console.log(`migrations applied (${database.driver})`)
} finally {
  await database.close()
}
