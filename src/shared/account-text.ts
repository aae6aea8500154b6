/**
 * The account area's texts, status names and marketing preferences, without zod: the account
 * pages import these from here so the browser does not load the schema library for pages that
 * only show text (shared/account.ts re-exports them for the server).
 */
export const ACCOUNT_TEXT = {
  home: 'My Account Home',
  noOrders: 'You have no recent orders.',
  noInvoices: 'You have no invoices.',
  noCards: 'No saved cards.',
  noItems: 'No items in your basket',
  noBaskets: 'You have no saved baskets.',
  unavailable: 'Currently Unavailable For ReOrder',
  viewProduct: 'View Product',
  cartUpdated: 'Cart updated!',
  cartFailed: 'Errors occurred when updating your cart',
  cartDeleted: 'Basket deleted.',
  preferencesUpdated: 'Preferences updated!',
  preferencesFailed: 'Errors occurred when updating your preferences',
  cardRemoved: 'Card removed successfully',
  cardFailed: 'There was a problem deleting your card',
  passwordChanged: 'Your password has been changed. Other devices have been logged out.',
  passwordFailed: 'Failed to update password. Please try again.',
  currentPasswordWrong: 'The provided password does not match your current password.',
  reorderAdded: (n: number) => `${n} item${n === 1 ? '' : 's'} added to your basket.`,
  reorderNothing: 'Nothing from this order can be reordered.',
  loginRequired: 'Please log in to use your account.',
  verifyRequired: 'Please verify your email address to use your account.',
  orderConfirmed: 'Thank you: the order is now in your order history.',
  /** A deleted contact or address, named: 'Deleted the shipping address: 1 Quay Street, Poole.' */
  entryDeleted: (noun: string, what: string) => `Deleted the ${noun}: ${what}.`,
  /** The question before deleting one (WCAG 3.3.4: nothing is deleted by one slip) */
  entryDeleteAsk: (noun: string, what: string) => `Delete this ${noun}? ${what}`,
} as const

/** maginus_status as shown (spec §4), word for word. */
/** The account pages' greeting: the customer's first name, else their e-mail address. */
export function accountGreeting(customer: { firstName: string | null; email: string }): string {
  return `Hello, ${customer.firstName || customer.email}`
}

export function orderStatusText(status: number | null): string {
  switch (status) {
    case 1:
      return "ORDER HELD (we're checking a few things)"
    case 2:
      return 'COMPLETED/SHIPPED'
    case 3:
      return 'ORDER CANCELLED/REJECTED (check email)'
    default:
      return 'BEING PROCESSED'
  }
}

/** The named marketing preferences a customer can choose (spec §3: name, description, status). */
export const MARKETING_PREFERENCES = [
  {
    name: 'email',
    label: 'Email',
    description: 'Offers, new products and safety news by email, at most once a week.',
  },
  {
    name: 'post',
    label: 'Post',
    description: 'Our printed catalogue and seasonal offers by post, a few times a year.',
  },
  {
    name: 'sms',
    label: 'Text messages',
    description: 'Flash sales and delivery reminders by text message to your primary contact number.',
  },
] as const
export type MarketingPreferenceName = (typeof MARKETING_PREFERENCES)[number]['name']

/** The smallest quantity of a line in a reorder. */
export const REORDER_QUANTITY_MIN = 1
