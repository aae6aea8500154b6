/**
 * The custom workwear builder (page `WorkwearBuilder`): GET /custom-workwear/{category}
 * (?session_id= reopens a design in the visitor's basket: the basket's workwear builder link),
 * POST /custom-workwear/{category} (saves the design and its logo; with session_id it replaces
 * that order's lines), GET /custom-workwear/logo/{session} and /custom-workwear/preview/{session}.svg.
 * A session of another visitor's basket is not found.
 */
import type { FastifyInstance } from 'fastify'
import { LOGO_MAX_BYTES } from '../../../shared/workwear.ts'
import type { WorkwearBuilderProps } from '../../../shared/workwear-builder.ts'
import { renderWorkwearPreview } from '../../../shared/workwear-preview.ts'
import { answerCart, cartContext, idFrom, NOT_FOUND, parseBody, SVG_HEADERS } from './builders.http.ts'
import {
  checkWorkwear,
  cleanLogo,
  findWorkwearSession,
  loadWorkwearCategory,
  loadLogo,
  logoDataUrl,
  storeLogo,
  saveWorkwearSession,
  WorkwearError,
  workwearSaveSchema,
} from './workwear.service.ts'

const UUID_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(\.svg)?$/i

export async function workwearRoutes(app: FastifyInstance) {
  app.addHook('preHandler', async (request, reply) => {
    if (!request.site) return reply.callNotFound()
  })

  app.get<{ Params: { categoryId: string }; Querystring: { session_id?: string } }>(
    '/custom-workwear/:categoryId',
    async (request, reply) => {
      const categoryId = idFrom(request.params.categoryId)
      const category = categoryId ? await loadWorkwearCategory(app.db, request.site!.id, categoryId) : null
      if (!category) return reply.callNotFound()
      let editing: WorkwearBuilderProps['editing'] = null
      if (request.query.session_id !== undefined) {
        const row = await findWorkwearSession(
          app.db,
          cartContext(request).cartId,
          String(request.query.session_id),
        )
        if (!row || row.categoryId !== category.id) return reply.callNotFound()
        editing = {
          sessionId: row.id,
          design: row.design,
          logoUrl: row.logoKey ? `/custom-workwear/logo/${row.id}` : null,
        }
      }
      const props: WorkwearBuilderProps = {
        category: { id: category.id, name: category.name, url: category.url },
        config: category.config,
        garments: category.garments,
        editing,
      }
      return reply.inertia.render('WorkwearBuilder', { ...props })
    },
  )

  app.post<{ Params: { categoryId: string } }>(
    '/custom-workwear/:categoryId',
    {
      // Room for a 2 MB logo as base64 and the design; anything larger is refused unread (413).
      bodyLimit: Math.ceil((LOGO_MAX_BYTES * 4) / 3) + 64 * 1024,
      config: { rateLimit: { max: 30, timeWindow: 60_000 } },
    },
    async (request, reply) => {
      const categoryId = idFrom(request.params.categoryId)
      const category = categoryId ? await loadWorkwearCategory(app.db, request.site!.id, categoryId) : null
      if (!category) return reply.code(404).send(NOT_FOUND)
      const body = parseBody(workwearSaveSchema, request.body, reply, (key) =>
        key.replace(/^logo\..*$/, 'logo'),
      )
      if (!body) return reply
      const ctx = cartContext(request)
      try {
        const checked = checkWorkwear(category, body)
        const logo = body.logo ? await storeLogo(app.uploads, await cleanLogo(body.logo)) : null
        const sessionId = body.session_id ?? null
        if (sessionId && !(await findWorkwearSession(app.db, ctx.cartId, sessionId))) {
          return reply.code(404).send(NOT_FOUND)
        }
        let saved = sessionId
        return await answerCart(
          request,
          reply,
          () =>
            app.carts.replaceBuilderLines(ctx, {
              replaces: sessionId ? (i) => i.workWearSession?.id === sessionId : null,
              mustReplace: false,
              build: async (tx, cartId) => {
                const lines = await saveWorkwearSession(tx, {
                  siteId: request.site!.id,
                  cartId,
                  category,
                  sessionId,
                  checked,
                  logo,
                })
                saved = lines[0]!.workWearSession!.id
                return lines
              },
            }),
          {
            get session_id() {
              return saved
            },
          },
        )
      } catch (err) {
        if (err instanceof WorkwearError)
          return reply.code(422).send({ message: err.message, errors: err.errors })
        throw err
      }
    },
  )

  app.get<{ Params: { file: string } }>('/custom-workwear/logo/:file', async (request, reply) => {
    const id = UUID_FILE.exec(request.params.file)?.[1]
    const row = id ? await findWorkwearSession(app.db, cartContext(request).cartId, id) : null
    const logo = row ? await loadLogo(app.uploads, row) : null
    if (!logo) return reply.code(404).send(NOT_FOUND)
    return reply
      .headers({
        ...SVG_HEADERS,
        'content-type': logo.type === 'image/svg+xml' ? SVG_HEADERS['content-type'] : logo.type,
      })
      .send(logo.data)
  })

  app.get<{ Params: { file: string } }>('/custom-workwear/preview/:file', async (request, reply) => {
    const id = UUID_FILE.exec(request.params.file)?.[1]
    const row = id ? await findWorkwearSession(app.db, cartContext(request).cartId, id) : null
    if (!row) return reply.code(404).send(NOT_FOUND)
    const category = await loadWorkwearCategory(app.db, request.site!.id, row.categoryId)
    const colour = category?.config.colours.find((c) => c.name === row.design.colour) ?? null
    const svg = renderWorkwearPreview({
      colour,
      garment: row.design.garmentName,
      positions: row.design.positions,
      text: row.design.text,
      logo: logoDataUrl(await loadLogo(app.uploads, row)),
      displaySize: 120,
    })
    return reply.headers(SVG_HEADERS).send(svg)
  })
}
