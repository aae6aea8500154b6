import type { MailMessage } from '../mail/mail.service.ts'
import type { NotifySiteContact } from './content.routes.ts'

type Submission = Parameters<NotifySiteContact>[0]

/**
 * The e-mail that tells the site contact about a content-form submission: one 'Label: value'
 * line per field, in the form's order. Plain text only, so nothing a visitor typed is ever
 * interpreted as markup by the recipient's mail client.
 */
export function formSubmissionMail(submission: Submission): MailMessage {
  const lines = submission.fields.map((f) => `${f.label}: ${f.value.trim() === '' ? '(blank)' : f.value}`)
  return {
    to: [submission.to],
    subject: submission.subject,
    text: `A visitor sent this form on the website.\n\n${lines.join('\n')}\n`,
  }
}
