/** `npm run content:import`: load the JSON stories under content/ into the configured database. */
import { loadConfig } from '../../config.ts'
import { migrate, openDatabase } from '../../db/client.ts'
import { importContent } from './content.import.ts'

const config = loadConfig()
const database = await openDatabase(config.db)
try {
  await migrate(database)
  const results = await importContent(database.db)
  if (results.length === 0)
    console.log('No sites in the database, nothing imported: run npm run db:seed first.')
  for (const r of results) {
    console.log(`${r.site}: ${r.stories} stories imported, ${r.removed} removed, cache version ${r.cv}`)
  }
} catch (err) {
  console.error((err as Error).message)
  process.exitCode = 1
} finally {
  await database.close()
}
