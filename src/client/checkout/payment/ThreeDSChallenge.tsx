/**
 * The 3-D Secure v2 challenge (§2 "A 3D Secure iframe view"): the creq is posted to the bank's
 * ACS inside an iframe; the ACS posts its answer cross-site to /payments/3ds/notify, whose page
 * (our origin) tells this window by postMessage. Only a message from our own origin counts.
 */
import { useEffect, useRef } from 'react'

export interface Challenge {
  acsUrl: string
  creq: string
  threeDSSessionData: string
}

export interface ChallengeResult {
  threeDSSessionData: string
  aCSResponse: string
  threeDSVersion: string
}

/** Opayo's window sizes (width × height). */
const SIZES = { Small: [390, 400], Medium: [500, 600] } as const

export function ThreeDSChallenge({
  challenge,
  size,
  onResult,
}: {
  challenge: Challenge
  size: 'Small' | 'Medium'
  onResult: (r: ChallengeResult) => void
}) {
  const formRef = useRef<HTMLFormElement>(null)
  const done = useRef(onResult)
  useEffect(() => {
    done.current = onResult
  }, [onResult])

  useEffect(() => {
    const listener = (e: MessageEvent) => {
      const d = e.data as Record<string, unknown> | null
      if (e.origin !== window.location.origin || !d || d.type !== 'payments:3ds') return
      if (typeof d.threeDSSessionData !== 'string' || typeof d.aCSResponse !== 'string') return
      done.current({
        threeDSSessionData: d.threeDSSessionData,
        aCSResponse: d.aCSResponse,
        threeDSVersion: typeof d.threeDSVersion === 'string' ? d.threeDSVersion : '2',
      })
    }
    window.addEventListener('message', listener)
    formRef.current?.submit()
    return () => window.removeEventListener('message', listener)
  }, [challenge])

  const [width, height] = SIZES[size]
  return (
    <div className="mt-3 rounded border border-gray-300 p-2" data-testid="threeds-challenge">
      <p className="text-sm font-medium">Your bank asks you to confirm this payment.</p>
      <iframe
        name="threeds-frame"
        title="3-D Secure: confirm the payment with your bank"
        width={width}
        height={height}
        className="mt-2 max-w-full border-0 bg-white"
      />
      <form ref={formRef} method="post" action={challenge.acsUrl} target="threeds-frame" hidden>
        <input type="hidden" name="creq" value={challenge.creq} />
        <input type="hidden" name="threeDSSessionData" value={challenge.threeDSSessionData} />
      </form>
    </div>
  )
}
