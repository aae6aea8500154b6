import nodemailer from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeWords, parseHeaders, startSmtpStandIn, type SmtpStandIn } from './smtp-stand-in.ts'

let smtp: SmtpStandIn
beforeAll(async () => {
  smtp = await startSmtpStandIn()
})
afterAll(async () => smtp?.close())

describe('the SMTP stand-in', () => {
  it('records what nodemailer sends over SMTP: Message-ID, decoded subject, envelope recipients', async () => {
    const transport = nodemailer.createTransport({ url: smtp.url } as Parameters<
      typeof nodemailer.createTransport
    >[0])
    await transport.sendMail({
      from: 'Shop <no-reply@example.com>',
      to: 'Ann@Example.com',
      bcc: 'office@example.com',
      subject: 'Harbour – order acknowledgement 1234',
      // A line starting with a dot is dot-stuffed on the wire and must not end the message.
      text: 'Line one\n.\n.. two dots\nend',
      messageId: '<order:12:acknowledgement@shop.example>',
    })
    await transport.sendMail({ from: 'a@example.com', to: 'b@example.com', subject: 'second', text: 'x' })
    transport.close()
    expect(smtp.received).toHaveLength(2)
    expect(smtp.received[0]).toMatchObject({
      messageId: 'order:12:acknowledgement@shop.example',
      subject: 'Harbour – order acknowledgement 1234',
      recipients: ['ann@example.com', 'office@example.com'],
    })
    expect(smtp.received[1]!.subject).toBe('second')
    expect(smtp.received[1]!.messageId).not.toBe('')
  })

  it('refuses DATA before any recipient and answers unknown commands without closing', async () => {
    const { Socket } = await import('node:net')
    const socket = new Socket()
    const lines: string[] = []
    socket.setEncoding('utf8')
    socket.on('data', (d: string) => lines.push(...d.split('\r\n').filter(Boolean)))
    await new Promise<void>((resolve) => socket.connect(smtp.port, '127.0.0.1', resolve))
    socket.write('HELO me\r\nMAIL FROM:<a@example.com>\r\nDATA\r\nVRFY x\r\nQUIT\r\n')
    await new Promise((resolve) => socket.on('close', resolve))
    expect(lines.map((l) => l.slice(0, 3))).toEqual(['220', '250', '250', '554', '502', '221'])
  })
})

describe('message header parsing', () => {
  it('joins folded header lines and keeps the first of a repeated name', () => {
    const h = parseHeaders('Subject: a long\r\n  subject line\r\nX-A: 1\r\nX-A: 2\r\n\r\nbody: not a header')
    expect(h.get('subject')).toBe('a long subject line')
    expect(h.get('x-a')).toBe('1')
    expect(h.has('body')).toBe(false)
  })

  it('decodes quoted-printable and base64 encoded words, adjacent ones without the space', () => {
    expect(decodeWords('=?UTF-8?Q?caf=C3=A9_au_lait?=')).toBe('café au lait')
    expect(decodeWords('=?UTF-8?B?w6k=?= =?UTF-8?Q?t=C3=A9?=')).toBe('été')
    expect(decodeWords('plain text')).toBe('plain text')
  })
})
