/**
 * `npm run admin -- <command>`: the back-office operations from a shell, on the configured database.
 *
 *   token create --site <host|code> --name <who>   prints a new token (shown once)
 *   token list                                      tokens with their site and state
 *   token revoke <id>
 *   import skus <file.json|file.csv> --site <host|code>
 *   search reindex --site <host|code>
 *   invoice create <orderNumber>                    invoices a placed order (once; prints its number)
 *
 * Changes are announced to the running instances (ADR 0081), which follow within seconds.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { eq, or } from 'drizzle-orm'
import { loadConfig } from '../../config.ts'
import { openDatabase } from '../../db/client.ts'
import { LocalChangeBus, PostgresChangeBus, type ChangeBus } from '../../ops/change-bus.ts'
import { CatalogService } from '../catalog/catalog.service.ts'
import { sites } from '../sites/sites.tables.ts'
import { ImportError, importSkus, skuRowsFromCsv } from './admin.catalog.ts'
import { AdminTokens } from './admin.tokens.ts'
import { createInvoiceFromOrder } from '../account/account.queries.ts'

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { site: { type: 'string' }, name: { type: 'string' } },
})

function usage(message: string): never {
  console.error(
    `${message}\nusage: npm run admin -- token create --site <host> --name <who> | token list | token revoke <id> | import skus <file> --site <host> | search reindex --site <host> | invoice create <orderNumber>`,
  )
  process.exit(2)
}

const config = loadConfig()
const database = await openDatabase(config.db)
let bus: ChangeBus = new LocalChangeBus()
if (database.connectionString) {
  const pgBus = new PostgresChangeBus({ connectionString: database.connectionString })
  await pgBus.start()
  bus = pgBus
}

async function siteId(): Promise<number> {
  if (!values.site) usage('--site is required')
  const [row] = await database.db
    .select({ id: sites.id })
    .from(sites)
    .where(or(eq(sites.host, values.site), eq(sites.code, values.site)))
  if (!row) usage(`no site with host or code '${values.site}'`)
  return row.id
}

try {
  const [area, command, arg] = positionals
  const tokens = new AdminTokens(database.db)
  if (area === 'token' && command === 'create') {
    if (!values.name) usage('--name is required')
    if (!values.site) usage('--site is required')
    const created = await tokens.create(values.site, values.name)
    console.log(`token ${created.id} for site ${values.site}:\n${created.token}\n(shown once; store it now)`)
  } else if (area === 'token' && command === 'list') {
    console.table(await tokens.list())
  } else if (area === 'token' && command === 'revoke') {
    const id = Number(arg)
    if (!Number.isInteger(id)) usage('token revoke needs a token id')
    console.log((await tokens.revoke(id)) ? `token ${id} revoked` : `no active token ${id}`)
  } else if (area === 'import' && command === 'skus') {
    if (!arg) usage('import skus needs a file')
    const text = readFileSync(arg, 'utf8')
    const { rows, errors } = arg.endsWith('.csv')
      ? skuRowsFromCsv(text)
      : {
          rows: (JSON.parse(text) as { items?: unknown[] }).items ?? (JSON.parse(text) as unknown[]),
          errors: [],
        }
    const catalog = new CatalogService(database.db)
    catalog.onChange((change) => bus.publish('catalog', { ...change }))
    try {
      const result = await importSkus(database.db, catalog, await siteId(), rows, errors)
      console.log(`${result.created} created, ${result.updated} updated`)
    } catch (err) {
      if (!(err instanceof ImportError)) throw err
      for (const e of err.errors) console.error(`row ${e.row}: ${e.field}: ${e.message}`)
      console.error(err.message)
      process.exitCode = 1
    }
  } else if (area === 'search' && command === 'reindex') {
    bus.publish('catalog', { siteId: await siteId() })
    console.log('every instance re-indexes the site now')
  } else if (area === 'invoice' && command === 'create') {
    const orderNumber = Number(arg)
    if (!Number.isInteger(orderNumber) || orderNumber <= 0) usage('invoice create needs an order number')
    try {
      const result = await createInvoiceFromOrder(database.db, orderNumber)
      console.log(
        result.created
          ? `invoice ${result.invoiceNumber} created for order ${orderNumber}`
          : `order ${orderNumber} already has invoice ${result.invoiceNumber}`,
      )
    } catch (err) {
      console.error(err instanceof Error ? err.message : String(err))
      process.exitCode = 1
    }
  } else {
    usage(`unknown command '${positionals.join(' ')}'`)
  }
} finally {
  await bus.close()
  await database.close()
}
