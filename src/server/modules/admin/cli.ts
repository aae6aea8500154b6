/**
 * `npm run admin -- <command>`: the back-office operations from a shell, on the configured database.
 *
 *   token create --site <host|code> --name <who>   prints a new token (shown once)
 *   token list                                      tokens with their site and state
 *   token revoke <id>
 *   import skus <file.json|file.csv> --site <host|code>
 *   import categories|groups|promotions|delivery-rates|stories <file.json> --site <host|code>
 *   content publish <full slug>... --site <host|code>
 *   search reindex --site <host|code>
 *   invoice create <orderNumber>                    invoices a placed order (once; prints its number)
 *   webhooks list|add|remove|enable|disable|deliveries …   webhook endpoints (cli.webhooks.ts)
 *   orders list|show|ack|hold|release|ship|cancel|refund …   the order lifecycle (cli.orders.ts)
 *   customers disable|enable|reset-two-factor <email|id>    a customer's sign-in (staff/cli.attention.ts)
 *   payments list|reconcile|resolve|give-back|place …       payments that need a person (staff/cli.attention.ts)
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
import {
  importStories,
  publishStories,
  upsertCategories,
  upsertDeliveryRates,
  upsertGroups,
  upsertPromotions,
} from './admin.operations.ts'

/** JSON batches by name: the same work as the API's PUT routes, and the signal to send after it. */
const BATCHES: Record<
  string,
  {
    run: (db: typeof database.db, siteId: number, items: unknown[]) => Promise<object>
    /** The change-bus topic other instances follow (none: promotions are read per basket change) */
    signal?: (siteId: number, result: object) => [string, Record<string, unknown>?]
  }
> = {
  categories: {
    run: upsertCategories,
    signal: (siteId, r) => ['catalog', { siteId, categoryIds: (r as { categoryIds: number[] }).categoryIds }],
  },
  groups: {
    run: upsertGroups,
    signal: (siteId, r) => ['catalog', { siteId, groupIds: (r as { groupIds: number[] }).groupIds }],
  },
  promotions: { run: upsertPromotions },
  'delivery-rates': { run: upsertDeliveryRates, signal: () => ['delivery-rates'] },
  stories: { run: (db, siteId, items) => importStories(db, siteId, items), signal: () => ['content'] },
}
import { createInvoiceFromOrder } from '../orders/orders.queries.ts'
import { WEBHOOK_CLI_OPTIONS, WEBHOOK_CLI_USAGE, webhooksCommand } from './cli.webhooks.ts'

// The order lifecycle's commands have options of their own (cli.orders.ts).
if (process.argv[2] === 'orders') {
  const { runOrdersCli } = await import('./cli.orders.ts')
  process.exit(await runOrdersCli(process.argv.slice(3)))
}
// A customer's sign-in and the payments that need a person, as the back office (staff/cli.attention.ts).
if (process.argv[2] === 'customers' || process.argv[2] === 'payments') {
  const { runAttentionCli } = await import('../staff/cli.attention.ts')
  process.exit(await runAttentionCli(process.argv[2], process.argv.slice(3)))
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { site: { type: 'string' }, name: { type: 'string' }, ...WEBHOOK_CLI_OPTIONS },
})

function usage(message: string): never {
  console.error(
    `${message}\nusage: npm run admin -- token create --site <host> --name <who> | token list | token revoke <id> | import skus|categories|groups|promotions|delivery-rates|stories <file> --site <host> | content publish <slug>... --site <host> | search reindex --site <host> | invoice create <orderNumber> | ${WEBHOOK_CLI_USAGE} | orders … (npm run admin -- orders for its usage) | customers disable|enable|reset-two-factor <email|id> | payments list|reconcile|resolve|give-back|place …`,
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
  } else if (area === 'import' && command && BATCHES[command]) {
    if (!arg) usage(`import ${command} needs a file`)
    const parsed = JSON.parse(readFileSync(arg, 'utf8')) as { items?: unknown[] } | unknown[]
    const items = Array.isArray(parsed) ? parsed : (parsed.items ?? [])
    const site = await siteId()
    try {
      const result = await BATCHES[command].run(database.db, site, items)
      const signal = BATCHES[command].signal?.(site, result)
      if (signal) bus.publish(...signal)
      console.log(JSON.stringify(result))
    } catch (err) {
      if (!(err instanceof ImportError)) throw err
      for (const e of err.errors) console.error(`row ${e.row}: ${e.field}: ${e.message}`)
      console.error(err.message)
      process.exitCode = 1
    }
  } else if (area === 'content' && command === 'publish') {
    const slugs = positionals.slice(2)
    if (slugs.length === 0) usage('content publish needs one or more full slugs')
    try {
      console.log(JSON.stringify(await publishStories(database.db, await siteId(), slugs)))
      bus.publish('content')
    } catch (err) {
      if (!(err instanceof ImportError)) throw err
      for (const e of err.errors) console.error(`${slugs[e.row]}: ${e.message}`)
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
  } else if (area === 'webhooks') {
    process.exitCode = await webhooksCommand(
      database.db,
      config.webhooks,
      positionals.slice(1),
      values,
      siteId,
    )
  } else {
    usage(`unknown command '${positionals.join(' ')}'`)
  }
} finally {
  await bus.close()
  await database.close()
}
