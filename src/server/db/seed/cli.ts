/** `npm run db:seed`: migrate, then load the demo shop into the configured database. */
import { loadConfig } from '../../config.ts'
import { migrate, openDatabase } from '../client.ts'
import { seed } from './index.ts'

const config = loadConfig()
const database = await openDatabase(config.db)
try {
  await migrate(database)
  await seed(database.db, { log: (m) => console.log(m) })
} finally {
  await database.close()
}
