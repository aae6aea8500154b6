/**
 * The PayPal simulator's Payments v2 API: an authorisation (get, void), a capture (get, refund)
 * and a refund (get), with PayPal-Request-Id replay (a refused request is not kept) and
 * PayPal-Mock-Response codes on refunds; a completed refund marks its capture (partially)
 * refunded and sends PAYMENT.CAPTURE.REFUNDED.
 */
import { randomBytes } from 'node:crypto'
import { PREFIX, toMinor, unprocessable, type CaptureEntry, type PaypalContext } from './paypal.state.ts'

export function paypalPaymentRoutes(sim: PaypalContext): {
  refunded: (c: CaptureEntry, body: Record<string, unknown>) => void
} {
  const { app, origin, captures, authorizations, refunds, next, error, authed, run, idempotent, emit } = sim

  // --- Payments v2: authorisations (void), captures (refund), refunds ---
  app.get(`${PREFIX}/v2/payments/authorizations/:id`, (req, reply) =>
    run(req, reply, () => {
      if (!authed(req)) return error(reply, 401, 'AUTHENTICATION_FAILURE')
      const a = authorizations.get((req.params as { id: string }).id)
      return a ? reply.send(a.entry) : error(reply, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID')
    }),
  )
  app.post(`${PREFIX}/v2/payments/authorizations/:id/void`, (req, reply) =>
    run(req, reply, () => {
      if (!authed(req)) return error(reply, 401, 'AUTHENTICATION_FAILURE')
      const a = authorizations.get((req.params as { id: string }).id)
      if (!a) return error(reply, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID')
      return idempotent(
        req,
        reply,
        `void:${a.entry.id as string}`,
        () => {
          if (a.entry.status === 'CAPTURED' || a.entry.status === 'PARTIALLY_CAPTURED')
            return unprocessable(
              'AUTHORIZATION_ALREADY_CAPTURED',
              'Authorization has been previously captured and hence cannot be voided.',
            )
          if (a.entry.status === 'VOIDED')
            return unprocessable(
              'PREVIOUSLY_VOIDED',
              'Authorization has been previously voided and hence cannot be voided again.',
            )
          a.entry.status = 'VOIDED'
          a.entry.update_time = new Date().toISOString()
          void emit('PAYMENT.AUTHORIZATION.VOIDED', a.entry)
          // 204 by default; the representation when asked for it (Prefer: return=representation).
          return String(req.headers.prefer ?? '').includes('return=representation')
            ? { status: 200, body: a.entry }
            : { status: 204, body: '' }
        },
        false,
      )
    }),
  )
  app.get(`${PREFIX}/v2/payments/captures/:id`, (req, reply) =>
    run(req, reply, () => {
      if (!authed(req)) return error(reply, 401, 'AUTHENTICATION_FAILURE')
      const c = captures.get((req.params as { id: string }).id)
      return c ? reply.send(c.entry) : error(reply, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID')
    }),
  )
  app.post(`${PREFIX}/v2/payments/captures/:id/refund`, (req, reply) =>
    run(req, reply, () => {
      if (!authed(req)) return error(reply, 401, 'AUTHENTICATION_FAILURE')
      const c = captures.get((req.params as { id: string }).id)
      if (!c) return error(reply, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID')
      return idempotent(
        req,
        reply,
        `refund:${c.entry.id as string}`,
        () => {
          // Sandbox negative testing: the issue named in PayPal-Mock-Response, nothing refunded.
          const mock = req.headers['paypal-mock-response']
          if (typeof mock === 'string') {
            let code: string | undefined
            try {
              code = (JSON.parse(mock) as { mock_application_codes?: string }).mock_application_codes
            } catch {
              code = undefined
            }
            if (code) return unprocessable(code)
          }
          const captured = c.entry.amount as { currency_code: string; value: string }
          if (c.entry.status === 'REFUNDED')
            return unprocessable('CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded.')
          if (c.entry.status !== 'COMPLETED' && c.entry.status !== 'PARTIALLY_REFUNDED')
            return unprocessable(
              'REFUND_NOT_ALLOWED',
              `A capture that is ${String(c.entry.status)} cannot be refunded.`,
            )
          const done = c.refunds
            .map((id) => refunds.get(id)!.body)
            .filter((r) => r.status === 'COMPLETED' || r.status === 'PENDING')
            .reduce((sum, r) => sum + toMinor(r.amount), 0)
          const left = toMinor(captured) - done
          const asked = (req.body as { amount?: { currency_code?: string; value?: string } } | null)?.amount
          if (asked && asked.currency_code !== captured.currency_code)
            return unprocessable(
              'REFUND_CAPTURE_CURRENCY_MISMATCH',
              'Refund must be in the same currency as the capture.',
            )
          const minor = asked ? toMinor(asked) : left
          if (!Number.isInteger(minor) || minor <= 0)
            return {
              status: 400,
              body: {
                name: 'INVALID_REQUEST',
                details: [{ issue: 'INVALID_PARAMETER_VALUE', field: '/amount/value' }],
              },
            }
          if (minor > left)
            return unprocessable(
              'REFUND_AMOUNT_EXCEEDED',
              'The refund amount must be less than or equal to the capture amount that has not yet been refunded.',
            )
          const id = randomBytes(8).toString('hex').toUpperCase()
          const body: Record<string, unknown> = {
            id,
            status: next.refundPending ? 'PENDING' : 'COMPLETED',
            ...(next.refundPending ? { status_details: { reason: 'ECHECK' } } : {}),
            amount: { currency_code: captured.currency_code, value: (minor / 100).toFixed(2) },
            create_time: new Date().toISOString(),
            links: [{ href: `${origin()}${PREFIX}/v2/payments/refunds/${id}`, rel: 'self', method: 'GET' }],
          }
          next.refundPending = false
          refunds.set(id, { captureId: c.entry.id as string, body })
          c.refunds.push(id)
          if (body.status === 'COMPLETED') refunded(c, body)
          return { status: 201, body }
        },
        false,
      )
    }),
  )
  app.get(`${PREFIX}/v2/payments/refunds/:id`, (req, reply) =>
    run(req, reply, () => {
      if (!authed(req)) return error(reply, 401, 'AUTHENTICATION_FAILURE')
      const r = refunds.get((req.params as { id: string }).id)
      return r ? reply.send(r.body) : error(reply, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID')
    }),
  )
  /** A completed refund: the capture becomes (partially) refunded and PayPal tells the shop. */
  function refunded(
    c: { orderId: string; entry: Record<string, unknown>; refunds: string[] },
    body: Record<string, unknown>,
  ) {
    const total = c.refunds
      .map((id) => refunds.get(id)!.body)
      .filter((r) => r.status === 'COMPLETED')
      .reduce((sum, r) => sum + toMinor(r.amount), 0)
    c.entry.status = total >= toMinor(c.entry.amount) ? 'REFUNDED' : 'PARTIALLY_REFUNDED'
    void emit('PAYMENT.CAPTURE.REFUNDED', {
      ...body,
      supplementary_data: { related_ids: { order_id: c.orderId, capture_id: c.entry.id } },
    })
  }

  return { refunded }
}
