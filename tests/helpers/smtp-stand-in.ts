/**
 * A small SMTP server for tests (node:net, no TLS, no auth): it answers a client such as
 * nodemailer, and records every message by its Message-ID. `answer(messageId, n)` decides, for
 * the n-th conversation (from 1) that carries that message, how long to wait before accepting
 * it, or to never answer (the client then times out or aborts). A message counts as accepted
 * only when the 250 reply was written to a still-open connection.
 */
import { createServer, type Server, type Socket } from 'node:net'

export type Answer = { delayMs: number } | 'hang'

export interface SmtpStandIn {
  port: number
  url: string
  /** Message-IDs (without brackets) in the order they were accepted, repeats included. */
  accepted: string[]
  /** Conversations that reached the end of DATA, per Message-ID. */
  conversations: Map<string, number>
  /** The most conversations one Message-ID had open at the same time. */
  maxConcurrentPerMessage: number
  /** Resolves when a message with this id has reached the end of DATA (in any conversation). */
  reached(messageId: string): Promise<void>
  close(): Promise<void>
}

export async function startSmtpStandIn(
  answer: (messageId: string, conversation: number) => Answer = () => ({ delayMs: 0 }),
): Promise<SmtpStandIn> {
  const accepted: string[] = []
  const conversations = new Map<string, number>()
  const open = new Map<string, number>()
  const waiting = new Map<string, (() => void)[]>()
  const sockets = new Set<Socket>()
  let maxConcurrent = 0

  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.setEncoding('utf8')
    let buffer = ''
    let inData = false
    let data = ''
    let closed = false
    socket.on('close', () => {
      closed = true
      sockets.delete(socket)
    })
    socket.on('error', () => {})
    const reply = (line: string) => {
      if (!closed) socket.write(`${line}\r\n`)
    }
    const endOfData = (raw: string) => {
      const id = /^message-id:\s*<([^>]+)>/im.exec(raw)?.[1] ?? '(none)'
      const n = (conversations.get(id) ?? 0) + 1
      conversations.set(id, n)
      open.set(id, (open.get(id) ?? 0) + 1)
      maxConcurrent = Math.max(maxConcurrent, open.get(id)!)
      for (const resolve of waiting.get(id) ?? []) resolve()
      waiting.delete(id)
      const done = () => open.set(id, open.get(id)! - 1)
      const decision = answer(id, n)
      if (decision === 'hang') {
        socket.once('close', done)
        return
      }
      setTimeout(() => {
        if (!closed) {
          accepted.push(id)
          reply('250 2.0.0 queued')
        }
        done()
      }, decision.delayMs)
    }
    socket.on('data', (chunk: string) => {
      buffer += chunk
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n')
          if (end === -1) return
          data += buffer.slice(0, end)
          buffer = buffer.slice(end + 5)
          inData = false
          endOfData(data)
          data = ''
          continue
        }
        const eol = buffer.indexOf('\r\n')
        if (eol === -1) return
        const line = buffer.slice(0, eol)
        buffer = buffer.slice(eol + 2)
        const verb = line.slice(0, 4).toUpperCase()
        if (verb === 'EHLO' || verb === 'HELO') reply('250 stand-in')
        else if (verb === 'MAIL' || verb === 'RCPT' || verb === 'RSET' || verb === 'NOOP') reply('250 OK')
        else if (verb === 'DATA') {
          inData = true
          reply('354 go ahead')
        } else if (verb === 'QUIT') {
          reply('221 bye')
          socket.end()
        } else reply('502 not implemented')
      }
    })
    reply('220 stand-in ESMTP')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    accepted,
    conversations,
    get maxConcurrentPerMessage() {
      return maxConcurrent
    },
    reached: (id) =>
      (conversations.get(id) ?? 0) > 0
        ? Promise.resolve()
        : new Promise((resolve) => waiting.set(id, [...(waiting.get(id) ?? []), resolve])),
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
