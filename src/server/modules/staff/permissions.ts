/**
 * What each staff role may do: one declared table, read by the server's preHandler on every
 * /admin route and by the pages (which hide what a role cannot do; the server refuses anyway).
 */
import type { StaffRole } from './staff.tables.ts'

export const PERMISSIONS = {
  /** See orders (list, search, the order page). */
  'orders.view': ['owner', 'staff', 'viewer'],
  /** Act on orders (hold, ship, cancel, refund: added with the order operations). */
  'orders.act': ['owner', 'staff'],
  /** Invite staff, change roles, disable accounts. */
  'staff.manage': ['owner'],
  /** Read the audit log. */
  'audit.read': ['owner'],
  /** See the content pages and posts of each site, and preview drafts. */
  'content.view': ['owner', 'staff', 'viewer'],
  /** Publish content. */
  'content.act': ['owner', 'staff'],
  /** See the search redirect rules. */
  'search.view': ['owner', 'staff', 'viewer'],
  /** Add and remove redirect rules; rebuild a site's search index. */
  'search.act': ['owner', 'staff'],
  /** API tokens: list, create (secret shown once), revoke. */
  'tokens.manage': ['owner'],
  /** Webhook endpoints: list, add, change, disable or enable, rotate the secret, deliveries. */
  'webhooks.manage': ['owner'],
  /** See the catalogue (find SKUs and product groups, their prices). */
  'catalogue.view': ['owner', 'staff', 'viewer'],
  /** Change prices, 'was' prices and publication; import a CSV. */
  'catalogue.edit': ['owner', 'staff'],
  /** See promotions and their uses. */
  'promotions.view': ['owner', 'staff', 'viewer'],
  /** Create, change and retire promotions. */
  'promotions.edit': ['owner', 'staff'],
  /** See delivery rates. */
  'delivery.view': ['owner', 'staff', 'viewer'],
  /** Change delivery rates. */
  'delivery.edit': ['owner', 'staff'],
  /** See customers (list, search, a customer's page). */
  'customers.view': ['owner', 'staff', 'viewer'],
  /** Reset a customer's two-factor, disable or re-enable their account. */
  'customers.act': ['owner', 'staff'],
  /** See the payments that need attention. */
  'payments.view': ['owner', 'staff', 'viewer'],
  /** Act on them: ask the provider now, resolve a taken payment, place its order. */
  'payments.act': ['owner', 'staff'],
} as const satisfies Record<string, readonly StaffRole[]>

export type StaffAction = keyof typeof PERMISSIONS

export const STAFF_ACTIONS = Object.keys(PERMISSIONS) as StaffAction[]

export function can(role: StaffRole, action: StaffAction): boolean {
  return (PERMISSIONS[action] as readonly StaffRole[]).includes(role)
}

/** The actions a role may take, for the pages' navigation and buttons. */
export function permissionsOf(role: StaffRole): StaffAction[] {
  return STAFF_ACTIONS.filter((a) => can(role, a))
}

/**
 * Who may reach a route: `anonymous` (sign in, accept an invitation), a session part-way through
 * its login (`setup`: two-factor still to set up; `challenge`: code asked), `signed-in` (any full
 * session: sign out), or an action from the table above.
 */
export type StaffAccess = 'anonymous' | 'setup' | 'challenge' | 'signed-in' | StaffAction
