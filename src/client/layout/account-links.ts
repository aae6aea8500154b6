/** The customer account links shown in the header's account menu and the mobile menu (spec §2). */

export interface AccountLink {
  href: string
  label: string
  /** Rendered but not shown (spec: "/orders (Buy Again, hidden)") */
  hidden?: boolean
}

export function accountLinks(cartName: string): AccountLink[] {
  return [
    { href: '/customer', label: 'Account Dashboard' },
    { href: '/customer/password/change', label: 'Change Your Password' },
    { href: '/customer/orders', label: 'View Order History/Reorder' },
    { href: '/customer/update', label: 'Edit Your Details' },
    { href: '/customer/invoices', label: 'Invoices' },
    { href: '/customer/marketing-preferences', label: 'Marketing Preferences' },
    { href: '/customer/carts', label: `Save & Load ${cartName || 'Basket'}` },
    { href: '/orders', label: 'Buy Again', hidden: true },
  ]
}
