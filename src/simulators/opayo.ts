/**
 * Opayo Pi simulator: /opayo/api/v1 with Pi's paths, auth, JSON and status codes
 * (payments.md §1, §7.3), the drop-in script, its card iframe and a 3-D Secure v2 ACS page.
 *
 * Outcomes follow the sandbox's test data: card 4929602110085639 is declined by the bank; the
 * cardholder name picks the 3-D Secure result (CHALLENGE, NOTAUTH, REJECT, NOTENROLLED,
 * TECHDIFFICULTIES, ERROR; SUCCESSFUL or any other name passes frictionless — the real sandbox
 * fails unknown names, the simulator lets a demo shopper type their own).
 */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { SIMULATOR_CREDENTIALS, SIMULATOR_DEMO_CARD } from '../server/config/payments.ts'
import { underFaults, type Faults } from './faults.ts'
import { opayoBrowserRoutes } from './opayo.browser.ts'
import { opayoCardRoutes } from './opayo.cards.ts'
import { cardType, DECLINE_CARD, MSK_TTL_MS, PREFIX, type Card, type Msk, type Tx } from './opayo.state.ts'

/** Test controls (the integrator's money-invariant suite and the contract tests). */
export interface OpayoSimControl {
  /** Midnight passes: every payment so far is settled, and Opayo refuses to void it (refund only). */
  endOfDay(): void
  /**
   * The next payment records (and states in its answer) this amount in minor units instead of the
   * one asked: a provider-side change the shop must notice (confirmed amount ≠ basket).
   */
  recordNextAmount(amountMinor: number): void
  /** What Opayo holds for a payment: voided, settled, and the refunds made against it. */
  ledger(transactionId: string): {
    amountMinor: number
    voided: boolean
    settled: boolean
    refunds: { transactionId: string; amountMinor: number }[]
  } | null
}

