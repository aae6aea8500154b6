/**
 * The zod schemas of the back-office API's shared shapes: the batch bodies, the answers and the
 * examples the OpenAPI document shows. The routes validate with these schemas
 * (`fastify-type-provider-zod`) and `@fastify/swagger` writes the document from the same
 * schemas, so what the document allows is what the server accepts (ADR 0125, ADR 0220).
 */
import { z } from 'zod'
import { skuRow } from './admin.catalog.ts'
import { withExample } from './admin.document.ts'
import {
  categoryRow,
  deliveryRateKey,
  deliveryRateRow,
  groupRow,
  promotionRow,
  publishRequest,
  redirectKey,
  redirectRule,
  storyRow,
} from './admin.operations.ts'

/**
 * The examples form one story that the API accepts in this order (tests/http/admin-bounds.test.ts
 * sends them): a category, a product group in it, a SKU in the group, then the rest.
 */
export const examples = {
  category: { url: '/example-signs', name: 'Example signs', parent: null, position: 10, published: true },
  group: {
    url: '/example-signs/exit-sign',
    name: 'Exit sign',
    category: '/example-signs',
    shortDescription: 'A photoluminescent fire exit sign.',
    published: true,
  },
  sku: {
    sku: 'EX-100',
    group: '/example-signs/exit-sign',
    name: 'Exit sign 200x100mm',
    productCode: 'EX100',
    priceList: [
      { lowerQty: 1, higherQty: 9, price: 1250, name: '1-9' },
      { lowerQty: 10, higherQty: null, price: 990, name: '10+' },
    ],
    wasPrice: 1500,
    qty: 40,
    minimumOrder: 1,
    published: true,
  },
  skuCsv:
    'sku,group,name,product_code,price_list,was_price,qty,minimum_order,published\n' +
    'EX-101,/example-signs/exit-sign,Exit sign 300x150mm,EX101,1-9:1450;10+:1190,1600,25,1,true\n',
  promotion: {
    code: 'SPRING10',
    description: '10% off in spring',
    kind: 'percentage',
    value: 10,
    giftSku: null,
    minimumSpend: 5000,
    startsAt: '2026-03-01T00:00:00Z',
    endsAt: '2026-06-01T00:00:00Z',
    usageLimit: 100,
    active: true,
  },
  deliveryRate: {
    zone: 'UK',
    despatchType: 'standard',
    name: 'Standard delivery',
    price: 495,
    freeOver: 5000,
    position: 1,
  },
  story: {
    fullSlug: 'about-us',
    name: 'About us',
    content: { component: 'page', body: [] },
    publish: false,
    tagList: ['company'],
    position: 1,
    sortByDate: '2026-03-31',
  },
  publish: { slugs: ['about-us'] },
  redirect: { query: 'fire exit', url: '/example-signs/exit-sign' },
} as const

/** `{items: [...]}`: between one and `max` rows, each checked by the row schema. */
export function batchOf(row: z.ZodType, max: number, example: unknown) {
  return withExample(
    z
      .object({
        items: z.array(row).min(1, 'the batch is empty').max(max, `at most ${max} rows a batch`),
      })
      .strict(),
    { items: [example] },
  )
}

export const bodies = {
  skus: batchOf(skuRow, 5000, examples.sku),
  skusCsv: withExample(
    z
      .string()
      .max(10 * 1024 * 1024)
      .describe(
        'Header row; columns sku, group, name, product_code, price_list (1-9:1000;10-24:900;25+:800), was_price, qty, minimum_order, published. Cells are checked by the same rules as the JSON fields.',
      ),
    examples.skuCsv,
  ),
  categories: batchOf(categoryRow, 1000, examples.category),
  groups: batchOf(groupRow, 1000, examples.group),
  promotions: batchOf(promotionRow, 1000, examples.promotion),
  deliveryRates: batchOf(deliveryRateRow, 1000, examples.deliveryRate),
  deliveryRateKey: withExample(deliveryRateKey, {
    zone: examples.deliveryRate.zone,
    despatchType: examples.deliveryRate.despatchType,
  }),
  stories: batchOf(storyRow, 500, examples.story),
  publish: withExample(publishRequest, examples.publish),
  redirect: withExample(redirectRule, examples.redirect),
  redirectKey: withExample(redirectKey, { query: examples.redirect.query }),
}

// --- Answers ----------------------------------------------------------------------------------

/** Every refusal carries a message a person can read. */
export const messageAnswer = (description: string) => z.object({ message: z.string() }).describe(description)

export const rowErrorsAnswer = z
  .object({
    message: z.string(),
    errors: z.array(z.object({ row: z.number().int(), field: z.string(), message: z.string() })),
  })
  .describe('Invalid request: nothing was written. One entry per bad row (0 outside a batch) and field.')

export const okAnswer = (description: string) => z.object({ ok: z.literal(true) }).describe(description)

export const upsertAnswer = z
  .object({ created: z.number().int(), updated: z.number().int() })
  .describe('Applied in one transaction; visible on every instance')

/** The answers every operation with a token may give. */
export const securedAnswers = {
  401: messageAnswer('No token, an unknown token or a revoked token.'),
  403: messageAnswer("The token belongs to another site than the request's host."),
}

/** The answers of a write: the token's, a bad value, and the Idempotency-Key's (ADR 0220). */
export const writeAnswers = {
  ...securedAnswers,
  400: messageAnswer('An ill-formed Idempotency-Key or If-Match header.'),
  409: messageAnswer('A request with this Idempotency-Key is still being processed.'),
  422: rowErrorsAnswer,
}

/** The optional `Idempotency-Key` header, as the document shows it. */
export const idempotencyHeader = (required: boolean) =>
  z.object({
    'idempotency-key': (required ? z.string() : z.string().optional()).describe(
      'A unique key per intended change (1-255 printable characters, e.g. a UUID). The same key and request again answers the first answer (Idempotent-Replayed: true) without repeating the change; kept 24 hours.',
    ),
  })

/** A customer's sign-in standing, in the customers feed and the standing actions' answers. */
export const standingAnswer = z
  .object({
    disabled: z.boolean().describe('A disabled account cannot sign in'),
    twoFactor: z.boolean().describe('Two-factor is set up'),
    twoFactorResetPending: z
      .boolean()
      .describe('Two-factor was reset: the customer sets it up again at their next sign-in'),
  })
  .describe("The customer's sign-in standing")
