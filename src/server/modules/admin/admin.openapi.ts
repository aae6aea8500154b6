/** The OpenAPI 3.1 description of the back-office API, served at /api/admin/v1/openapi.json. */
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
    '/search/reindex': {
      post: {
        ...secured,
        summary: "Rebuild the site's search index on every instance",
        responses: { ...secured.responses, '200': { description: 'Rebuilt' } },
      },
    },
  },
} as const
