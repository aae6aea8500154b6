/**
 * Card payment by Opayo Pi (sagepay): the drop-in form lives in Opayo's iframe, so no card number
 * is ever in this page's DOM. The pre-order and merchant session key come from
 * /checkout/sagepay/create-preorder-and-sagepay-session once the order can be submitted (the key
 * renders the drop-in); Complete Order tokenises and posts the card identifier to
 * /checkout/complete. A saved card (the first is the default) asks only for its security code.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { CHECKOUT } from '../../../shared/checkout-text.ts'
import { primaryButton } from '../../components/cart/Modal.tsx'
import { joinErrors, requestJson, untilSettled } from '../../lib/json-client.ts'
import { loadScript } from './load-script.ts'
import { ThreeDSChallenge, type Challenge, type ChallengeResult } from './ThreeDSChallenge.tsx'
import type { PaymentMethodEntry, PaymentMethodProps } from './types.ts'

interface SavedCardView {
  id: number
  last4Digits: string
  cardType: string
}

interface TokeniseResult {
  success: boolean
  cardIdentifier?: string
  errors?: { code?: string; message?: string; clientMessage?: string }[]
}

interface DropIn {
  form(): void
  tokenise(): void
  destroy(): void
}

declare global {
  interface Window {
    sagepayCheckout?: (opts: {
      merchantSessionKey: string
      containerSelector: string
      reusableCardIdentifier?: string
      onTokenise: (r: TokeniseResult) => void
    }) => DropIn
  }
}

interface Session {
  merchantSessionKey: string
  reusableCardIdentifier?: string
  /** The card choice it was made for: a saved card's id, or 'new'. */
  choice: number | 'new'
}