export function opayoSimulator(app: FastifyInstance, faults: Faults, origin: () => string): OpayoSimControl {
  const creds = SIMULATOR_CREDENTIALS.opayo
  const msks = new Map<string, Msk>()
  const cards = new Map<string, Card>()
  // The seeded demo customer's saved card, as if saved at an earlier checkout.
  cards.set(SIMULATOR_DEMO_CARD.token, {
    id: SIMULATOR_DEMO_CARD.token,
    msk: '',
    number: SIMULATOR_DEMO_CARD.number,
    name: SIMULATOR_DEMO_CARD.cardholderName,
    expiryDate: SIMULATOR_DEMO_CARD.expiry,
    securityCode: null,
    reusable: true,
    expiresAt: Number.MAX_SAFE_INTEGER,
  })
  const txs = new Map<string, Tx>()
  const vendorTxCodes = new Set<string>()
  let nextAmount: number | null = null

  const basicOk = (req: FastifyRequest) =>
    req.headers.authorization ===
    `Basic ${Buffer.from(`${creds.integrationKey}:${creds.integrationPassword}`).toString('base64')}`
  const denied = (reply: FastifyReply) =>
    reply.code(401).send({ code: '1002', description: 'Authentication failed' })
  const bearerMsk = (req: FastifyRequest): Msk | null => {
    const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')
    const msk = m ? msks.get(m[1] ?? '') : undefined
    return msk && msk.expiresAt > Date.now() && msk.failures < 3 ? msk : null
  }
  const run = (req: FastifyRequest, reply: FastifyReply, fn: () => unknown) =>
    underFaults(faults, 'opayo', PREFIX, req, reply, fn)

  app.post(`${PREFIX}/merchant-session-keys`, (req, reply) =>
    run(req, reply, () => {
      if (!basicOk(req)) return denied(reply)
      const body = req.body as { vendorName?: string } | null
      if (body?.vendorName !== creds.vendorName)
        return reply
          .code(422)
          .send({ errors: [{ code: '1009', property: 'vendorName', description: 'Invalid vendor name' }] })
      const key = randomUUID().toUpperCase()
      const expiresAt = Date.now() + MSK_TTL_MS
      msks.set(key, { key, expiresAt, failures: 0, used: false })
      return reply.code(201).send({ merchantSessionKey: key, expiry: new Date(expiresAt).toISOString() })
    }),
  )

  opayoCardRoutes({ app, run, basicOk, denied, bearerMsk, cards })

  const finalBody = (tx: Tx, card: Card, ok: boolean, threeDS: string, detail?: string) => {
    Object.assign(tx.body, {
      status: ok ? 'Ok' : 'Rejected',
      statusCode: ok ? '0000' : '2001',
      statusDetail:
        detail ??
        (ok
          ? 'The Authorisation was Successful.'
          : 'The Authorisation was Rejected by the vendor rule-base.'),
      '3DSecure': { status: threeDS },
      ...(ok
        ? {
            bankResponseCode: '00',
            bankAuthorisationCode: '999777',
            retrievalReference: Math.floor(Math.random() * 1e8),
          }
        : {}),
    })
    delete tx.body.acsUrl
    delete tx.body.cReq
    void card
  }

  /**
   * A Refund transaction (payments.md §1.3): against an Ok payment that was not voided, of at
   * most what is left of it (403 1018), with its own unique vendorTxCode (4042 when reused).
   */
  function refund(b: Record<string, unknown>, reply: FastifyReply) {
    const code = String(b.vendorTxCode ?? '')
    if (!code || code.length > 40)
      return reply
        .code(422)
        .send({ errors: [{ code: '1004', property: 'vendorTxCode', description: 'Invalid length' }] })
    if (!Number.isInteger(b.amount) || (b.amount as number) <= 0)
      return reply
        .code(422)
        .send({ errors: [{ code: '1016', property: 'amount', description: 'Integer required' }] })
    if (typeof b.description !== 'string' || !b.description)
      return reply
        .code(422)
        .send({ errors: [{ code: '1003', property: 'description', description: 'Missing mandatory field' }] })
    if (vendorTxCodes.has(code))
      return reply.code(422).send({
        errors: [
          {
            code: '4042',
            property: 'vendorTxCode',
            description: 'The VendorTxCode has been used before. All VendorTxCodes should be unique.',
          },
        ],
      })
    const original = txs.get(String(b.referenceTransactionId ?? ''))
    if (!original || original.body.transactionType === 'Refund')
      return reply.code(404).send({ code: '1012', description: 'Transaction not found' })
    if (original.body.status !== 'Ok' || original.instructions.includes('void'))
      return reply.code(403).send({ code: '1017', description: 'The operation is not allowed' })
    if (original.refunded + (b.amount as number) > original.amount)
      return reply.code(403).send({
        code: '1018',
        description: 'This refund amount will exceed the amount of the original transaction',
      })
    vendorTxCodes.add(code)
    original.refunded += b.amount as number
    const id = randomUUID().toUpperCase()
    original.refunds.push(id)
    const tx: Tx = {
      amount: b.amount as number,
      notificationURL: null,
      challenge: null,
      instructions: [],
      refunded: 0,
      settled: false,
      refunds: [],
      body: {
        transactionId: id,
        transactionType: 'Refund',
        status: 'Ok',
        statusCode: '0000',
        statusDetail: 'The Authorisation was Successful.',
        retrievalReference: Math.floor(Math.random() * 1e8),
        bankAuthorisationCode: '999777',
        paymentMethod: original.body.paymentMethod,
        amount: { totalAmount: b.amount, saleAmount: b.amount, surchargeAmount: 0 },
        currency: original.body.currency,
      },
    }
    txs.set(id, tx)
    return reply.code(201).send(tx.body)
  }

  app.post(`${PREFIX}/transactions`, (req, reply) =>
    run(req, reply, () => {
      if (!basicOk(req)) return denied(reply)
      const b = (req.body ?? {}) as Record<string, unknown>
      if (b.transactionType === 'Refund') return refund(b, reply)
      if (b.transactionType !== 'Payment' && b.transactionType !== 'Deferred')
        return reply.code(422).send({
          errors: [{ code: '1013', property: 'transactionType', description: 'Type not supported' }],
        })
      if (!Number.isInteger(b.amount) || (b.amount as number) <= 0)
        return reply
          .code(422)
          .send({ errors: [{ code: '1016', property: 'amount', description: 'Integer required' }] })
      if (b.currency !== 'GBP' && b.currency !== 'EUR' && b.currency !== 'USD')
        return reply
          .code(422)
          .send({ errors: [{ code: '1010', property: 'currency', description: 'Currency does not exist' }] })
      const code = String(b.vendorTxCode ?? '')
      if (!code || code.length > 40)
        return reply
          .code(422)
          .send({ errors: [{ code: '1004', property: 'vendorTxCode', description: 'Invalid length' }] })
      if (vendorTxCodes.has(code))
        return reply.code(422).send({
          errors: [
            {
              code: '4042',
              property: 'vendorTxCode',
              description: 'The VendorTxCode has been used before. All VendorTxCodes should be unique.',
            },
          ],
        })
      const pm = ((b.paymentMethod as Record<string, unknown> | undefined)?.card ?? {}) as Record<
        string,
        unknown
      >
      const card = cards.get(String(pm.cardIdentifier ?? ''))
      if (!card || (!card.reusable && card.expiresAt < Date.now()))
        return reply.code(422).send({
          errors: [
            {
              code: '1011',
              property: 'cardIdentifier',
              description: 'Merchant session key or card identifier invalid',
            },
          ],
        })
      if (pm.reusable === true ? !card.reusable : card.msk !== pm.merchantSessionKey)
        return reply.code(422).send({
          errors: [
            {
              code: '1011',
              property: 'merchantSessionKey',
              description: 'Merchant session key or card identifier invalid',
            },
          ],
        })
      vendorTxCodes.add(code)
      const id = randomUUID().toUpperCase()
      const save = pm.save === true
      const sca = (b.strongCustomerAuthentication ?? {}) as Record<string, unknown>
      // A provider-side change of amount (test control): recorded and stated as Opayo's own.
      const amount = nextAmount ?? (b.amount as number)
      nextAmount = null
      const tx: Tx = {
        amount,
        notificationURL: typeof sca.notificationURL === 'string' ? sca.notificationURL : null,
        challenge: null,
        instructions: [],
        refunded: 0,
        settled: false,
        refunds: [],
        body: {
          transactionId: id,
          transactionType: b.transactionType,
          paymentMethod: {
            card: {
              cardType: cardType(card.number),
              lastFourDigits: card.number.slice(-4),
              expiryDate: card.expiryDate,
              cardIdentifier: card.id,
              reusable: card.reusable || save,
            },
          },
          amount: { totalAmount: amount, saleAmount: amount, surchargeAmount: 0 },
          currency: b.currency,
          avsCvcCheck: {
            status: 'AllMatched',
            address: 'Matched',
            postalCode: 'Matched',
            securityCode: 'Matched',
          },
        },
      }
      txs.set(id, tx)
      if (card.number === DECLINE_CARD) {
        Object.assign(tx.body, {
          status: 'NotAuthed',
          statusCode: '2000',
          statusDetail: 'The Authorisation was Declined by the bank.',
          '3DSecure': { status: 'NotChecked' },
        })
        return reply.code(403).send(tx.body)
      }
      if (save || card.reusable) card.reusable = true
      const name = card.name.trim().toUpperCase()
      if (name === 'CHALLENGE') {
        const acsTransID = randomUUID()
        tx.challenge = { acsTransID, result: null, completed: false }
        const cReq = Buffer.from(
          JSON.stringify({
            messageType: 'CReq',
            messageVersion: '2.1.0',
            threeDSServerTransID: randomUUID(),
            acsTransID,
            challengeWindowSize: String(sca.challengeWindowSize ?? 'Medium'),
          }),
        ).toString('base64url')
        Object.assign(tx.body, {
          status: '3DAuth',
          statusCode: '2021',
          statusDetail: 'Please redirect your customer to the ACSURL to complete the 3DS Transaction',
          acsTransId: acsTransID,
          dsTranId: randomUUID(),
          acsUrl: `${origin()}/opayo/acs`,
          cReq,
        })
        return reply.code(202).send(tx.body)
      }
      if (['NOTAUTH', 'REJECT', 'NOTENROLLED', 'ERROR', 'TECHDIFFICULTIES'].includes(name)) {
        finalBody(
          tx,
          card,
          false,
          name === 'NOTENROLLED'
            ? 'CardNotEnrolled'
            : name === 'ERROR' || name === 'TECHDIFFICULTIES'
              ? 'Error'
              : 'NotAuthenticated',
          "3D-Authentication failed. This vendor's rules require a successful 3D-Authentication.",
        )
        return reply.code(403).send(tx.body)
      }
      finalBody(tx, card, true, name === 'PROOFATTEMPT' ? 'AttemptOnly' : 'Authenticated')
      return reply.code(201).send(tx.body)
    }),
  )

  app.get(`${PREFIX}/transactions/:id`, (req, reply) =>
    run(req, reply, () => {
      if (!basicOk(req)) return denied(reply)
      const tx = txs.get((req.params as { id: string }).id)
      return tx
        ? reply.send(tx.body)
        : reply.code(404).send({ code: '1012', description: 'Transaction not found' })
    }),
  )

  app.post(`${PREFIX}/transactions/:id/3d-secure-challenge`, (req, reply) =>
    run(req, reply, () => {
      if (!basicOk(req)) return denied(reply)
      const tx = txs.get((req.params as { id: string }).id)
      if (!tx) return reply.code(404).send({ code: '1012', description: 'Transaction not found' })
      if (!tx.challenge || tx.challenge.completed)
        return reply.code(403).send({
          code: '1014',
          description: 'The status of the transaction is not applicable for this operation',
        })
      let cres: { acsTransID?: string; transStatus?: string } = {}
      try {
        cres = JSON.parse(
          Buffer.from(String((req.body as { cRes?: string } | null)?.cRes ?? ''), 'base64url').toString(
            'utf8',
          ),
        ) as typeof cres
      } catch {
        /* invalid below */
      }
      if (cres.acsTransID !== tx.challenge.acsTransID)
        return reply
          .code(422)
          .send({ errors: [{ code: '1009', property: 'cRes', description: 'Invalid value' }] })
      tx.challenge.completed = true
      const card = cards.get(
        String((tx.body.paymentMethod as { card: { cardIdentifier: string } }).card.cardIdentifier),
      )!
      const ok = cres.transStatus === 'Y'
      finalBody(
        tx,
        card,
        ok,
        ok ? 'Authenticated' : 'NotAuthenticated',
        ok
          ? undefined
          : "3D-Authentication failed. This vendor's rules require a successful 3D-Authentication.",
      )
      // A failed challenge answers a payment body without transactionType (payments.md §1.4).
      const { transactionType, ...rest } = tx.body
      return reply.code(201).send(ok ? tx.body : (void transactionType, rest))
    }),
  )

  app.post(`${PREFIX}/transactions/:id/instructions`, (req, reply) =>
    run(req, reply, () => {
      if (!basicOk(req)) return denied(reply)
      const tx = txs.get((req.params as { id: string }).id)
      if (!tx) return reply.code(404).send({ code: '1012', description: 'Transaction not found' })
      const type = String((req.body as { instructionType?: string } | null)?.instructionType)
      if (
        tx.body.status !== 'Ok' ||
        tx.instructions.includes('void') ||
        (type === 'void' && (tx.settled || tx.refunds.length > 0)) ||
        !['void', 'abort', 'release'].includes(type)
      ) {
        return reply.code(403).send({ code: '1017', description: 'The operation is not allowed' })
      }
      tx.instructions.push(type)
      return reply.code(201).send({ instructionType: type, date: new Date().toISOString() })
    }),
  )

  opayoBrowserRoutes({ app, origin, txs })

  return {
    endOfDay: () => {
      for (const tx of txs.values()) tx.settled = true
    },
    recordNextAmount: (amountMinor) => void (nextAmount = amountMinor),
    ledger: (transactionId) => {
      const tx = txs.get(transactionId)
      if (!tx) return null
      return {
        amountMinor: tx.amount,
        voided: tx.instructions.includes('void'),
        settled: tx.settled,
        refunds: tx.refunds.map((id) => ({ transactionId: id, amountMinor: txs.get(id)!.amount })),
      }
    },
  }
}
