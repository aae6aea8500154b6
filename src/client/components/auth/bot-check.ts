/**
 * The invisible bot check in the browser. ALTCHA: fetch a signed challenge from the shop and
 * solve its proof of work (SHA-256 in Web Crypto), then send the solution as the token.
 * reCAPTCHA: load Google's script and ask it for a token.
 */
import { solveChallenge } from 'altcha-lib/v1'
import type { BotCheckProps } from '../../../shared/auth.ts'

interface Challenge {
  algorithm: string
  challenge: string
  maxnumber?: number
  salt: string
  signature: string
}

async function altchaToken(challengeUrl: string): Promise<string> {
  const res = await fetch(challengeUrl, {
    headers: { accept: 'application/json' },
    credentials: 'same-origin',
  })
  if (!res.ok) throw new Error(`challenge ${res.status}`)
  const c = (await res.json()) as Challenge
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise
  if (!solution) throw new Error('unsolved')
  const payload = {
    algorithm: c.algorithm,
    challenge: c.challenge,
    number: solution.number,
    salt: c.salt,
    signature: c.signature,
  }
  return btoa(JSON.stringify(payload))
}

declare global {
  interface Window {
    grecaptcha?: {
      ready(cb: () => void): void
      execute(key: string, opts: { action: string }): Promise<string>
    }
  }
}

let recaptchaScript: Promise<void> | null = null

async function recaptchaToken(siteKey: string): Promise<string> {
  recaptchaScript ??= new Promise<void>((resolve, reject) => {
    const s = document.createElement('script')
    s.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`
    s.async = true
    s.onload = () => resolve()
    s.onerror = () => reject(new Error('reCAPTCHA failed to load'))
    document.head.appendChild(s)
  })
  await recaptchaScript
  const g = window.grecaptcha
  if (!g) throw new Error('reCAPTCHA missing')
  await new Promise<void>((resolve) => g.ready(resolve))
  return g.execute(siteKey, { action: 'submit' })
}

export function botToken(check: BotCheckProps): Promise<string> {
  return check.provider === 'altcha' ? altchaToken(check.challengeUrl) : recaptchaToken(check.siteKey)
}
