/**
 * Paya Connect simulator: /paya/v2 with the developer-id / user-id / user-api-key headers, the
 * hosted PayForm (HMAC-checked URL, card form, postMessage to the parent), transactions by id and
 * by transaction_api_id, void, and postbacks with Basic credentials (payments.md §2, §7.3).
 *
 * Outcomes follow Paya's test data: $5.00 DENY (1500), $6.01–$6.31 declines 1601–1631,
 * CVV 123 no-match; every other amount with a valid card approves (101/1000).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { SIMULATOR_CREDENTIALS } from '../server/config/payments.ts'
import { escapeHtml, luhn, page, underFaults, type Faults } from './faults.ts'

const PREFIX = '/paya'

interface Tx {
  id: string
  transaction_api_id: string | null
  status_id: number
  reason_code_id: number
  verbiage: string
  transaction_amount: string
  auth_amount: string
  last_four: string
  first_six: string
  account_type: string
  order_num: string | null
  action: string
  modified_ts: number
  created_ts: number
  /** yyyy-mm-dd once its batch settled: void refused from then on, refund allowed. */
  settle_date: string | null
  previous_transaction_id: string | null
}

export interface PayaSimControl {
  setPostback(config: { url: string; user: string; password: string } | null): void
  /** Sends the last postback for a transaction again (a replay). */
  redeliver(transactionId: string): Promise<number>
  /** The day's batch settles: every approved sale so far gets a settle_date (void refused, refund allowed). */
  settleBatch(): void
  /**
   * The next sale or authonly records (and reports as transaction_amount) this amount in dollars
   * ("0.01") instead of the one the form asked: a provider-side change the shop must notice.
   */
  recordNextAmount(amount: string): void
  /** What Paya holds for a transaction: its status, and the refunds made against it. */
  ledger(transactionId: string): {
    status_id: number
    transaction_amount: string
    settled: boolean
    refunds: { id: string; transaction_amount: string }[]
  } | null
}

