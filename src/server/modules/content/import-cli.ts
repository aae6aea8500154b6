/** `npm run content:import`: load the JSON stories under content/ into the configured database. */
import { loadConfig } from '../../config.ts'
import { migrate, openDatabase } from '../../db/client.ts'
import { importContent } from './content.import.ts'

const config = loadConfig()
const database = await openDatabase(config.db)
try {
  await migrate(database)
  for (const r of await importContent(database.db)) {
    console.log(`${r.site}: ${r.stories} stories imported, ${r.removed} removed, cache version ${r.cv}`)
  }
} catch (err) {
  console.error((err as Error).message)
  process.exitCode = 1
} finally {
  await database.close()
}
