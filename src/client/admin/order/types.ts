/** The order page's props (staff.orders.routes.ts, staff.order-page.ts). */
export interface Address {
  company: string
  address1: string
  address2: string
  town: string
  county: string
  postcode: string
  country: string
}

export interface OrderLine {
  id: number
  sku: string
  name: string
  quantity: number
  unitPrice: number
  lineTotal: number
  vat: number
  vatRate: number
  isFreeGift: boolean
  shipped: number
  remaining: number
  options: string[]
  preview: { url: string; alt: string } | null
  /** The designed sign's printable proof (PDF) */
  proof: string | null
}

export interface AdminOrder {
  number: number
  version: number
  site: string
  status: string
  paymentStatus: string
  fulfilmentStatus: string
  refundedMinor: number
  holdReason: string | null
  date: string
  method: string
  currency: string
  poNumber: string | null
  vatNumber: string | null
  notes: string
  contact: { first_name: string; last_name: string; email: string; phone: string; company: string }
  shippingAddress: Address
  billingAddress: Address
  delivery: string
  promotionCodes: string[]
  vatRelief: { name: string; condition: string; declaredAt: string } | null
  totals: Record<
    'goodsNet' | 'shippingNet' | 'shippingVat' | 'vat' | 'discount' | 'customisation' | 'total',
    number
  >
  lines: OrderLine[]
  attempts: {
    id: string
    method: string
    state: string
    amount: number
    currency: string
    reference: string
    resolution: string | null
    lastMessage: string | null
    createdAt: string
  }[]
  refunds: {
    id: string
    method: string
    how: string
    status: string
    amount: number
    currency: string
    reason: string
    by: string
    creditNote: number | null
    message: string | null
    at: string
  }[]
  shipments: {
    ref: string
    carrier: string
    trackingNumber: string
    trackingUrl: string | null
    shippedAt: string
    lines: string[]
  }[]
  invoice: { number: number; date: string; amount: number } | null
  allMails: { key: string; subject: string; to: string; status: string; sentAt: string | null }[]
  timeline: { id: number; type: string; actor: string; at: string; data: Record<string, unknown> }[]
  staffNotes: { id: number; by: string; at: string; text: string }[]
}

export interface RefundQuote {
  refundableMinor: number
  amountMinor: number
  currency: string
  form: Record<string, unknown>
}

export interface OrderPageProps {
  order: AdminOrder
  refundBy: string
  errors: Record<string, string>
  /** The action the errors or the notice belong to */
  action: string | null
  notice: string | null
  quote: RefundQuote | null
}
