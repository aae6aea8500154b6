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
import { escapeHtml, luhn, page, underFaults, type Faults } from './faults.ts'

const PREFIX = '/opayo/api/v1'
const MSK_TTL_MS = 400_000
const DECLINE_CARD = '4929602110085639'

interface Msk {
  key: string
  expiresAt: number
  failures: number
  used: boolean
}
interface Card {
  id: string
  msk: string
  number: string
  name: string
  expiryDate: string
  securityCode: string | null
  reusable: boolean
  expiresAt: number
}
interface Tx {
  body: Record<string, unknown>
  amount: number
  notificationURL: string | null
  challenge: { acsTransID: string; result: 'Y' | 'N' | null; completed: boolean } | null
  instructions: string[]
  refunded: number
  /** The batch this payment was in has settled (after midnight): a void is refused from then on. */
  settled: boolean
  /** Refund transactions made against this one. */
  refunds: string[]
}

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

function cardType(n: string): string {
  if (n.startsWith('4')) return 'Visa'
  if (/^5[1-5]/.test(n)) return 'MasterCard'
  if (/^3[47]/.test(n)) return 'AmericanExpress'
  if (/^(6759|5641)/.test(n)) return 'Maestro'
  return 'Visa'
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

  app.post(`${PREFIX}/card-identifiers`, (req, reply) =>
    run(req, reply, () => {
      const msk = bearerMsk(req)
      if (!msk) return reply.code(401).send({ code: '1001', description: 'Invalid merchant session key' })
      const d = ((req.body as { cardDetails?: Record<string, string> } | null)?.cardDetails ?? {}) as Record<
        string,
        string
      >
      const errors: { code: string; property: string; description: string; clientMessage: string }[] = []
      const number = String(d.cardNumber ?? '').replace(/\s+/g, '')
      if (!d.cardholderName)
        errors.push({
          code: '1003',
          property: 'cardDetails.cardholderName',
          description: 'Missing mandatory field',
          clientMessage: 'Please enter the name on the card',
        })
      if (!luhn(number))
        errors.push({
          code: '1007',
          property: 'cardDetails.cardNumber',
          description: 'The card number has failed our validity checks and is invalid',
          clientMessage: 'The card number is not valid',
        })
      const exp = /^(0[1-9]|1[0-2])(\d{2})$/.exec(String(d.expiryDate ?? ''))
      const now = new Date()
      if (
        !exp ||
        Number(exp[2]) + 2000 < now.getFullYear() ||
        (Number(exp[2]) + 2000 === now.getFullYear() && Number(exp[1]) < now.getMonth() + 1)
      ) {
        errors.push({
          code: '1005',
          property: 'cardDetails.expiryDate',
          description: 'Contains invalid characters or is in the past',
          clientMessage: 'The expiry date is not valid',
        })
      }
      if (d.securityCode !== undefined && !/^\d{3,4}$/.test(String(d.securityCode)))
        errors.push({
          code: '1005',
          property: 'cardDetails.securityCode',
          description: 'Contains invalid characters',
          clientMessage: 'The security code is not valid',
        })
      if (errors.length) {
        msk.failures += 1
        return reply.code(422).send({ errors })
      }
      const id = randomUUID().toUpperCase()
      cards.set(id, {
        id,
        msk: msk.key,
        number,
        name: String(d.cardholderName),
        expiryDate: String(d.expiryDate),
        securityCode: d.securityCode ? String(d.securityCode) : null,
        reusable: false,
        expiresAt: Date.now() + MSK_TTL_MS,
      })
      msk.used = true
      return reply.code(201).send({
        cardIdentifier: id,
        expiry: new Date(Date.now() + MSK_TTL_MS).toISOString(),
        cardType: cardType(number),
      })
    }),
  )

  app.post(`${PREFIX}/card-identifiers/:id/security-code`, (req, reply) =>
    run(req, reply, () => {
      const msk = bearerMsk(req)
      if (!msk) return reply.code(401).send({ code: '1001', description: 'Invalid merchant session key' })
      const card = cards.get((req.params as { id: string }).id)
      if (!card?.reusable)
        return reply.code(404).send({ code: '1011', description: 'Card identifier not found' })
      const code = String((req.body as { securityCode?: string } | null)?.securityCode ?? '')
      if (!/^\d{3,4}$/.test(code))
        return reply.code(422).send({
          errors: [
            {
              code: '1005',
              property: 'securityCode',
              description: 'Invalid',
              clientMessage: 'The security code is not valid',
            },
          ],
        })
      card.securityCode = code
      card.msk = msk.key
      return reply.code(204).send()
    }),
  )

  app.delete(`${PREFIX}/card-identifiers/:id`, (req, reply) =>
    run(req, reply, () => {
      if (!basicOk(req)) return denied(reply)
      return cards.delete((req.params as { id: string }).id)
        ? reply.code(204).send()
        : reply.code(404).send({ code: '1011', description: 'Card identifier not found' })
    }),
  )

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

  // --- Browser side: the ACS (3-D Secure challenge) ---
  app.post('/opayo/acs', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, string>
    let creq: { acsTransID?: string } = {}
    try {
      creq = JSON.parse(Buffer.from(b.creq ?? '', 'base64url').toString('utf8')) as typeof creq
    } catch {
      /* shown below */
    }
    const tx = [...txs.values()].find((t) => t.challenge?.acsTransID === creq.acsTransID)
    if (!tx)
      return reply
        .code(400)
        .type('text/html')
        .send(page('Authentication error', '<p>Invalid challenge request.</p>'))
    const hidden = `<input type="hidden" name="acsTransID" value="${escapeHtml(creq.acsTransID ?? '')}"><input type="hidden" name="threeDSSessionData" value="${escapeHtml(b.threeDSSessionData ?? '')}">`
    return reply.type('text/html').send(
      page(
        'Verify your payment',
        `<h1>Verify your payment</h1><p class="sim">Opayo simulator: 3-D Secure challenge</p><p>Amount: ${(tx.amount / 100).toFixed(2)}</p>
<form method="post" action="/opayo/acs/answer">${hidden}<button name="result" value="Y">Authenticate</button><button name="result" value="N">Fail authentication</button></form>`,
      ),
    )
  })

  app.post('/opayo/acs/answer', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, string>
    const tx = [...txs.values()].find((t) => t.challenge?.acsTransID === b.acsTransID)
    if (!tx?.notificationURL || !tx.challenge)
      return reply.code(400).type('text/html').send(page('Authentication error', '<p>Unknown challenge.</p>'))
    tx.challenge.result = b.result === 'Y' ? 'Y' : 'N'
    const cres = Buffer.from(
      JSON.stringify({
        messageType: 'CRes',
        messageVersion: '2.1.0',
        acsTransID: tx.challenge.acsTransID,
        transStatus: tx.challenge.result,
      }),
    ).toString('base64url')
    return reply
      .type('text/html')
      .send(
        page(
          'Returning to the shop',
          `<form id="f" method="post" action="${escapeHtml(tx.notificationURL)}"><input type="hidden" name="cres" value="${cres}"><input type="hidden" name="threeDSSessionData" value="${escapeHtml(b.threeDSSessionData ?? '')}"><noscript><button>Continue</button></noscript></form><script>document.getElementById('f').submit()</script>`,
        ),
      )
  })

  // --- Browser side: sagepay.js and the drop-in card iframe ---
  app.get(`${PREFIX}/js/sagepay.js`, async (_req, reply) =>
    reply.type('text/javascript').send(sagepayScript(origin())),
  )
  app.get('/opayo/dropin', async (req, reply) => {
    const q = req.query as { msk?: string; reusable?: string }
    return reply.type('text/html').send(dropinPage(q.msk ?? '', q.reusable ?? ''))
  })

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

