import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OpayoPayInput } from './opayo.provider.ts'
import {
  orderRef,
  startPaymentsHarness,
  type PaymentsHarness,
} from '../../../../../tests/http/payments/harness.ts'

let h: PaymentsHarness
beforeAll(async () => {
  h = await startPaymentsHarness()
}, 180_000)
afterAll(async () => h?.close())

const api = () => h.providers.sagepay!.baseUrl

/** What the drop-in does in the browser: card details → card identifier, with the merchant session key. */
async function tokenise(msk: string, cardNumber: string, cardholderName = 'SUCCESSFUL'): Promise<string> {
  const res = await fetch(`${api()}/card-identifiers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${msk}` },
    body: JSON.stringify({
      cardDetails: { cardholderName, cardNumber, expiryDate: '1230', securityCode: '123' },
    }),
  })
  expect(res.status).toBe(201)
  return ((await res.json()) as { cardIdentifier: string }).cardIdentifier
}

function input(msk: string, cardIdentifier: string, extra: Partial<OpayoPayInput> = {}): OpayoPayInput {
  return {
    merchantSessionKey: msk,
    cardIdentifier,
    description: 'Harbour order',
    customer: { firstName: 'Sam', lastName: 'Jones', email: 'sam@example.com' },
    billingAddress: { address1: '88', city: 'London', postalCode: '412', country: 'GB' },
    browser: {
      browserIP: '127.0.0.1',
      browserAcceptHeader: 'text/html',
      browserJavascriptEnabled: true,
      browserLanguage: 'en-GB',
      browserUserAgent: 'test',
    },
    notificationURL: `${h.shopOrigin}/payments/3ds/notify`,
    challengeWindowSize: 'Medium',
    ...extra,
  }
}

async function newAttempt(ref = orderRef(), amount = 2349) {
  return h.app.payments.createAttempt({
    siteId: await h.siteId('harbour'),
    orderRef: ref,
    method: 'sagepay',
    amountMinor: amount,
    currency: 'GBP',
  })
}

/** The shopper answers the simulator's ACS; returns what the ACS posts to our notification URL. */
async function answerChallenge(acsUrl: string, creq: string, threeDSSessionData: string, pass: boolean) {
  const form = (body: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body),
  })
  const page = await (await fetch(acsUrl, form({ creq, threeDSSessionData }))).text()
  const acsTransID = /name="acsTransID" value="([^"]+)"/.exec(page)![1]!
  const back = await (
    await fetch(
      `${h.sims.origin}/opayo/acs/answer`,
      form({ acsTransID, threeDSSessionData, result: pass ? 'Y' : 'N' }),
    )
  ).text()
  expect(back).toContain(`action="${h.shopOrigin}/payments/3ds/notify"`)
  return {
    cres: /name="cres" value="([^"]+)"/.exec(back)![1]!,
    threeDSSessionData: /name="threeDSSessionData" value="([^"]+)"/.exec(back)![1]!,
  }
}

