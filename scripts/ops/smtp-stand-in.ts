/**
 * A tiny SMTP server on `node:net` for the fault-injected load test: it accepts every message
 * (no TLS, no authentication, no pipelining offered) and records each one's envelope recipients
 * and its Message-ID, Subject and To headers, so the test can count what arrived, once or more.
 * It speaks just enough of RFC 5321 for nodemailer: EHLO/HELO, MAIL, RCPT, DATA (with
 * dot-unstuffing), RSET, NOOP, QUIT. Only on loopback; it keeps nothing on disk.
 */
import net from 'node:net'

export interface ReceivedMail {
  /** The Message-ID header without its angle brackets ('' when the message had none) */
  messageId: string
  subject: string
  /** Envelope recipients (RCPT TO), lower-cased */
  recipients: string[]
  /** The To header as written */
  to: string
  at: number
}

export interface SmtpStandIn {
  port: number
  url: string
  received: ReceivedMail[]
  close(): Promise<void>
}

/** Headers of a message (folded lines joined), names lower-cased; the first of each name wins. */
export function parseHeaders(message: string): Map<string, string> {
  const end = message.search(/\r?\n\r?\n/)
  const head = end < 0 ? message : message.slice(0, end)
  const headers = new Map<string, string>()
  let name = ''
  for (const line of head.split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && name) {
      headers.set(name, `${headers.get(name)} ${line.trim()}`)
      continue
    }
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    name = line.slice(0, colon).trim().toLowerCase()
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim())
    else name = ''
  }
  return headers
}

/** Decodes RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=), as nodemailer writes them. */
export function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, kind: string, text: string) => {
      if (kind.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8')
      const bytes = text
        .replace(/_/g, ' ')
        .replace(/=([0-9A-Fa-f]{2})/g, (_m: string, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      return Buffer.from(bytes, 'latin1').toString('utf8')
    })
}

function address(arg: string): string {
  const m = /<([^>]*)>/.exec(arg)
  return (m ? m[1]! : arg.trim()).toLowerCase()
}

export async function startSmtpStandIn(port = 0, host = '127.0.0.1'): Promise<SmtpStandIn> {
  const received: ReceivedMail[] = []
  const sockets = new Set<net.Socket>()
  const server = net.createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
    socket.setEncoding('latin1')
    const reply = (line: string) => socket.write(`${line}\r\n`)
    let buffer = ''
    let recipients: string[] = []
    let data: string[] | null = null
    reply('220 stand-in ESMTP ready')
    socket.on('data', (chunk: string) => {
      buffer += chunk
      let at: number
      while ((at = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, at)
        buffer = buffer.slice(at + 2)
        if (data) {
          if (line === '.') {
            const message = Buffer.from(data.join('\r\n'), 'latin1').toString('utf8')
            const headers = parseHeaders(message)
            received.push({
              messageId: (headers.get('message-id') ?? '').replace(/^<|>$/g, ''),
              subject: decodeWords(headers.get('subject') ?? ''),
              recipients,
              to: decodeWords(headers.get('to') ?? ''),
              at: Date.now(),
            })
            data = null
            recipients = []
            reply('250 2.0.0 queued')
          } else data.push(line.startsWith('.') ? line.slice(1) : line)
          continue
        }
        const verb = line.slice(0, 4).toUpperCase()
        if (verb === 'EHLO') {
          reply('250-stand-in')
          reply('250 8BITMIME')
        } else if (verb === 'HELO') reply('250 stand-in')
        else if (verb === 'MAIL') {
          recipients = []
          reply('250 2.1.0 ok')
        } else if (verb === 'RCPT') {
          recipients.push(address(line.slice(line.indexOf(':') + 1)))
          reply('250 2.1.5 ok')
        } else if (verb === 'DATA') {
          if (recipients.length === 0) reply('554 5.5.1 no valid recipients')
          else {
            data = []
            reply('354 end with <CRLF>.<CRLF>')
          }
        } else if (verb === 'RSET') {
          recipients = []
          reply('250 2.0.0 ok')
        } else if (verb === 'NOOP') reply('250 2.0.0 ok')
        else if (verb === 'QUIT') {
          reply('221 2.0.0 bye')
          socket.end()
        } else reply('502 5.5.2 command not implemented')
      }
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  const bound = (server.address() as net.AddressInfo).port
  return {
    port: bound,
    url: `smtp://${host}:${bound}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}
