/**
 * 'Design A Sign' (page `SignDesigner`, title 'Design A Sign'): GET /design-a-sign/{category}
 * (?item_id= reopens a basket line), the legacy add call POST /design-a-sign/add (with item_id:
 * the design replaces that line, or the whole numbered set it belongs to), and for a line of the
 * visitor's basket its preview (/design-a-sign/preview/{id}.svg) and PDF proof
 * (/design-a-sign/proof/{id}.pdf). Another visitor's line is not found.
 */
import type { FastifyInstance } from 'fastify'
import type { CartItemRow } from '../cart/cart.tables.ts'
import { answerCart, cartContext, idFrom, NOT_FOUND, parseBody, SVG_HEADERS } from './builders.http.ts'
import { storedSignProof } from './sign-proof.ts'
import {
  designerProps,
  loadSignCategory,
  signAddSchema,
  signLines,
  SignDesignError,
} from './signs.service.ts'

/** With one sign in the request, its fields are named as the designer names them ('lines', 'type'). */
function singleItemField(body: unknown): ((key: string) => string) | undefined {
  const items = (body as { items?: unknown } | null)?.items
  if (!Array.isArray(items) || items.length !== 1) return undefined
  return (key) => key.replace(/^items\.0\.(design\.)?/, '')
}

const isSign = (item: CartItemRow) => !!item.printableSign?.design && !!item.printableSign.printableSVG

export async function signRoutes(app: FastifyInstance) {
  app.addHook('preHandler', async (request, reply) => {
    if (!request.site) return reply.callNotFound()
  })

  app.get<{ Params: { categoryId: string }; Querystring: { item_id?: string } }>(
    '/design-a-sign/:categoryId',
    async (request, reply) => {
      const categoryId = idFrom(request.params.categoryId)
      const category = categoryId ? await loadSignCategory(app.db, request.site!.id, categoryId) : null
      if (!category) return reply.callNotFound()
      let editing = null
      if (request.query.item_id !== undefined) {
        const itemId = idFrom(request.query.item_id)
        const [line] = itemId
          ? await app.carts.findLines(cartContext(request), (i) => i.id === itemId && isSign(i))
          : []
        if (!line || line.categoryId !== category.id) return reply.callNotFound()
        editing = { itemId: line.id, quantity: line.quantity, sign: line.printableSign! }
      }
      return reply.inertia.render('SignDesigner', { ...designerProps(category, editing) })
    },
  )

  app.post(
    '/design-a-sign/add',
    { config: { rateLimit: { max: 60, timeWindow: 60_000 } } },
    async (request, reply) => {
      const body = parseBody(signAddSchema, request.body, reply, singleItemField(request.body))
      if (!body) return reply
      if (body.item_id !== undefined && body.items.length !== 1) {
        return reply
          .code(422)
          .send({ message: 'Edit one sign at a time.', errors: { items: ['Edit one sign at a time.'] } })
      }
      const ctx = cartContext(request)
      let replaces: ((item: CartItemRow) => boolean) | null = null
      if (body.item_id !== undefined) {
        const [target] = await app.carts.findLines(ctx, (i) => i.id === body.item_id && isSign(i))
        if (!target) return reply.code(404).send(NOT_FOUND)
        const sequenceId = target.sequenceId
        replaces = sequenceId ? (i) => i.sequenceId === sequenceId : (i) => i.id === target.id
      }
      let lines
      try {
        lines = await signLines(app.db, request.site!.id, body)
      } catch (err) {
        if (err instanceof SignDesignError)
          return reply.code(422).send({ message: err.message, errors: err.errors })
        throw err
      }
      return answerCart(request, reply, () =>
        app.carts.replaceBuilderLines(ctx, {
          replaces,
          mustReplace: replaces !== null,
          build: async () => lines,
        }),
      )
    },
  )

  app.get<{ Params: { file: string } }>('/design-a-sign/preview/:file', async (request, reply) => {
    const id = idFrom(request.params.file, '.svg')
    const [line] = id ? await app.carts.findLines(cartContext(request), (i) => i.id === id && isSign(i)) : []
    if (!line?.printableSign?.webVersionOfSVG) return reply.code(404).send(NOT_FOUND)
    return reply.headers(SVG_HEADERS).send(line.printableSign.webVersionOfSVG)
  })

  app.get<{ Params: { file: string } }>(
    '/design-a-sign/proof/:file',
    { config: { rateLimit: { max: 30, timeWindow: 60_000 } } },
    async (request, reply) => {
      const id = idFrom(request.params.file, '.pdf')
      const [line] = id
        ? await app.carts.findLines(cartContext(request), (i) => i.id === id && isSign(i))
        : []
      if (!line) return reply.code(404).send(NOT_FOUND)
      const pdf = await storedSignProof(app.uploads, line.printableSign!, {
        shopName: request.site!.name,
        sku: line.printableSign!.design!.sku,
        quantity: line.quantity,
      })
      return reply
        .headers({
          'content-type': 'application/pdf',
          'content-disposition': `inline; filename="sign-proof-${line.id}.pdf"`,
          'cache-control': 'private, no-cache',
          'x-content-type-options': 'nosniff',
        })
        .send(pdf)
    },
  )
}
