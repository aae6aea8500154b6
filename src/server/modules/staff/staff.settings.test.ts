import { describe, expect, it } from 'vitest'
import { redirectFormSchema, webhookFormSchema, WEBHOOK_EVENT_TYPES } from '../../../shared/staff-settings.ts'
import { ORDER_EVENT_TYPES } from '../webhooks/webhooks.policy.ts'
import { contentKind } from './staff.settings.ts'

describe('the back office settings forms', () => {
  it('offers exactly the webhook events the server sends', () => {
    expect([...WEBHOOK_EVENT_TYPES]).toEqual([...ORDER_EVENT_TYPES])
  })

  it('takes one checked event as a list and refuses none or an unknown one', () => {
    const base = { url: 'https://erp.example/hooks' }
    expect(webhookFormSchema.parse({ ...base, eventTypes: 'order.placed' }).eventTypes).toEqual([
      'order.placed',
    ])
    expect(webhookFormSchema.safeParse({ ...base }).success).toBe(false)
    expect(webhookFormSchema.safeParse({ ...base, eventTypes: ['order.eaten'] }).success).toBe(false)
  })

  it('accepts a path or an http(s) address for a redirect, as the search service does', () => {
    expect(redirectFormSchema.safeParse({ query: 'exit', url: '/exit-signs' }).success).toBe(true)
    expect(redirectFormSchema.safeParse({ query: 'exit', url: 'https://x.example/a' }).success).toBe(true)
    expect(redirectFormSchema.safeParse({ query: 'exit', url: '//evil.example' }).success).toBe(false)
    expect(redirectFormSchema.safeParse({ query: 'exit', url: 'javascript:alert(1)' }).success).toBe(false)
  })

  it('tells pages, blog posts and the parts the shop reads as settings apart', () => {
    expect(contentKind('about-us')).toBe('page')
    expect(contentKind('blog/safety-week')).toBe('post')
    expect(contentKind('settings/site')).toBe('part')
    expect(contentKind('home')).toBe('part')
    expect(contentKind('homeware')).toBe('page')
  })
})
