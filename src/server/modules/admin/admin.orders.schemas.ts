/** The zod schemas of the order routes (ADR 0220): what they accept and answer, and so the document. */
import { z } from 'zod'
import { FULFILMENT_STATUSES, ORDER_STATUSES, PAYMENT_STATUSES } from '../orders/orders.tables.ts'
import { withExample } from './admin.document.ts'
import { field, int4, money } from './admin.fields.ts'
import { pageMeta } from './admin.feed.ts'
import { messageAnswer, rowErrorsAnswer, securedAnswers } from './admin.schemas.ts'

export const orderNumberParam = z.object({
  number: z.coerce
    .number({ error: 'must be an order number' })
    .int('must be an order number')
    .min(1, 'must be an order number')
    .max(Number.MAX_SAFE_INTEGER, 'must be an order number')
    .meta({ examples: [100001] }),
})

export const statusParam = z
  .string()
  .max(300)
  .transform((v) => v.split(',').map((s) => s.trim()))
  .pipe(z.array(z.enum(ORDER_STATUSES, { error: `must be statuses among ${ORDER_STATUSES.join(', ')}` })))
  .optional()
  .describe(`Only these statuses, comma-separated (${ORDER_STATUSES.join(', ')})`)

const reason = field().trim().min(1).max(500)
const lines = z
  .array(z.object({ lineId: int4({ min: 1 }), quantity: int4({ min: 1 }) }).strict())
  .min(1)
  .max(500)

export const acknowledgeBody = withExample(z.object({ erpRef: field().trim().min(1).max(100) }).strict(), {
  erpRef: 'SO-48213',
})
export const holdBody = withExample(z.object({ reason }).strict(), {
  reason: 'Address check with the customer',
})
export const cancelBody = withExample(z.object({ reason }).strict(), { reason: 'Customer asked to cancel' })

export const shipmentBody = withExample(
  z
    .object({
      shipmentRef: field().trim().min(1).max(100),
      carrier: field().trim().min(1).max(100),
      trackingNumber: field().trim().min(1).max(100),
      trackingUrl: z
        .url({ protocol: /^https$/, error: 'must be an https URL' })
        .max(2000)
        .nullable()
        .optional(),
      shippedAt: z.iso
        .datetime({ offset: true, error: 'must be a date-time like 2026-03-31T09:00:00Z' })
        .optional(),
      lines: lines.optional().describe('Absent: all that remains to be shipped'),
    })
    .strict(),
  {
    shipmentRef: 'DESP-1',
    carrier: 'Royal Mail',
    trackingNumber: 'RM123456789GB',
    trackingUrl: 'https://track.example/RM123456789GB',
  },
)

const amountOrLines = {
  amountMinor: money().optional().describe('An amount in minor units; or give lines'),
  lines: lines.optional().describe('Lines and quantities to refund at their prices; or give amountMinor'),
}
const oneOf = (v: { amountMinor?: number; lines?: unknown[] }) => !(v.amountMinor !== undefined && v.lines)
export const quoteBody = withExample(
  z.object(amountOrLines).strict().refine(oneOf, { message: 'give amountMinor or lines, not both' }),
  { amountMinor: 500 },
)
export const refundBody = withExample(
  z
    .object({ ...amountOrLines, reason })
    .strict()
    .refine(oneOf, { message: 'give amountMinor or lines, not both' }),
  { amountMinor: 500, reason: 'Damaged in transit' },
)

export const statusBody = withExample(
  z
    .object({
      maginusStatus: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'must be 1, 2 or 3' }),
      reason: reason.optional(),
      shipment: z
        .object({
          shipmentRef: field().trim().min(1).max(100),
          carrier: field().trim().min(1).max(100),
          trackingNumber: field().trim().min(1).max(100),
          trackingUrl: z
            .url({ protocol: /^https$/ })
            .max(2000)
            .optional(),
        })
        .strict()
        .optional()
        .describe('For status 2: the shipment of all that remains'),
    })
    .strict(),
  { maginusStatus: 1, reason: 'Credit check' },
)

export const invoiceBody = withExample(
  z
    .object({
      invoiceDate: z.iso
        .date({ error: 'must be a date like 2026-03-31' })
        .or(z.iso.datetime({ offset: true })),
      amountMinor: money(),
      pdfBase64: z
        .string()
        .max(7_000_000)
        .optional()
        .describe('The invoice as a PDF, base64; omitted: the shop draws it from the invoice'),
    })
    .strict(),
  { invoiceDate: '2026-03-31', amountMinor: 12000 },
)

// --- Answers ----------------------------------------------------------------------------------

export const summaryAnswer = z
  .object({
    number: z.number().int(),
    status: z.enum(ORDER_STATUSES),
    version: z.number().int(),
    paymentStatus: z.enum(PAYMENT_STATUSES),
    fulfilmentStatus: z.enum(FULFILMENT_STATUSES),
  })
  .describe('Done; the order as it is now (its ETag is in the header)')

