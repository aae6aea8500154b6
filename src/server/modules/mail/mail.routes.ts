/**
 * The development outbox: GET /dev/mail lists the newest messages, GET /dev/mail/:id shows one.
 * Registered only when MAIL_OUTBOX_PAGE is on (the default in development), never otherwise, and
 * even then answered only for a visitor on this machine (a loopback address): anyone else gets
 * the ordinary Not Found.
 */
import type { FastifyInstance } from 'fastify'
import { CapturingMailer, OutboxMailer } from './mail.service.ts'
import { escapeHtml as escape } from '../../../shared/safe-html.ts'

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body style="font-family:system-ui;margin:2rem;max-width:60rem"><main><h1>${escape(title)}</h1>${body}</main></body></html>`
}

/** 127.0.0.0/8, ::1 and IPv4-mapped 127.x. */
export function isLoopback(ip: string): boolean {
  return ip === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ip)
}

export async function mailRoutes(app: FastifyInstance) {
  const mailer = app.mailer instanceof CapturingMailer ? app.mailer.inner : app.mailer
  if (!(mailer instanceof OutboxMailer)) return
  app.addHook('onRequest', async (request, reply) => {
    if (!isLoopback(request.ip)) return reply.callNotFound()
  })
  app.get('/dev/mail', async (_request, reply) => {
    const rows = await mailer.list(100)
    const list = rows.length
      ? `<ol reversed>${rows
          .map(
            (r) =>
              `<li><a href="/dev/mail/${r.id}">${escape(r.subject)}</a> to ${escape(r.to.join(', '))} <time>${r.createdAt.toISOString()}</time></li>`,
          )
          .join('')}</ol>`
      : '<p>The outbox is empty.</p>'
    return reply.type('text/html; charset=utf-8').send(page('Outbox', list))
  })
  app.get<{ Params: { id: string } }>('/dev/mail/:id', async (request, reply) => {
    const id = /^\d{1,9}$/.test(request.params.id) ? Number(request.params.id) : 0
    const row = id ? await mailer.find(id) : null
    if (!row)
      return reply
        .code(404)
        .type('text/html; charset=utf-8')
        .send(page('Not Found', '<p><a href="/dev/mail">Outbox</a></p>'))
    const body = `<p><a href="/dev/mail">Outbox</a></p><dl><dt>From</dt><dd>${escape(row.from)}</dd><dt>To</dt><dd>${escape(row.to.join(', '))}</dd><dt>Subject</dt><dd>${escape(row.subject)}</dd></dl><pre data-testid="mail-text" style="white-space:pre-wrap">${escape(row.text)}</pre>`
    return reply.type('text/html; charset=utf-8').send(page(row.subject, body))
  })
}
