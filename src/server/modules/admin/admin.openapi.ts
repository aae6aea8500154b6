/** The OpenAPI 3.1 description of the back-office API, served at /api/admin/v1/openapi.json. */
import { z } from 'zod'
import { categoryRow, deliveryRateRow, groupRow, promotionRow, storyRow } from './admin.operations.ts'
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

const priceBreak = {
  type: 'object',
  required: ['lowerQty', 'higherQty', 'price', 'name'],
  properties: {
    lowerQty: { type: 'integer', minimum: 1 },
    higherQty: { type: ['integer', 'null'], minimum: 1 },
    price: { type: 'integer', minimum: 0, description: 'Unit price in minor units, ex VAT' },
    name: { type: 'string' },
  },
}

/** A row schema as JSON Schema, generated from the zod schema the server checks with. */
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

/** PUT {items: [...]}: create or update by external key, one transaction per batch. */
function batchPut(summary: string, row: z.ZodType, max = 1000) {
  return {
    put: {
      ...secured,
      summary,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['items'],
              additionalProperties: false,
              properties: { items: { type: 'array', maxItems: max, items: rowSchema(row) } },
            },
          },
        },
      },
      responses: { ...secured.responses, '200': upsertResult, '422': rowErrors },
    },
  }
}

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
            'application/json': {
              schema: {
                type: 'object',
                required: ['items'],
                properties: {
                  items: {
                    type: 'array',
                    maxItems: 5000,
                    items: {
                      type: 'object',
                      required: ['sku'],
                      additionalProperties: false,
                      properties: {
                        sku: { type: 'string' },
                        group: {
                          type: 'string',
                          description: "The product group's path; required for a new SKU",
                        },
                        name: { type: 'string' },
                        productCode: { type: 'string' },
                        priceList: { type: 'array', items: priceBreak },
                        wasPrice: { type: ['integer', 'null'] },
                        qty: { type: 'integer' },
                        minimumOrder: { type: 'integer' },
                        published: { type: 'boolean' },
                      },
                    },
                  },
                },
              },
            },
            'text/csv': {
              schema: {
                type: 'string',
                description:
                  'Header row; columns sku, group, name, product_code, price_list (1-9:1000;10-24:900;25+:800), was_price, qty, minimum_order, published',
              },
            },
          },
        },
        responses: {
          ...secured.responses,
          '200': {
            description: 'Imported',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { created: { type: 'integer' }, updated: { type: 'integer' } },
                },
              },
            },
          },
          '422': rowErrors,
        },
      },
    },
    '/search/redirects': {
      put: {
        ...secured,
        summary: 'Add or replace a search redirect rule',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['query', 'url'],
                properties: { query: { type: 'string' }, url: { type: 'string' } },
              },
            },
          },
        },
        responses: { ...secured.responses, '200': { description: 'Saved' }, '422': rowErrors },
      },
      delete: {
        ...secured,
        summary: 'Retire a search redirect rule',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', required: ['query'], properties: { query: { type: 'string' } } },
            },
          },
        },
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
    ),
    '/catalog/groups': batchPut(
      'Create or update product groups, matched by path; a new group is listed in its primary category',
      groupRow,
    ),
    '/promotions': batchPut(
      'Create or change promotions, matched by code (stored upper case); retire with DELETE or active: false',
      promotionRow,
    ),
    '/promotions/{code}': {
      delete: {
        ...secured,
        summary: 'Retire a promotion (it stays on the orders that used it; baskets can no longer apply it)',
        parameters: [{ name: 'code', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { ...secured.responses, '200': { description: 'Retired' }, '404': notFound },
      },
    },
    '/delivery-rates': {
      ...batchPut('Create or change delivery rates, matched by zone and despatch type', deliveryRateRow),
      delete: {
        ...secured,
        summary: 'Remove a delivery rate',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['zone', 'despatchType'],
                properties: { zone: { type: 'string' }, despatchType: { type: 'string' } },
              },
            },
          },
        },
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
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['slugs'],
                properties: {
                  slugs: { type: 'array', minItems: 1, maxItems: 500, items: { type: 'string' } },
                },
              },
            },
          },
        },
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
