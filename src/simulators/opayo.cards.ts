/**
 * The Opayo Pi simulator's card identifiers: made from card details under a merchant session key,
 * a saved (reusable) one given its security code, and removed.
 */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { luhn } from './faults.ts'
import { cardType, MSK_TTL_MS, PREFIX, type Card, type Msk } from './opayo.state.ts'

export interface OpayoCardContext {
  app: FastifyInstance
  run(req: FastifyRequest, reply: FastifyReply, fn: () => unknown): Promise<unknown>
  /** Whether the request carries the integration key and password */
  basicOk(req: FastifyRequest): boolean
  denied(reply: FastifyReply): FastifyReply
  /** The request's live merchant session key, or null */
  bearerMsk(req: FastifyRequest): Msk | null
  cards: Map<string, Card>
}

export function opayoCardRoutes({ app, run, basicOk, denied, bearerMsk, cards }: OpayoCardContext): void {
  app.post(`${PREFIX}/card-identifiers`, (req, reply) =>
    run(req, reply, () => {
      const msk = bearerMsk(req)
      if (!msk) return reply.code(401).send({ code: '1001', description: 'Invalid merchant session key' })
      const d = ((req.body as { cardDetails?: Record<string, string> } | null)?.cardDetails ?? {}) as Record<
        string,
        string
      >
      const errors: { code: string; property: string; description: string; clientMessage: string }[] = []
      const number = String(d.cardNumber ?? '').replace(/\s+/g, '')
      if (!d.cardholderName)
        errors.push({
          code: '1003',
          property: 'cardDetails.cardholderName',
          description: 'Missing mandatory field',
          clientMessage: 'Please enter the name on the card',
        })
      if (!luhn(number))
        errors.push({
          code: '1007',
          property: 'cardDetails.cardNumber',
          description: 'The card number has failed our validity checks and is invalid',
          clientMessage: 'The card number is not valid',
        })
      const exp = /^(0[1-9]|1[0-2])(\d{2})$/.exec(String(d.expiryDate ?? ''))
      const now = new Date()
      if (
        !exp ||
        Number(exp[2]) + 2000 < now.getFullYear() ||
        (Number(exp[2]) + 2000 === now.getFullYear() && Number(exp[1]) < now.getMonth() + 1)
      ) {
        errors.push({
          code: '1005',
          property: 'cardDetails.expiryDate',
          description: 'Contains invalid characters or is in the past',
          clientMessage: 'The expiry date is not valid',
        })
      }
      if (d.securityCode !== undefined && !/^\d{3,4}$/.test(String(d.securityCode)))
        errors.push({
          code: '1005',
          property: 'cardDetails.securityCode',
          description: 'Contains invalid characters',
          clientMessage: 'The security code is not valid',
        })
      if (errors.length) {
        msk.failures += 1
        return reply.code(422).send({ errors })
      }
      const id = randomUUID().toUpperCase()
      cards.set(id, {
        id,
        msk: msk.key,
        number,
        name: String(d.cardholderName),
        expiryDate: String(d.expiryDate),
        securityCode: d.securityCode ? String(d.securityCode) : null,
        reusable: false,
        expiresAt: Date.now() + MSK_TTL_MS,
      })
      msk.used = true
      return reply.code(201).send({
        cardIdentifier: id,
        expiry: new Date(Date.now() + MSK_TTL_MS).toISOString(),
        cardType: cardType(number),
      })
    }),
  )

  app.post(`${PREFIX}/card-identifiers/:id/security-code`, (req, reply) =>
    run(req, reply, () => {
      const msk = bearerMsk(req)
      if (!msk) return reply.code(401).send({ code: '1001', description: 'Invalid merchant session key' })
      const card = cards.get((req.params as { id: string }).id)
      if (!card?.reusable)
        return reply.code(404).send({ code: '1011', description: 'Card identifier not found' })
      const code = String((req.body as { securityCode?: string } | null)?.securityCode ?? '')
      if (!/^\d{3,4}$/.test(code))
        return reply.code(422).send({
          errors: [
            {
              code: '1005',
              property: 'securityCode',
              description: 'Invalid',
              clientMessage: 'The security code is not valid',
            },
          ],
        })
      card.securityCode = code
      card.msk = msk.key
      return reply.code(204).send()
    }),
  )

  app.delete(`${PREFIX}/card-identifiers/:id`, (req, reply) =>
    run(req, reply, () => {
      if (!basicOk(req)) return denied(reply)
      return cards.delete((req.params as { id: string }).id)
        ? reply.code(204).send()
        : reply.code(404).send({ code: '1011', description: 'Card identifier not found' })
    }),
  )
}
