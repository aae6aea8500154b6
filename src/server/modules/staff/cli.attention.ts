/**
 * `npm run admin -- customers …` and `npm run admin -- payments …`: a customer's sign-in and the
 * payments that need a person, from a shell (issue 34: the back office does nothing the API and
 * the CLI cannot). Each action goes through the back office's own service and audit row
 * (auth/account-standing.ts, staff/attention.ts), as the actor `cli:<OS user>`.
 *
 *   customers disable|enable|reset-two-factor <email|id> [--site <host|code>]
 *   payments list [--list paid|unknown|refunds|orders] [--after <cursor>] [--site <host|code>]   newest first
 *   payments reconcile <payment or refund reference>      ask the provider now
 *   payments resolve <reference>                          place the order from the kept form, else give the money back
 *   payments give-back <reference>                        give the money back without trying the order
 *   payments place <reference>                            place the order of a payment held for a person
 */
import { userInfo } from 'node:os'
import { parseArgs } from 'node:util'
import { and, eq, or, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../app.ts'
import { loadConfig } from '../../config.ts'
import { DomainError } from '../../lib/domain-error.ts'
import { AccountStanding, STANDING_DONE, standingOf, type StandingChange } from './account-standing.ts'
import { customers } from '../auth/auth.tables.ts'
import { sites } from '../sites/sites.tables.ts'
import { attentionServiceOf, parseAttentionCursor, type AttentionIntent } from './attention.ts'
import { listOrders } from './order-search.ts'
import type { Actor } from './staff.audit.ts'
import { UsageError } from '../admin/cli.orders.ts'

export type AttentionCommand =
  | { kind: 'standing'; change: StandingChange; customer: { id: number } | { email: string }; site?: string }
  | { kind: 'list'; list: 'paid' | 'unknown' | 'refunds' | 'orders'; after?: string; site?: string }
  | { kind: 'act'; intent: Exclude<AttentionIntent, 'refund_status'>; id: string }

export const ATTENTION_USAGE =
  'usage: npm run admin -- customers disable|enable|reset-two-factor <email|id> [--site host] | payments list [--list paid|unknown|refunds|orders] [--after cursor] [--site host] | payments reconcile|resolve|give-back|place <reference>'

const CHANGES: Record<string, StandingChange> = {
  disable: 'disable',
  enable: 'enable',
  'reset-two-factor': 'reset_two_factor',
}
const ACTIONS: Record<string, Exclude<AttentionIntent, 'refund_status'>> = {
  reconcile: 'reconcile',
  resolve: 'resolve',
  'give-back': 'give_back',
  place: 'place',
}
const REFERENCE = /^[0-9a-f-]{36}$/i

/** The command the arguments (after `customers` or `payments`) ask for; a UsageError says what is wrong. */
export function parseAttentionArgs(area: 'customers' | 'payments', argv: string[]): AttentionCommand {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { site: { type: 'string' }, list: { type: 'string' }, after: { type: 'string' } },
    })
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err))
  }
  const { positionals, values: v } = parsed
  const [command, target, ...extra] = positionals
  if (!command) throw new UsageError('a command is required')
  if (extra.length) throw new UsageError(`one ${area === 'customers' ? 'customer' : 'reference'} at a time`)
  const site = v.site?.trim() ? { site: v.site.trim() } : {}
  if (area === 'customers') {
    const change = CHANGES[command]
    if (!change) throw new UsageError(`unknown customers command '${command}'`)
    if (v.list !== undefined || v.after !== undefined)
      throw new UsageError('--list and --after are for payments list')
    if (!target?.trim()) throw new UsageError(`customers ${command} needs the customer's e-mail or id`)
    if (/^\d+$/.test(target)) {
      const id = Number(target)
      if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647)
        throw new UsageError('a customer id must be a positive whole number')
      return { kind: 'standing', change, customer: { id }, ...site }
    }
    if (!/^[^\s@]+@[^\s@]+$/.test(target))
      throw new UsageError(`'${target}' is neither an e-mail nor a customer id`)
    return { kind: 'standing', change, customer: { email: target.trim().toLowerCase() }, ...site }
  }
  if (command === 'list') {
    if (target !== undefined) throw new UsageError('payments list takes no reference')
    const list = v.list ?? 'paid'
    if (list !== 'paid' && list !== 'unknown' && list !== 'refunds' && list !== 'orders')
      throw new UsageError('--list must be paid, unknown, refunds or orders')
    const cursorOk = list === 'orders' ? /^\d{1,15}\.\d{1,10}$/ : /^\d{1,15}\.[0-9a-f-]{36}$/
    if (v.after !== undefined && !cursorOk.test(v.after))
      throw new UsageError('--after must be the cursor a list printed (next: …)')
    return { kind: 'list', list, ...(v.after !== undefined ? { after: v.after } : {}), ...site }
  }
  const intent = ACTIONS[command]
  if (!intent) throw new UsageError(`unknown payments command '${command}'`)
  if (v.site !== undefined || v.list !== undefined || v.after !== undefined)
    throw new UsageError(`payments ${command} takes only a reference`)
  if (!target || !REFERENCE.test(target))
    throw new UsageError(`payments ${command} needs a payment or refund reference`)
  return { kind: 'act', intent, id: target.toLowerCase() }
}

export interface AttentionCliDeps {
  app: FastifyInstance
  actor: Actor
  out: (line: string) => void
}