/** sagepay.js stand-in: sagepayCheckout(...).form()/.tokenise()/.destroy() with the card form in our iframe. */
function sagepayScript(origin: string): string {
  return `(function(){
var ORIGIN=${JSON.stringify(origin)};
window.sagepayCheckout=function(opts){
  var frame=null,listener=null;
  function container(){return document.querySelector(opts.containerSelector||'#sp-container')}
  return {
    form:function(){
      var c=container(); if(!c) throw new Error('sagepayCheckout: container not found');
      frame=document.createElement('iframe');
      frame.title='Card details';frame.style.border='0';frame.style.width='100%';frame.style.height=opts.reusableCardIdentifier?'110px':'300px';
      frame.src=ORIGIN+'/opayo/dropin?msk='+encodeURIComponent(opts.merchantSessionKey)+(opts.reusableCardIdentifier?'&reusable='+encodeURIComponent(opts.reusableCardIdentifier):'');
      c.appendChild(frame);
      listener=function(e){ if(e.origin!==ORIGIN||!e.data||e.data.source!=='sagepay-sim') return;
        if(opts.onTokenise) opts.onTokenise(e.data.result); };
      window.addEventListener('message',listener);
    },
    tokenise:function(){ if(frame&&frame.contentWindow) frame.contentWindow.postMessage({source:'sagepay-sim',action:'tokenise'},ORIGIN); },
    destroy:function(){ if(listener) window.removeEventListener('message',listener); if(frame&&frame.parentNode) frame.parentNode.removeChild(frame); frame=null; }
  };
};
window.sagepayOwnForm=function(){throw new Error('The shop uses the drop-in form only (PCI SAQ A)')};
})();`
}

