/** The props every back-office page gets from the server (staff.http.ts `renderAdmin`). */
export interface AdminShared {
  csrfToken: string
  user: { name: string; email: string; role: string } | null
  permissions: string[]
}

export function adminProps(props: Record<string, unknown>): { admin: AdminShared } {
  const admin = (props.admin as AdminShared | undefined) ?? { csrfToken: '', user: null, permissions: [] }
  return { admin }
}

/** The back office's own CSRF header (not the shop's XSRF cookie), sent with every change. */
export function csrfHeaders(admin: AdminShared): Record<string, string> {
  return { 'X-Admin-CSRF': admin.csrfToken }
}

export function formatDateTime(iso: string): string {
  return (
    new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) +
    ' UTC'
  )
}