export function payaSimulator(app: FastifyInstance, faults: Faults): PayaSimControl {
  const creds = SIMULATOR_CREDENTIALS.paya
  const txs = new Map<string, Tx>()
  const usedHashes = new Set<string>()
  /** The data each signed form was issued with (by its hash-key): a form's data cannot change after. */
  const issued = new Map<string, string>()
  let nextAmount: string | null = null
  let postback: { url: string; user: string; password: string } | null = null
  const lastPostback = new Map<string, string>()

  const authed = (req: FastifyRequest) =>
    req.headers['developer-id'] === creds.developerId &&
    req.headers['user-id'] === creds.userId &&
    req.headers['user-api-key'] === creds.userApiKey
  const denied = (reply: FastifyReply) =>
    reply.code(401).send({
      name: 'Unauthorized',
      message: 'Your request was made with invalid credentials.',
      code: 0,
      status: 401,
    })
  const run = (req: FastifyRequest, reply: FastifyReply, fn: () => unknown) =>
    underFaults(faults, 'paya', PREFIX, req, reply, fn)

  async function deliver(tx: Tx, type: 'CREATE' | 'UPDATE'): Promise<void> {
    const body = JSON.stringify({
      type,
      resource: 'transaction',
      number_of_attempts: 1,
      data: JSON.stringify(tx),
    })
    lastPostback.set(tx.id, body)
    if (!postback) return
    await fetch(postback.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${postback.user}:${postback.password}`).toString('base64')}`,
      },
      body,
    }).catch(() => undefined)
  }

  /** Creates a transaction from validated input, applying the test-data outcomes. */
  function create(t: Record<string, unknown>): { status: number; body: unknown } {
    if (t.action === 'refund') return refund(t)
    const errors: Record<string, string[]> = {}
    const amount = String(t.transaction_amount ?? '')
    if (!/^\d+(\.\d{1,2})?$/.test(amount) || Number(amount) <= 0)
      errors.transaction_amount = ['Transaction Amount must be a number greater than 0.']
    if (t.product_transaction_id !== creds.productTransactionId)
      errors.product_transaction_id = ['Product Transaction Id is invalid.']
    const number = String(t.account_number ?? '').replace(/\s+/g, '')
    if (!luhn(number)) errors.account_number = ['Account Number is invalid.']
    if (!/^(0[1-9]|1[0-2])\d{2}$/.test(String(t.exp_date ?? ''))) errors.exp_date = ['Exp Date is invalid.']
    const apiId = typeof t.transaction_api_id === 'string' ? t.transaction_api_id : null
    if (apiId && [...txs.values()].some((x) => x.transaction_api_id === apiId))
      errors.transaction_api_id = ['Transaction Api Id has already been taken.']
    if (Object.keys(errors).length) return { status: 422, body: { errors } }
    // A provider-side change of amount (test control): what Paya records is what it reports.
    const cents = Math.round(Number(nextAmount ?? amount) * 100)
    nextAmount = null
    let status = t.action === 'authonly' ? 102 : 101
    let reason = 1000
    let verbiage = 'APPROVED'
    if (cents === 500) [status, reason, verbiage] = [301, 1500, 'DENY']
    else if (cents >= 601 && cents <= 631) [status, reason, verbiage] = [301, 1000 + cents, 'DECLINE']
    else if (String(t.cvv ?? '') === '123') [status, reason, verbiage] = [301, 1500, 'CVV NO MATCH']
    const now = Math.floor(Date.now() / 1000)
    const tx: Tx = {
      id: randomBytes(12).toString('hex'),
      transaction_api_id: apiId,
      status_id: status,
      reason_code_id: reason,
      verbiage,
      transaction_amount: (cents / 100).toFixed(2),
      auth_amount: status === 301 ? '0.00' : (cents / 100).toFixed(2),
      last_four: number.slice(-4),
      first_six: number.slice(0, 6),
      account_type: number.startsWith('4') ? 'visa' : number.startsWith('5') ? 'mc' : 'disc',
      order_num: typeof t.order_num === 'string' ? t.order_num : null,
      action: String(t.action ?? 'sale'),
      created_ts: now,
      modified_ts: now,
      settle_date: null,
      previous_transaction_id: null,
    }
    txs.set(tx.id, tx)
    void deliver(tx, 'CREATE')
    return { status: 201, body: { transaction: tx } }
  }

  /**
   * A referenced refund (payments.md §2.2): of a settled sale (an unsettled one is voided
   * instead), at most what is left of it; status 111. No idempotency beyond transaction_api_id,
   * which is unique per location: a second POST without one refunds again.
   */
  function refund(t: Record<string, unknown>): { status: number; body: unknown } {
    const errors: Record<string, string[]> = {}
    const amount = String(t.transaction_amount ?? '')
    if (!/^\d+(\.\d{1,2})?$/.test(amount) || Number(amount) <= 0)
      errors.transaction_amount = [
        'Transaction amount must be greater than zero for the following actions: [sale, authonly, authcomplete, authincrement, debit, credit, refund, tipadjust]',
      ]
    if (t.product_transaction_id !== creds.productTransactionId)
      errors.product_transaction_id = ['Product Transaction Id is invalid.']
    const original = txs.get(String(t.previous_transaction_id ?? ''))
    if (!original || original.action === 'refund')
      errors.previous_transaction_id = ['Previous Transaction Id is invalid.']
    else if (original.status_id !== 101)
      errors.previous_transaction_id = ['The previous transaction cannot be refunded.']
    else if (!original.settle_date)
      errors.previous_transaction_id = ['The previous transaction has not settled: void it instead.']
    const apiId = typeof t.transaction_api_id === 'string' ? t.transaction_api_id : null
    if (apiId && [...txs.values()].some((x) => x.transaction_api_id === apiId))
      errors.transaction_api_id = ['Transaction Api Id has already been taken.']
    const cents = Math.round(Number(amount) * 100)
    if (original && !errors.previous_transaction_id && !errors.transaction_amount) {
      const refunded = [...txs.values()]
        .filter((x) => x.previous_transaction_id === original.id && x.status_id === 111)
        .reduce((sum, x) => sum + Math.round(Number(x.transaction_amount) * 100), 0)
      if (refunded + cents > Math.round(Number(original.transaction_amount) * 100))
        errors.transaction_amount = ['Transaction amount exceeds the amount available to refund.']
    }
    if (Object.keys(errors).length) return { status: 422, body: { errors } }
    const now = Math.floor(Date.now() / 1000)
    // Paya's test data holds for refunds too: $5.00 is denied (a declined refund moves nothing).
    const denied = cents === 500
    const tx: Tx = {
      ...original!,
      id: randomBytes(12).toString('hex'),
      transaction_api_id: apiId,
      status_id: denied ? 301 : 111,
      reason_code_id: denied ? 1500 : 1000,
      verbiage: denied ? 'DENY' : 'APPROVED',
      transaction_amount: (cents / 100).toFixed(2),
      auth_amount: denied ? '0.00' : (cents / 100).toFixed(2),
      action: 'refund',
      created_ts: now,
      modified_ts: now,
      settle_date: null,
      previous_transaction_id: original!.id,
    }
    txs.set(tx.id, tx)
    void deliver(tx, 'CREATE')
    return { status: 201, body: { transaction: tx } }
  }

  app.post(`${PREFIX}/v2/transactions`, (req, reply) =>
    run(req, reply, () => {
      if (!authed(req)) return denied(reply)
      const t = ((req.body as { transaction?: Record<string, unknown> } | null)?.transaction ?? {}) as Record<
        string,
        unknown
      >
      const r = create(t)
      return reply.code(r.status).send(r.body)
    }),
  )

  app.get(`${PREFIX}/v2/transactions`, (req, reply) =>
    run(req, reply, () => {
      if (!authed(req)) return denied(reply)
      const apiId = (req.query as { transaction_api_id?: string }).transaction_api_id
      const list = [...txs.values()].filter((t) => !apiId || t.transaction_api_id === apiId)
      return reply.send({ transactions: list, _meta: { totalCount: list.length } })
    }),
  )

  app.get(`${PREFIX}/v2/transactions/:id`, (req, reply) =>
    run(req, reply, () => {
      if (!authed(req)) return denied(reply)
      const tx = txs.get((req.params as { id: string }).id)
      return tx ? reply.send({ transaction: tx }) : reply.code(404).send({ name: 'Not Found', status: 404 })
    }),
  )

  app.put(`${PREFIX}/v2/transactions/:id`, (req, reply) =>
    run(req, reply, () => {
      if (!authed(req)) return denied(reply)
      const tx = txs.get((req.params as { id: string }).id)
      if (!tx) return reply.code(404).send({ name: 'Not Found', status: 404 })
      const action = (req.body as { transaction?: { action?: string } } | null)?.transaction?.action
      if (action === 'void' && (tx.status_id === 101 || tx.status_id === 102) && !tx.settle_date)
        [tx.status_id, tx.reason_code_id] = [201, 1200]
      else if (action === 'authcomplete' && tx.status_id === 102)
        [tx.status_id, tx.reason_code_id] = [101, 1001]
      else
        return reply
          .code(422)
          .send({ errors: { action: [`Action ${String(action)} is not allowed for this transaction.`] } })
      tx.modified_ts = Math.floor(Date.now() / 1000)
      void deliver(tx, 'UPDATE')
      return reply.send({ transaction: tx })
    }),
  )

  // --- Browser side: the PayForm ---
  app.get(`${PREFIX}/v2/payform`, async (req, reply) => {
    const q = req.query as Record<string, string>
    const ts = Number(q.timestamp)
    const expected = createHmac('sha256', creds.userHashKey)
      .update(`${q['user-id'] ?? ''}${q.timestamp ?? ''}`)
      .digest('hex')
    const given = Buffer.from(q['hash-key'] ?? '')
    const valid =
      q['developer-id'] === creds.developerId &&
      q['user-id'] === creds.userId &&
      Math.abs(Date.now() / 1000 - ts) <= 300 &&
      given.length === expected.length &&
      timingSafeEqual(given, Buffer.from(expected)) &&
      !usedHashes.has(expected)
    if (!valid)
      return reply
        .code(401)
        .type('text/html')
        .send(page('Payment form', '<p>This payment form has expired. Please reload the page.</p>'))
    // A signed form is issued once, with its data: the same hash-key with other data is refused.
    const first = issued.get(expected)
    if (first !== undefined && first !== (q.data ?? ''))
      return reply.code(401).type('text/html').send(page('Payment form', '<p>Hash key is invalid.</p>'))
    let data: { transaction?: Record<string, unknown> }
    try {
      data = JSON.parse(Buffer.from(q.data ?? '', 'hex').toString('utf8')) as typeof data
    } catch {
      return reply.code(400).type('text/html').send(page('Payment form', '<p>Invalid form data.</p>'))
    }
    issued.set(expected, q.data ?? '')
    const t = data.transaction ?? {}
    return reply.type('text/html').send(
      page(
        'Payment form',
        `<form method="post" action="${PREFIX}/v2/payform/submit">
<input type="hidden" name="hash" value="${expected}"><input type="hidden" name="data" value="${escapeHtml(q.data ?? '')}"><input type="hidden" name="parent_origin" id="parent_origin">
<p>Amount: $${escapeHtml(String(t.transaction_amount ?? ''))}</p>
<label>Card number <input name="account_number" inputmode="numeric" autocomplete="cc-number" required></label>
<label>Expiry (MMYY) <input name="exp_date" inputmode="numeric" autocomplete="cc-exp" maxlength="4" required></label>
${t.show_cvv ? '<label>CVV <input name="cvv" inputmode="numeric" autocomplete="cc-csc" maxlength="4" required></label>' : ''}
${t.require_zip ? `<label>ZIP <input name="billing_zip" autocomplete="postal-code" value="${escapeHtml(String(t.billing_zip ?? ''))}" required></label>` : ''}
<button>Submit payment</button><p class="sim">Paya simulator</p></form>
<script>document.getElementById('parent_origin').value=document.referrer?new URL(document.referrer).origin:''</script>`,
      ),
    )
  })

  app.post(`${PREFIX}/v2/payform/submit`, async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, string>
    if (usedHashes.has(b.hash ?? ''))
      return reply
        .code(401)
        .type('text/html')
        .send(page('Payment form', '<p>This payment form was already used.</p>'))
    // The form's data is the data it was issued with: a changed amount (or anything else) posted
    // back from the browser is refused and charges nothing.
    const data = issued.get(b.hash ?? '')
    if (data === undefined)
      return reply
        .code(401)
        .type('text/html')
        .send(page('Payment form', '<p>This payment form has expired. Please reload the page.</p>'))
    if (b.data !== undefined && b.data !== data)
      return reply
        .code(400)
        .type('text/html')
        .send(page('Payment form', '<p>The payment form was changed. Please reload the page.</p>'))
    let t: Record<string, unknown>
    try {
      t = (
        JSON.parse(Buffer.from(data, 'hex').toString('utf8')) as {
          transaction: Record<string, unknown>
        }
      ).transaction
    } catch {
      return reply.code(400).type('text/html').send(page('Payment form', '<p>Invalid form data.</p>'))
    }
    const kind = faults.take('paya', 'POST', '/v2/payform/submit')
    const r = create({
      ...t,
      account_number: b.account_number,
      exp_date: b.exp_date,
      cvv: b.cvv,
      billing_zip: b.billing_zip ?? t.billing_zip,
    })
    if (r.status === 201) usedHashes.add(b.hash ?? '')
    if (kind === 'timeoutAfter' || kind === 'timeout') {
      await faults.hold(reply)
      return reply
    }
    const message =
      r.status === 201
        ? (r.body as { transaction: Tx }).transaction
        : { errors: (r.body as { errors: unknown }).errors }
    return reply.type('text/html').send(
      page(
        'Payment form',
        `<p>${r.status === 201 ? 'Thank you.' : 'Please check the card details.'}</p><script>
var parentOrigin=${JSON.stringify(/^https?:\/\/[A-Za-z0-9.:-]+$/.test(b.parent_origin ?? '') ? b.parent_origin : '*')};
if(${t.parent_send_message ? 'true' : 'false'}&&window.parent!==window) window.parent.postMessage(JSON.stringify(${JSON.stringify(message).replace(/</g, '\\u003c')}),parentOrigin);
${r.status === 201 ? '' : 'history.back()'}
</script>`,
      ),
    )
  })

  return {
    settleBatch: () => {
      const day = new Date().toISOString().slice(0, 10)
      for (const tx of txs.values()) if (tx.status_id === 101 && !tx.settle_date) tx.settle_date = day
    },
    recordNextAmount: (amount) => void (nextAmount = amount),
    ledger: (id) => {
      const tx = txs.get(id)
      if (!tx) return null
      return {
        status_id: tx.status_id,
        transaction_amount: tx.transaction_amount,
        settled: !!tx.settle_date,
        refunds: [...txs.values()]
          .filter((x) => x.previous_transaction_id === id && x.status_id === 111)
          .map((x) => ({ id: x.id, transaction_amount: x.transaction_amount })),
      }
    },
    setPostback: (c) => void (postback = c),
    redeliver: async (id) => {
      const body = lastPostback.get(id)
      if (!body || !postback) return 0
      const res = await fetch(postback.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from(`${postback.user}:${postback.password}`).toString('base64')}`,
        },
        body,
      })
      return res.status
    },
  }
}
