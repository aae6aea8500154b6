import { describe, expect, it } from 'vitest'
import { attemptActions, parseAttentionCursor, refundActions } from './attention.ts'

describe('the actions a payment that needs attention offers', () => {
  it('asks the provider about an attempt whose outcome is not known yet', () => {
    for (const state of ['unknown', 'pending', 'requires_action'] as const)
      expect(attemptActions({ state, resolution: null })).toEqual(['reconcile'])
  })

  it('resolves money taken with no order, or being given back, and places the order of one held for a person', () => {
    expect(attemptActions({ state: 'captured', resolution: null })).toEqual(['resolve', 'give_back'])
    expect(attemptActions({ state: 'authorised', resolution: 'voiding' })).toEqual(['resolve'])
    expect(attemptActions({ state: 'captured', resolution: 'needs_attention' })).toEqual(['place'])
  })

  it('offers nothing for a payment that is settled one way or the other', () => {
    expect(attemptActions({ state: 'captured', resolution: 'order_placed' })).toEqual([])
    expect(attemptActions({ state: 'voided', resolution: 'voided' })).toEqual([])
    expect(attemptActions({ state: 'declined', resolution: null })).toEqual([])
  })

  it('asks the provider about an unconfirmed refund it made, never about a credit note or a settled refund', () => {
    expect(refundActions({ status: 'pending', attemptId: 'a' })).toEqual(['refund_status'])
    expect(refundActions({ status: 'unknown', attemptId: 'a' })).toEqual(['refund_status'])
    expect(refundActions({ status: 'pending', attemptId: null })).toEqual([])
    expect(refundActions({ status: 'succeeded', attemptId: 'a' })).toEqual([])
  })
})

describe('the payments page cursor', () => {
  it('reads the time and id of the last row shown, and nothing else', () => {
    const id = '0d3e0000-0000-4000-8000-00000000a771'
    expect(parseAttentionCursor(`1764300000000.${id}`)).toEqual({ at: new Date(1764300000000), id })
    expect(parseAttentionCursor('1764300000000.x')).toBeNull()
    expect(parseAttentionCursor(`${id}`)).toBeNull()
    expect(parseAttentionCursor(undefined)).toBeNull()
  })
})