async function siteIdOf(app: FastifyInstance, site: string | undefined): Promise<number | undefined> {
  if (site === undefined) return undefined
  const [row] = await app.db
    .select({ id: sites.id })
    .from(sites)
    .where(or(eq(sites.host, site), eq(sites.code, site)))
  if (!row) throw new UsageError(`no site with host or code '${site}'`)
  return row.id
}

/** The customer a command names: by id, or by e-mail (on one site, or on --site). */
async function customerIdOf(
  app: FastifyInstance,
  customer: { id: number } | { email: string },
  siteId: number | undefined,
): Promise<number> {
  if ('id' in customer) return customer.id
  const rows = await app.db
    .select({ id: customers.id })
    .from(customers)
    .where(
      and(
        eq(sql`lower(${customers.email})`, customer.email),
        siteId === undefined ? undefined : eq(customers.siteId, siteId),
      ),
    )
    .limit(2)
  if (rows.length === 0)
    throw new DomainError('not_found', `There is no customer with the e-mail ${customer.email}.`)
  if (rows.length > 1)
    throw new UsageError(`${customer.email} is a customer on more than one site: give --site`)
  return rows[0]!.id
}

/** Runs one command, writing what happened as lines; false when it was refused (nothing changed). */
export async function executeAttentionCommand(
  deps: AttentionCliDeps,
  cmd: AttentionCommand,
): Promise<boolean> {
  const { app, actor, out } = deps
  if (cmd.kind === 'standing') {
    const siteId = await siteIdOf(app, cmd.site)
    const id = await customerIdOf(app, cmd.customer, siteId)
    const row = await new AccountStanding(app.db, app.auth.service).changeAudited(actor, id, cmd.change, {
      siteId,
    })
    const s = standingOf(row)
    out(STANDING_DONE[cmd.change])
    out(
      `customer ${row.id} (${row.email}): ${s.disabled ? 'disabled' : 'enabled'}, two-factor ${s.twoFactor ? 'on' : 'off'}${s.twoFactorResetPending ? ' (to set up again at the next sign-in)' : ''}`,
    )
    return true
  }
  const attention = attentionServiceOf(app)
  if (cmd.kind === 'list') {
    const scope = { siteId: await siteIdOf(app, cmd.site) }
    if (cmd.list === 'orders') {
      // The order list's 'needs attention' filter, as the back office's page shows it.
      const page = await listOrders(app.db, {
        attention: true,
        site: scope.siteId,
        after: cmd.after,
        kind: 'auto',
        method: undefined,
        q: undefined,
      })
      for (const o of page.rows)
        out(
          `${o.number}\t${o.date.slice(0, 16)}\t${o.site}\t${o.status}\t${o.total} ${o.currency}\t${o.email}`,
        )
      if (page.rows.length === 0) out('no orders need a person')
      if (page.next) out(`next: ${page.next}`)
      return true
    }
    const after = parseAttentionCursor(cmd.after)
    if (cmd.list === 'refunds') {
      const page = await attention.refunds(after, scope)
      for (const r of page.rows)
        out(
          `${r.id}\t${r.createdAt.slice(0, 16)}\torder ${r.orderNumber ?? '-'}\t${r.method}/${r.how}\t${r.status}\t${r.amount} ${r.currency}\t${r.actions.join(',') || '-'}`,
        )
      if (page.rows.length === 0) out('no refunds need a person')
      if (page.next) out(`next: ${page.next}`)
      return true
    }
    const page = await attention.attempts(cmd.list, after, scope)
    for (const a of page.rows)
      out(
        `${a.id}\t${a.createdAt.slice(0, 16)}\t${a.site}\t${a.method}\t${a.state}${a.resolution ? `/${a.resolution}` : ''}\t${a.amount} ${a.currency}\t${a.email ?? '-'}\t${a.actions.map((x) => x.replace('_', '-')).join(',') || '-'}`,
      )
    if (page.rows.length === 0)
      out(
        `no ${cmd.list === 'paid' ? 'taken payments without an order' : 'payments in an unknown state'} need a person`,
      )
    if (page.next) out(`next: ${page.next}`)
    return true
  }
  // `reconcile` of a refund's reference asks about the refund.
  const intent: AttentionIntent =
    cmd.intent === 'reconcile' && !(await app.payments.get(cmd.id)) && (await app.refunds.get(cmd.id))
      ? 'refund_status'
      : cmd.intent
  const result = await attention.act(actor, intent, cmd.id)
  out(result.message)
  return result.ok
}

/** `npm run admin -- customers|payments …`: the exit code (0 done, 1 refused, 2 usage). */
export async function runAttentionCli(area: 'customers' | 'payments', argv: string[]): Promise<number> {
  let cmd: AttentionCommand
  try {
    cmd = parseAttentionArgs(area, argv)
  } catch (err) {
    if (!(err instanceof UsageError)) throw err
    console.error(`${err.message}\n${ATTENTION_USAGE}`)
    return 2
  }
  // The shop itself, without its background work: the same payments, refund ledger and order
  // placement as the back office (a placed order's e-mails and webhooks are queued; the running
  // instances send them).
  const app = await buildApp(loadConfig(), { startJobs: false })
  try {
    await app.ready()
    const actor: Actor = { id: null, email: `cli:${userInfo().username}`, ip: '' }
    const ok = await executeAttentionCommand({ app, actor, out: (l) => console.log(l) }, cmd)
    return ok ? 0 : 1
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n${ATTENTION_USAGE}`)
      return 2
    }
    if (!(err instanceof DomainError)) throw err
    console.error(err.message)
    return 1
  } finally {
    await app.close()
  }
}