describe('Opayo Pi adapter against the simulator', () => {
  it('takes a card payment with a card identifier from the drop-in', async () => {
    const { merchantSessionKey, scriptUrl } = await h.app.payments.cardSession()
    expect(scriptUrl).toBe(`${api()}/js/sagepay.js`)
    const attempt = await newAttempt()
    const after = await h.app.payments.cardPay(
      attempt.id,
      input(merchantSessionKey, await tokenise(merchantSessionKey, '4929000000006')),
    )
    expect(after.state).toBe('captured')
    expect(after.providerRefs.opayoTransactionId).toMatch(/^[0-9A-F-]{36}$/)
    expect(after.providerRefs.vendorTxCode).toMatch(/^SHOP-[0-9a-f]{32}$/)
  })

  it('after two declined cards, a third approves and the order has exactly one successful attempt', async () => {
    const ref = orderRef()
    for (let i = 0; i < 2; i++) {
      const { merchantSessionKey: msk } = await h.app.payments.cardSession()
      const declined = await h.app.payments.cardPay(
        (await newAttempt(ref)).id,
        input(msk, await tokenise(msk, '4929602110085639')),
      )
      expect(declined.state).toBe('declined')
      expect(declined.lastCode).toBe('opayo_2000')
    }
    const { merchantSessionKey: msk } = await h.app.payments.cardSession()
    const ok = await h.app.payments.cardPay(
      (await newAttempt(ref)).id,
      input(msk, await tokenise(msk, '5404000000000001')),
    )
    expect(ok.state).toBe('captured')
    const states = (await h.app.payments.forOrder(ref)).map((a) => [a.attemptNo, a.state])
    expect(states).toEqual([
      [1, 'declined'],
      [2, 'declined'],
      [3, 'captured'],
    ])
  })

  it('passes a 3-D Secure challenge: the ACS returns by a cross-site POST and the attempt is found by its reference', async () => {
    const { merchantSessionKey: msk } = await h.app.payments.cardSession()
    const attempt = await newAttempt()
    const challenged = await h.app.payments.cardPay(
      attempt.id,
      input(msk, await tokenise(msk, '4929000000006', 'CHALLENGE')),
    )
    expect(challenged.state).toBe('requires_action')
    const action = challenged.nextAction as {
      type: string
      acsUrl: string
      creq: string
      threeDSSessionData: string
    }
    expect(action.type).toBe('threeDSChallenge')
    expect(action.threeDSSessionData).not.toContain(challenged.providerRefs.opayoTransactionId!)
    const back = await answerChallenge(action.acsUrl, action.creq, action.threeDSSessionData, true)
    // Our notification page relays cres to the checkout page without a session cookie.
    const relay = await h.app.inject({
      method: 'POST',
      url: '/payments/3ds/notify',
      payload: new URLSearchParams(back).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(relay.statusCode).toBe(200)
    expect(relay.body).toContain('"type":"payments:3ds"')
    const done = await h.app.payments.cardChallengeResult(back.threeDSSessionData, back.cres)
    expect(done.id).toBe(attempt.id)
    expect(done.state).toBe('captured')
    // Posting the same result again changes nothing.
    expect((await h.app.payments.cardChallengeResult(back.threeDSSessionData, back.cres)).history).toEqual(
      done.history,
    )
  })

  it('declines when the shopper fails the 3-D Secure challenge', async () => {
    const { merchantSessionKey: msk } = await h.app.payments.cardSession()
    const attempt = await newAttempt()
    const challenged = await h.app.payments.cardPay(
      attempt.id,
      input(msk, await tokenise(msk, '4929000000006', 'CHALLENGE')),
    )
    const action = challenged.nextAction as { acsUrl: string; creq: string; threeDSSessionData: string }
    const back = await answerChallenge(action.acsUrl, action.creq, action.threeDSSessionData, false)
    const done = await h.app.payments.cardChallengeResult(back.threeDSSessionData, back.cres)
    expect(done.state).toBe('declined')
    expect(done.lastCode).toBe('opayo_2001')
  })

  it('saves a card and pays with it again with a fresh security code', async () => {
    const { merchantSessionKey: msk } = await h.app.payments.cardSession()
    const first = await h.app.payments.cardPay(
      (await newAttempt()).id,
      input(msk, await tokenise(msk, '4929000000006'), { save: true }),
    )
    expect(first.state).toBe('captured')
    const token = first.providerRefs.cardIdentifier!
    const { merchantSessionKey: msk2 } = await h.app.payments.cardSession()
    const link = await fetch(`${api()}/card-identifiers/${token}/security-code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${msk2}` },
      body: JSON.stringify({ securityCode: '123' }),
    })
    expect(link.status).toBe(204)
    const again = await h.app.payments.cardPay(
      (await newAttempt()).id,
      input(msk2, token, { reusable: true }),
    )
    expect(again.state).toBe('captured')
  })

  it('repeats a payment request that never reached Opayo, with the same vendorTxCode', async () => {
    const { merchantSessionKey: msk } = await h.app.payments.cardSession()
    const attempt = await newAttempt()
    h.sims.faults.add({ provider: 'opayo', match: 'POST /transactions', kind: 'timeout' })
    const lost = await h.app.payments.cardPay(attempt.id, input(msk, await tokenise(msk, '4929000000006')))
    expect(lost.state).toBe('unknown')
    expect(lost.pendingRequest).not.toBeNull()
    expect(JSON.stringify(lost.pendingRequest)).not.toContain('4929000000006')
    const after = await h.app.payments.reconcile(attempt.id)
    expect(after.state).toBe('captured')
    expect(after.providerRefs.vendorTxCode).toBe(lost.providerRefs.vendorTxCode)
  })

  it('never pays twice when Opayo took the payment but the answer was lost: the repeat is refused as a duplicate and stays unknown', async () => {
    const { merchantSessionKey: msk } = await h.app.payments.cardSession()
    const attempt = await newAttempt()
    h.sims.faults.add({ provider: 'opayo', match: 'POST /transactions', kind: 'timeoutAfter' })
    expect(
      (await h.app.payments.cardPay(attempt.id, input(msk, await tokenise(msk, '4929000000006')))).state,
    ).toBe('unknown')
    const after = await h.app.payments.reconcile(attempt.id)
    expect(after.state).toBe('unknown')
    expect(after.lastCode).toBe('opayo_duplicate_vendortxcode')
    await expect(newAttempt(attempt.orderRef)).rejects.toMatchObject({ code: 'unsettled' })
  })
})