function dropinPage(msk: string, reusable: string): string {
  const fields = reusable
    ? '<label>Security code <input id="cvv" inputmode="numeric" autocomplete="cc-csc" maxlength="4"></label>'
    : `<label>Name on card <input id="name" autocomplete="cc-name"></label>
<label>Card number <input id="number" inputmode="numeric" autocomplete="cc-number"></label>
<label>Expiry (MMYY) <input id="expiry" inputmode="numeric" autocomplete="cc-exp" maxlength="4"></label>
<label>Security code <input id="cvv" inputmode="numeric" autocomplete="cc-csc" maxlength="4"></label>`
  return page(
    'Card details',
    `${fields}<p class="sim">Opayo simulator</p><script>
var MSK=${JSON.stringify(msk)},REUSABLE=${JSON.stringify(reusable)},parentOrigin=document.referrer?new URL(document.referrer).origin:'*';
function v(id){var e=document.getElementById(id);return e?e.value.trim():''}
function send(result){parent.postMessage({source:'sagepay-sim',result:result},parentOrigin)}
window.addEventListener('message',function(e){ if(!e.data||e.data.action!=='tokenise') return;
  var url,body;
  if(REUSABLE){url='/opayo/api/v1/card-identifiers/'+encodeURIComponent(REUSABLE)+'/security-code';body={securityCode:v('cvv')}}
  else{url='/opayo/api/v1/card-identifiers';body={cardDetails:{cardholderName:v('name'),cardNumber:v('number').replace(/\\s+/g,''),expiryDate:v('expiry'),securityCode:v('cvv')}}}
  fetch(url,{method:'POST',headers:{'content-type':'application/json',authorization:'Bearer '+MSK},body:JSON.stringify(body)})
  .then(function(r){return r.text().then(function(t){return {status:r.status,json:t?JSON.parse(t):null}})})
  .then(function(r){
    if(r.status===201) send({success:true,cardIdentifier:r.json.cardIdentifier,cardType:r.json.cardType});
    else if(r.status===204) send({success:true,cardIdentifier:REUSABLE});
    else send({success:false,httpErrorCode:r.status,errors:(r.json&&r.json.errors)||[{code:r.json&&r.json.code,message:r.json&&r.json.description}]});
  }).catch(function(){send({success:false,errors:[{code:'network',message:'Network error'}]})});
});
</script>`,
  )
}
