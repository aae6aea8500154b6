import { describe, expect, it } from 'vitest'
import { can, PERMISSIONS, permissionsOf, STAFF_ACTIONS } from './permissions.ts'
import { STAFF_ROLES } from './staff.tables.ts'

describe('staff permissions', () => {
  it('lets the owner do everything the table declares', () => {
    for (const action of STAFF_ACTIONS) expect(can('owner', action)).toBe(true)
  })

  it('lets a viewer only look, never act', () => {
    expect(permissionsOf('viewer')).toContain('orders.view')
    for (const action of permissionsOf('viewer')) expect(action).toMatch(/\.view$/)
  })

  it('keeps API tokens and webhook endpoints to the owner', () => {
    for (const action of ['tokens.manage', 'webhooks.manage'] as const) {
      expect(can('staff', action)).toBe(false)
      expect(can('viewer', action)).toBe(false)
    }
    expect(can('staff', 'content.act')).toBe(true)
    expect(can('viewer', 'search.act')).toBe(false)
  })

  it('lets staff act on customers and payments', () => {
    expect(can('staff', 'customers.act')).toBe(true)
    expect(can('staff', 'payments.act')).toBe(true)
    expect(can('viewer', 'customers.act')).toBe(false)
    expect(can('viewer', 'payments.act')).toBe(false)
  })

  it('keeps staff management and the audit log to the owner', () => {
    expect(can('staff', 'staff.manage')).toBe(false)
    expect(can('staff', 'audit.read')).toBe(false)
    expect(can('staff', 'orders.act')).toBe(true)
  })

  it('names only known roles in the table', () => {
    for (const roles of Object.values(PERMISSIONS))
      for (const role of roles) expect(STAFF_ROLES).toContain(role)
  })
})
