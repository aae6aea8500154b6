import { describe, expect, it } from 'vitest'
import { errorsFromIssues, InertiaSession, resolveErrors } from './session.ts'

class FakeSession {
  data = new Map<string, unknown>()
  writes = 0
  get(key: string): unknown {
    return this.data.get(key)
  }
  set(key: string, value: unknown): void {
    this.writes++
    if (value === undefined) this.data.delete(key)
    else this.data.set(key, value)
  }
}

describe('InertiaSession', () => {
  it('does not write to the session when there is nothing to flash or pull', () => {
    const fake = new FakeSession()
    const pulled = new InertiaSession(() => fake).pull()
    expect(pulled).toEqual({ flash: {}, errors: {}, clearHistory: false, preserveFragment: false })
    expect(fake.writes).toBe(0)
  })

  it('merges flash calls and hands them to the next pull only', () => {
    const fake = new FakeSession()
    const first = new InertiaSession(() => fake)
    first.flash({ success: 'Saved' })
    first.flash({ info: 'Also' })
    const second = new InertiaSession(() => fake)
    expect(second.pull().flash).toEqual({ success: 'Saved', info: 'Also' })
    expect(new InertiaSession(() => fake).pull().flash).toEqual({})
  })

  it('keeps values for the same request when no session is available', () => {
    const s = new InertiaSession(() => undefined)
    s.flash({ a: 1 })
    s.addErrors({ email: 'Required' }, 'default')
    s.flag('inertia.clear_history')
    expect(s.pull()).toEqual({
      flash: { a: 1 },
      errors: { default: { email: 'Required' } },
      clearHistory: true,
      preserveFragment: false,
    })
    expect(s.persistent).toBe(false)
  })

  it('treats a session object without get/set (path outside the cookie) as no session', () => {
    const s = new InertiaSession(() => ({}))
    expect(s.persistent).toBe(false)
  })
})

describe('resolveErrors', () => {
  it('gives {} without errors', () => {
    expect(resolveErrors({}, null)).toEqual({})
  })

  it('maps each field to its first message, or all messages when asked', () => {
    const bags = { default: { email: ['Required', 'Invalid'], name: 'Too long' } }
    expect(resolveErrors(bags, null)).toEqual({ email: 'Required', name: 'Too long' })
    expect(resolveErrors(bags, null, true)).toEqual({ email: ['Required', 'Invalid'], name: ['Too long'] })
  })

  it('nests default-bag errors under the error bag named by the client, including "0"', () => {
    const bags = { default: { email: 'Required' } }
    expect(resolveErrors(bags, 'checkout')).toEqual({ checkout: { email: 'Required' } })
    expect(resolveErrors(bags, '0')).toEqual({ 0: { email: 'Required' } })
  })

  it('returns named bags under their names', () => {
    expect(resolveErrors({ login: { email: 'Wrong' }, signup: { name: 'Required' } }, null)).toEqual({
      login: { email: 'Wrong' },
      signup: { name: 'Required' },
    })
  })
})

describe('errorsFromIssues', () => {
  it('keys messages by dot path, in order, with a fallback key for form-level issues', async () => {
    const { z } = await import('zod')
    const schema = z.object({
      email: z.string().email('Enter a valid email.'),
      items: z.array(z.object({ qty: z.number().min(1, 'At least one.') })),
    })
    const result = schema.safeParse({ email: 'nope', items: [{ qty: 0 }] })
    expect(result.success).toBe(false)
    if (result.success) return
    expect(errorsFromIssues(result.error)).toEqual({
      email: ['Enter a valid email.'],
      'items.0.qty': ['At least one.'],
    })
    expect(errorsFromIssues({ issues: [{ path: [], message: 'Passwords differ.' }] })).toEqual({
      form: ['Passwords differ.'],
    })
  })

  it('ignores undefined entries such as those in flattened field errors', () => {
    expect(resolveErrors({ default: { email: undefined, name: ['Required'] } }, null)).toEqual({
      name: 'Required',
    })
  })
})
