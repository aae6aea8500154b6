/**
 * The customer account area (spec checkout-and-account.md §2 "Customer area", §3, §4 "Order
 * status" and "Account", §5, §7, §8): texts, page props and the payloads of its calls. Shared by
 * the server (every request) and the browser.
 */
import { z } from 'zod'
import { AUTH_MESSAGES, isStrongPassword, PASSWORD_MAX } from './auth.ts'
import type { Country, CustomerData } from './customer.ts'
import type { OrderTotals } from './order-totals.ts'
import { text } from './text.ts'

import { MARKETING_PREFERENCES, REORDER_QUANTITY_MIN, type MarketingPreferenceName } from './account-text.ts'

export {
  ACCOUNT_TEXT,
  accountGreeting,
  MARKETING_PREFERENCES,
  orderStatusText,
  type MarketingPreferenceName,
} from './account-text.ts'

export interface MarketingPreference {
  name: MarketingPreferenceName
  label: string
  description: string
  status: boolean
  /** When it was last changed (ISO), null when never chosen */
  updatedAt: string | null
}

// --- orders ---------------------------------------------------------------------------------

export interface OrderSummary {
  id: number
  OrderNumber: number
  orderDate: string
  maginus_status: number | null
  statusText: string
  /** What was charged, inc VAT (totalCostIncTax plus totalShippingCost) */
  total: number
  itemCount: number
  currency: 'GBP' | 'USD'
}

/** What reordering a line would do today (spec §4: published with price above 0, unpublished, missing). */
export type ReorderState = 'available' | 'unpublished' | 'missing'

export interface AccountOrderLine {
  id: number
  sku: string
  name: string
  quantity: number
  /** As ordered, ex VAT */
  line_item_cost: number
  line_total: number
  /** The line before its share of any discount, ex VAT: what the totals' goods line adds up */
  line_total_ex_discount: number
  options: string[]
  reorder: ReorderState
  /** Today's unit price ex VAT for the ordered quantity (available lines) */
  todayUnitPrice: number | null
  /** The product page (available) or its category (unpublished) */
  url: string | null
  minimumOrder: number
}

/** A parcel sent for the order (issue 33): its tracking link only when the shop trusts it (https). */
export interface AccountShipment {
  carrier: string
  /** Null: sent without a tracking number */
  trackingNumber: string | null
  trackingUrl: string | null
  shippedAt: string
  lines: { sku: string; name: string; quantity: number }[]
}

/** Money given back for the order: done, or pending with the provider. */
export interface AccountRefund {
  amount: number
  date: string
  status: 'pending' | 'done'
}

export interface AccountOrder extends OrderSummary {
  lines: AccountOrderLine[]
  shipments: AccountShipment[]
  refunds: AccountRefund[]
  goodsNet: number
  shipping: number
  vat: number
  discount: number
  /** The totals as shown: lines that add up to the total (shared/order-totals.ts) */
  totals: OrderTotals
  deliveryName: string
  poNumber: string | null
  paymentMethod: string
  shippingAddress: Record<string, string>
  billingAddress: Record<string, string>
  contact: Record<string, string>
  Notes: string
  invoiceNumber: number | null
}

export const reorderSchema = z.object({
  /** Lines to add (per-line reorder); absent: the whole order replaces the basket */
  items: z
    .array(
      z.object({
        id: z.number().int().positive(),
        quantity: z
          .number({ error: 'Please enter a quantity.' })
          .int('Please enter a whole number.')
          .min(REORDER_QUANTITY_MIN, `The quantity must be at least ${REORDER_QUANTITY_MIN}.`)
          .max(9999, 'The quantity may not be greater than 9999.'),
      }),
    )
    .min(1)
    .max(100)
    .optional(),
})

// --- invoices --------------------------------------------------------------------------------

export interface InvoiceSummary {
  Invoice_Number: number
  Invoice_Date: string
  Invoice_Amount: number
  OrderNumber: number
  currency: 'GBP' | 'USD'
}

export interface InvoiceView extends InvoiceSummary {
  lines: { sku: string; name: string; quantity: number; unitPrice: number; lineTotal: number; vat: number }[]
  goodsNet: number
  shippingNet: number
  vat: number
  /** The totals as shown: lines that add up to the invoice amount (shared/order-totals.ts) */
  totals: OrderTotals
  billingAddress: Record<string, string>
  pdfUrl: string
}

// --- saved baskets ---------------------------------------------------------------------------

export interface SavedBasket {
  id: string
  basketName: string
  created: string
  items: { product: { id: number; sku: string; name: string }; quantity: number; line_total: number }[]
  itemCount: number
  /** Today's prices, ex VAT and inc VAT */
  total: number
  totalIncTax: number
}

export const idSchema = z.object({ id: z.number({ error: 'The id is not valid.' }).int().positive() })
export const cartIdSchema = z.object({
  cart: z.string({ error: 'Choose a basket.' }).uuid('Choose a basket.'),
})
export const destroyCartSchema = z.object({
  id: z.string({ error: 'Choose a basket.' }).uuid('Choose a basket.'),
})

// --- marketing ---------------------------------------------------------------------------------

const prefName = z.enum(MARKETING_PREFERENCES.map((p) => p.name) as [MarketingPreferenceName])
export const marketingUpdateSchema = z.object({
  preferences: z
    .array(z.object({ name: prefName, status: z.boolean({ error: 'Choose yes or no.' }) }))
    .min(1, 'Choose at least one preference.')
    .max(MARKETING_PREFERENCES.length)
    .refine((list) => new Set(list.map((p) => p.name)).size === list.length, 'Each preference once.'),
})

// --- password ------------------------------------------------------------------------------------

export const changePasswordSchema = z
  .object({
    current_password: text({ error: AUTH_MESSAGES.required })
      .min(1, AUTH_MESSAGES.required)
      .max(PASSWORD_MAX, AUTH_MESSAGES.tooLong(PASSWORD_MAX)),
    password: text({ error: AUTH_MESSAGES.required })
      .min(1, AUTH_MESSAGES.required)
      .max(PASSWORD_MAX, AUTH_MESSAGES.tooLong(PASSWORD_MAX))
      .refine(isStrongPassword, AUTH_MESSAGES.password),
    password_confirmation: text({ error: AUTH_MESSAGES.required }).min(1, AUTH_MESSAGES.required),
  })
  .refine((v) => v.password === v.password_confirmation, {
    message: AUTH_MESSAGES.passwordMismatch,
    path: ['password_confirmation'],
  })

// --- page props ----------------------------------------------------------------------------------

export type AccountPageBase = {
  greeting: string
}

export type MyAccountProps = AccountPageBase & {
  counts: { orders: number; invoices: number; baskets: number; cards: number }
  lastOrder: OrderSummary | null
  twoFactorEnabled: boolean
}

export type OrdersProps = AccountPageBase & {
  orders: OrderSummary[]
  order: AccountOrder | null
}

export type InvoicesProps = AccountPageBase & {
  invoices: InvoiceSummary[]
  invoice: InvoiceView | null
}

export type CartsProps = AccountPageBase & {
  baskets: SavedBasket[]
}

export type EditDetailsProps = AccountPageBase & {
  user: CustomerData
  countries: Country[]
  club: boolean
  cards: { id: number; last4Digits: string; cardType: string; expiry: string }[]
}

export type MarketingProps = AccountPageBase & {
  preferences: MarketingPreference[]
}