export const orderWriteAnswers = {
  200: summaryAnswer,
  ...securedAnswers,
  400: messageAnswer('No Idempotency-Key, or an ill-formed Idempotency-Key or If-Match'),
  404: messageAnswer('No such order on this site'),
  409: messageAnswer('The order cannot make this change now (the message says why), or the key is in use'),
  412: messageAnswer('The order changed since the If-Match version: read it again'),
  422: rowErrorsAnswer,
  428: messageAnswer('A state change needs If-Match'),
}

export const quoteAnswer = z
  .object({ refundableMinor: z.number().int(), amountMinor: z.number().int(), currency: z.string() })
  .describe('What the refund would give back; nothing changed')

const feedOrder = z.object({
  number: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  version: z.number().int(),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  fulfilmentStatus: z.enum(FULFILMENT_STATUSES),
  maginusStatus: z.number().int().nullable(),
  erpRef: z.string().nullable(),
  erpAcknowledgedAt: z.string().nullable(),
  currency: z.string(),
  totalIncVat: z.number().int(),
  orderDate: z.string(),
  updatedAt: z.string(),
})

export const ordersPageAnswer = z
  .object({ orders: z.array(feedOrder), ...pageMeta })
  .describe('One page of the feed')

const json = z.record(z.string(), z.unknown())
const address = z.object({
  company: z.string(),
  address1: z.string(),
  address2: z.string(),
  town: z.string(),
  county: z.string(),
  postcode: z.string(),
  country: z.string(),
})

export const orderDetailAnswer = feedOrder
  .extend({
    placedAsGuest: z.boolean(),
    customerId: z.number().int().nullable(),
    paymentMethod: z.string(),
    poNumber: z.string().nullable(),
    vatNumber: z.string().nullable(),
    notes: z.string(),
    holdReason: z.string().nullable(),
    cancelReason: z.string().nullable(),
    contact: z.object({
      first_name: z.string(),
      last_name: z.string(),
      email: z.string(),
      phone: z.string(),
      company: z.string(),
    }),
    shippingAddress: address,
    billingAddress: address,
    delivery: z.object({
      despatchType: z.string(),
      name: z.string(),
      netMinor: z.number().int(),
      vatMinor: z.number().int(),
      incVatMinor: z.number().int(),
    }),
    promotion: z.object({ codes: z.array(z.string()), discountExVatMinor: z.number().int() }),
    vatRelief: z.object({ applied: z.boolean(), declaration: json.nullable() }),
    totals: z.object({
      goodsNetMinor: z.number().int(),
      customisationChargeMinor: z.number().int(),
      shippingNetMinor: z.number().int(),
      vatMinor: z.number().int(),
      discountMinor: z.number().int(),
      totalIncVatMinor: z.number().int(),
      refundedMinor: z.number().int(),
    }),
    lines: z.array(
      z.object({
        lineId: z.number().int(),
        sku: z.string(),
        name: z.string(),
        quantity: z.number().int(),
        isFreeGift: z.boolean(),
        vatRate: z.number(),
        unitPriceExVat: z.number().int(),
        unitPriceIncVat: z.number().int(),
        lineTotalExVat: z.number().int(),
        lineVat: z.number().int(),
        lineTotalIncVat: z.number().int(),
        lineTotalBeforeDiscountExVat: z.number().int(),
        options: z.array(z.object({ id: z.number(), title: z.string(), name: z.string(), cost: z.number() })),
        design: z
          .object({
            sign: json.nullable(),
            workwear: json.nullable(),
            previewSvg: z.string(),
            previewAlt: z.string(),
          })
          .nullable()
          .describe("A builder line's design as ordered (sign or workwear), with its preview"),
      }),
    ),
    workwearDesigns: z.array(
      z.object({ sessionId: z.string(), design: json, logoKey: z.string().nullable() }),
    ),
    payments: z.array(
      z.object({
        provider: z.string(),
        amountMinor: z.number().int(),
        authCode: z.string(),
        message: z.string(),
        at: z.string(),
      }),
    ),
    shipments: z.array(
      z.object({
        shipmentRef: z.string(),
        carrier: z.string(),
        trackingNumber: z.string().nullable().describe('Null: the parcel was sent without one'),
        trackingUrl: z.string().nullable(),
        shippedAt: z.string(),
        lines: z.array(z.object({ lineId: z.number().int(), quantity: z.number().int() })),
      }),
    ),
    invoice: z
      .object({ invoiceNumber: z.number().int(), invoiceDate: z.string(), amountMinor: z.number().int() })
      .nullable(),
  })
  .describe('The order; ETag: "v<version>"')
