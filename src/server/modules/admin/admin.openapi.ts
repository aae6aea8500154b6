/** The OpenAPI 3.1 description of the back-office API, served at /api/admin/v1/openapi.json. */
import { z } from 'zod'
import { skuRow } from './admin.catalog.ts'
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
const rowErrors = {
  description: 'Invalid batch: nothing was written. One entry per bad row and field.',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['message', 'errors'],
        properties: {
          message: { type: 'string' },
          errors: {
            type: 'array',
            items: {
              type: 'object',
              required: ['row', 'field', 'message'],
              properties: {
                row: { type: 'integer' },
                field: { type: 'string' },
                message: { type: 'string' },
              },
            },
          },
        },
      },
    },
  },
}
const unauthorised = { description: 'No token, an unknown token or a revoked token.' }
const forbidden = { description: "The token belongs to another site than the request's host." }
const secured = { security: [{ bearer: [] }], responses: { '401': unauthorised, '403': forbidden } }

/**
 * A body or row schema as JSON Schema, generated from the zod schema the server checks with, so
 * the document allows what the server accepts: whole numbers carry the bounds their columns hold
 * (ADR 0125). Text also refuses control characters and lone surrogates, which JSON Schema does
 * not express; such a value is a 422 naming the field.
 */
function rowSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _drop, ...json } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>
  return json
}

const upsertResult = {
  description: 'Applied in one transaction; visible on every instance',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: { created: { type: 'integer' }, updated: { type: 'integer' } },
      },
    },
  },
}

/** A JSON request body: its schema from zod and an example the API accepts. */
function jsonBody(schema: Record<string, unknown>, example: unknown) {
  return { required: true, content: { 'application/json': { schema, example } } }
}

/** `{items: [...]}` of rows, at most `max`. */
function batchSchema(row: z.ZodType, max: number) {
  return {
    type: 'object',
    required: ['items'],
    additionalProperties: false,
    properties: { items: { type: 'array', maxItems: max, items: rowSchema(row) } },
  }
}

/** PUT {items: [...]}: create or update by external key, one transaction per batch. */
function batchPut(summary: string, row: z.ZodType, example: unknown, max = 1000) {
  return {
    put: {
      ...secured,
      summary,
      requestBody: jsonBody(batchSchema(row, max), { items: [example] }),
      responses: { ...secured.responses, '200': upsertResult, '422': rowErrors },
    },
  }
}

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

const notFound = { description: 'No such object on this site' }
const storyblokConflict = { description: 'Content is managed in Storyblok (CONTENT_PROVIDER=storyblok)' }

export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Shop back-office API',
    version: '1',
    description:
      "Token-authenticated operations on one site (the token's site; send the site's host). Tokens: `npm run admin -- token create --site <host> --name <who>`.",
  },
  servers: [{ url: '/api/admin/v1' }],
  components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  paths: {
    '/catalog/skus': {
      put: {
        ...secured,
        summary: 'Create or update SKUs, matched by SKU code (idempotent), one transaction per batch',
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: batchSchema(skuRow, 5000), example: { items: [examples.sku] } },
            'text/csv': {
              schema: {
                type: 'string',
                description:
                  'Header row; columns sku, group, name, product_code, price_list (1-9:1000;10-24:900;25+:800), was_price, qty, minimum_order, published. Cells are checked by the same rules as the JSON fields.',
              },
              example: examples.skuCsv,
            },
          },
        },
        responses: { ...secured.responses, '200': upsertResult, '422': rowErrors },
      },
    },
    '/search/redirects': {
      put: {
        ...secured,
        summary: 'Add or replace a search redirect rule',
        requestBody: jsonBody(rowSchema(redirectRule), examples.redirect),
        responses: { ...secured.responses, '200': { description: 'Saved' }, '422': rowErrors },
      },
      delete: {
        ...secured,
        summary: 'Retire a search redirect rule',
        requestBody: jsonBody(rowSchema(redirectKey), { query: examples.redirect.query }),
        responses: {
          ...secured.responses,
          '200': { description: 'Removed (or was not there)' },
          '422': rowErrors,
        },
      },
    },
    '/catalog/categories': batchPut(
      'Create or update categories, matched by path (idempotent); a parent may be in the same batch',
      categoryRow,
      examples.category,
    ),
    '/catalog/groups': batchPut(
      'Create or update product groups, matched by path; a new group is listed in its primary category',
      groupRow,
      examples.group,
    ),
    '/promotions': batchPut(
      'Create or change promotions, matched by code (stored upper case); retire with DELETE or active: false',
      promotionRow,
      examples.promotion,
    ),
    '/promotions/{code}': {
      delete: {
        ...secured,
        summary: 'Retire a promotion (it stays on the orders that used it; baskets can no longer apply it)',
        parameters: [
          {
            name: 'code',
            in: 'path',
            required: true,
            schema: { type: 'string', maxLength: 40 },
            example: examples.promotion.code,
          },
        ],
        responses: { ...secured.responses, '200': { description: 'Retired' }, '404': notFound },
      },
    },
    '/delivery-rates': {
      ...batchPut(
        'Create or change delivery rates, matched by zone and despatch type',
        deliveryRateRow,
        examples.deliveryRate,
      ),
      delete: {
        ...secured,
        summary: 'Remove a delivery rate',
        requestBody: jsonBody(rowSchema(deliveryRateKey), {
          zone: examples.deliveryRate.zone,
          despatchType: examples.deliveryRate.despatchType,
        }),
        responses: {
          ...secured.responses,
          '200': { description: 'Removed' },
          '404': notFound,
          '422': rowErrors,
        },
      },
    },
    '/content/stories': {
      put: {
        ...batchPut(
          'Import content stories by full slug: saved as drafts, or published at once with publish: true',
          storyRow,
          examples.story,
          500,
        ).put,
        responses: {
          ...secured.responses,
          '200': { description: 'Imported; the cache version moved, every instance drops its content cache' },
          '409': storyblokConflict,
          '422': rowErrors,
        },
      },
    },
    '/content/publish': {
      post: {
        ...secured,
        summary: 'Publish the drafts of the given stories (all or none)',
        requestBody: jsonBody(rowSchema(publishRequest), examples.publish),
        responses: {
          ...secured.responses,
          '200': { description: 'Published; every instance shows it on its next page' },
          '409': storyblokConflict,
          '422': rowErrors,
        },
      },
    },
    '/search/reindex': {
      post: {
        ...secured,
        summary: "Rebuild the site's search index on every instance",
        responses: { ...secured.responses, '200': { description: 'Rebuilt' } },
      },
    },
  },
} as const
