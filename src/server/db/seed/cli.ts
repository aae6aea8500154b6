/**
 * `npm run db:seed`: migrate, then load the demo shop into the configured database.
 * `npm run db:seed -- --products 10000` also adds a generated benchmark catalogue of that many
 * product groups under '/bench' on the harbour site.
 */
import { loadConfig } from '../../config.ts'
import { migrate, openDatabase } from '../client.ts'
import { seedBenchCatalog } from './catalog/bench.ts'
import { seed } from './index.ts'

/** The value of `--products N` or `--products=N`; null when absent. Exits on a bad value. */
function productsArgument(argv: string[]): number | null {
  const at = argv.findIndex((a) => a === '--products' || a.startsWith('--products='))
  if (at === -1) return null
  const arg = argv[at] as string
  const raw = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[at + 1]
  const value = Number(raw)
  if (!raw || !Number.isInteger(value) || value < 0 || value > 1_000_000) {
    console.error(`--products needs a whole number from 0 to 1000000, got '${raw ?? ''}'`)
    process.exit(2)
  }
  return value
}

const products = productsArgument(process.argv.slice(2))
const config = loadConfig()
const database = await openDatabase(config.db)
try {
  await migrate(database)
  const started = performance.now()
  await seed(database.db, { log: (m) => console.log(m) })
  console.log(`demo seed took ${Math.round(performance.now() - started)} ms`)
  if (products !== null) await seedBenchCatalog(database.db, { products, log: (m) => console.log(m) })
} finally {
  await database.close()
}
