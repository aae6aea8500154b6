import { describe, expect, it } from 'vitest'
import { ABSOLUTE_MS, IDLE_MS, sessionAlive } from './staff.sessions.ts'

describe('a staff session', () => {
  const start = Date.UTC(2026, 0, 1, 9, 0, 0)
  const at = (createdAt: number, lastSeenAt: number) => ({
    createdAt: new Date(createdAt),
    lastSeenAt: new Date(lastSeenAt),
  })

  it('lives while used within 30 minutes of its last request', () => {
    expect(sessionAlive(at(start, start), start + IDLE_MS - 1)).toBe(true)
    expect(sessionAlive(at(start, start), start + IDLE_MS)).toBe(false)
  })

  it('ends 12 hours after sign-in however busy it is', () => {
    const now = start + ABSOLUTE_MS
    expect(sessionAlive(at(start, now - 1000), now)).toBe(false)
    expect(sessionAlive(at(start, now - 1000), now - 1)).toBe(true)
  })
})
