import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { maskSecret, newMessageId, newSecret, sign, webhookHeaders } from './webhooks.signing.ts'

const body = JSON.stringify({
  type: 'order.placed',
  timestamp: '2026-01-01T00:00:00.000Z',
  data: { orderNumber: 1 },
})

describe('Standard Webhooks signing', () => {
  it('makes a whsec_ secret of 32 random bytes, different every time', () => {
    const a = newSecret()
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/)
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32)
    expect(newSecret()).not.toBe(a)
  })

  it('signs so that the reference library (standardwebhooks) verifies the message', () => {
    const secret = newSecret()
    const headers = webhookHeaders([secret], newMessageId(), new Date(), body)
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body))
  })

  it('is refused by the library when one byte of the body, the id or the timestamp changes', () => {
    const secret = newSecret()
    const headers = webhookHeaders([secret], 'msg_a', new Date(), body)
    const wh = new Webhook(secret)
    expect(() => wh.verify(body.replace('1}', '2}'), headers)).toThrow()
    expect(() => wh.verify(body, { ...headers, 'webhook-id': 'msg_b' })).toThrow()
    const ts = String(Number(headers['webhook-timestamp']) - 1)
    expect(() => wh.verify(body, { ...headers, 'webhook-timestamp': ts })).toThrow()
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow()
  })

  it('signs with the new and the old secret during a rotation, each verifying on its own', () => {
    const [fresh, old] = [newSecret(), newSecret()]
    const headers = webhookHeaders([fresh, old], 'msg_r', new Date(), body)
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2)
    expect(() => new Webhook(fresh).verify(body, headers)).not.toThrow()
    expect(() => new Webhook(old).verify(body, headers)).not.toThrow()
  })

  it('matches the specification example computed by hand (HMAC-SHA256 over id.timestamp.body)', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
    const wh = new Webhook(secret)
    const at = new Date(1674087231 * 1000)
    expect(sign(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1674087231, '{"a":1}')).toBe(
      wh.sign('msg_p5jXN8AQM9LWM0D4loKWxJek', at, '{"a":1}'),
    )
  })

  it('shows a secret only as its last four characters', () => {
    const s = newSecret()
    expect(maskSecret(s)).toBe(`whsec_…${s.slice(-4)}`)
    expect(maskSecret(s)).not.toContain(s.slice(6, 20))
  })
})