function Sagepay(props: PaymentMethodProps) {
  const { config, canSubmit, customer, reportError, removeMethod, orderBody, submitOrder } = props
  const savedCards = (config.savedCards ?? []) as SavedCardView[]
  const scriptUrl = String(config.scriptUrl ?? '')
  const [choice, setChoice] = useState<number | 'new'>(savedCards[0]?.id ?? 'new')
  const [saveCard, setSaveCard] = useState(false)
  const [scriptReady, setScriptReady] = useState(false)
  const [session, setSession] = useState<Session | null>(null)
  const [challenge, setChallenge] = useState<Challenge | null>(null)
  const [busy, setBusy] = useState(false)
  const dropIn = useRef<DropIn | null>(null)
  const onTokenise = useRef<(r: TokeniseResult) => void>(() => {})
  const [windowSize, setWindowSize] = useState<'Small' | 'Medium'>('Medium')

  // The provider's script; failing to load removes the method (§8).
  useEffect(() => {
    let live = true
    loadScript(scriptUrl)
      .then(() => {
        if (!live) return
        if (typeof window.sagepayCheckout === 'function') setScriptReady(true)
        else removeMethod()
      })
      .catch(() => live && removeMethod())
    return () => {
      live = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scriptUrl])

  // The pre-order and session, for the chosen card, once the order could be submitted.
  const creating = useRef(false)
  useEffect(() => {
    if (!scriptReady || !canSubmit || session?.choice === choice || creating.current) return
    creating.current = true
    void (async () => {
      try {
        const body = await orderBody({}, { saved_card: choice === 'new' ? null : choice })
        const { ok, data } = await requestJson(
          'POST',
          '/checkout/sagepay/create-preorder-and-sagepay-session',
          body,
        )
        if (ok && typeof data?.merchantSessionKey === 'string') {
          setSession({
            merchantSessionKey: data.merchantSessionKey,
            ...(typeof data.reusableCardIdentifier === 'string'
              ? { reusableCardIdentifier: data.reusableCardIdentifier }
              : {}),
            choice,
          })
        } else reportError(joinErrors(data))
      } finally {
        creating.current = false
      }
    })()
  }, [scriptReady, canSubmit, choice, session, orderBody, reportError])

  // The drop-in, rendered with the session's key (a new key per render).
  useEffect(() => {
    if (!session || !window.sagepayCheckout) return
    const d = window.sagepayCheckout({
      merchantSessionKey: session.merchantSessionKey,
      containerSelector: '#sp-container',
      ...(session.reusableCardIdentifier ? { reusableCardIdentifier: session.reusableCardIdentifier } : {}),
      onTokenise: (r) => onTokenise.current(r),
    })
    d.form()
    dropIn.current = d
    return () => {
      d.destroy()
      dropIn.current = null
    }
  }, [session])

  const pay = useCallback(
    async (details: Record<string, unknown>, extra: Record<string, unknown>) => {
      // Still being confirmed with Opayo (202): asked again shortly (the server asks Opayo first).
      const result = await untilSettled(() => submitOrder(details, extra))
      if (result.placed || !result.data) return
      const data = result.data
      if (result.status === 402 && data.status === 'auth3DSCheckRequired') {
        const fields = (data.fields ?? {}) as Record<string, string>
        setChallenge({
          acsUrl: String(data.acsUrl),
          creq: String(fields.creq ?? ''),
          threeDSSessionData: String(fields.threeDSSessionData ?? ''),
        })
        return
      }
      reportError(joinErrors(data))
      // The card identifier is used up: a fresh session for the next try.
      setChallenge(null)
      setSession(null)
    },
    [submitOrder, reportError],
  )

  const tokenised = (r: TokeniseResult) => {
    if (!r.success || !session) {
      setBusy(false)
      const expired = r.errors?.some((e) => e.code === '1001' || e.code === '1002')
      reportError(
        r.errors
          ?.map((e) => e.clientMessage ?? e.message ?? '')
          .filter(Boolean)
          .join('. ') || 'Please check your card details.',
      )
      if (expired) setSession(null)
      return
    }
    // §3: sagepay's paymentDetails carry the card identifier; §7's complete payload names no
    // card_identifier of its own, so it is sent only there.
    void pay(session.choice === 'new' ? { card_identifier: r.cardIdentifier } : {}, {
      sagePayMerchantSessionKey: session.merchantSessionKey,
      challengeWindowSize: windowSize,
      ...(session.choice === 'new' ? { save_card: saveCard } : { saved_card: session.choice }),
    }).finally(() => setBusy(false))
  }

  useEffect(() => {
    onTokenise.current = tokenised
  })

  const completeOrder = () => {
    // The challenge window: 'Medium' above 640 px wide, else 'Small' (§7, §9).
    setWindowSize(window.innerWidth > CHECKOUT.challengeWindowBreakpoint ? 'Medium' : 'Small')
    setBusy(true)
    dropIn.current?.tokenise()
  }

  const challengeDone = (r: ChallengeResult) => {
    setChallenge(null)
    setBusy(true)
    void pay({}, { ...r, save_card: saveCard, challengeWindowSize: windowSize }).finally(() => setBusy(false))
  }

  return (
    <div className="mt-3" data-testid="sagepay">
      {savedCards.length ? (
        <fieldset className="mb-2">
          <legend className="text-sm font-medium">Pay with</legend>
          {savedCards.map((c) => (
            <label key={c.id} className="flex items-center gap-2 py-1 text-sm">
              <input
                type="radio"
                name="saved_card"
                checked={choice === c.id}
                onChange={() => setChoice(c.id)}
              />
              {c.cardType} ending {c.last4Digits}
            </label>
          ))}
          <label className="flex items-center gap-2 py-1 text-sm">
            <input
              type="radio"
              name="saved_card"
              checked={choice === 'new'}
              onChange={() => setChoice('new')}
            />
            A new card
          </label>
        </fieldset>
      ) : null}
      {!canSubmit && !session ? (
        <p className="text-sm text-gray-700">The card form appears once your details are complete.</p>
      ) : null}
      <div id="sp-container" className={challenge ? 'hidden' : ''} />
      {customer && choice === 'new' && session ? (
        <label className="mt-2 flex items-center gap-2 text-sm">
          <input type="checkbox" checked={saveCard} onChange={(e) => setSaveCard(e.target.checked)} />
          Save this card for next time
        </label>
      ) : null}
      {challenge ? (
        <ThreeDSChallenge challenge={challenge} size={windowSize} onResult={challengeDone} />
      ) : null}
      <button
        type="button"
        className={`${primaryButton} mt-3 w-full`}
        disabled={!canSubmit || !session || busy || !!challenge}
        onClick={completeOrder}
        data-testid="complete-order"
      >
        Complete Order
      </button>
    </div>
  )
}

export const sagepayEntry: PaymentMethodEntry = { Component: Sagepay, replacesCompleteButton: true }
