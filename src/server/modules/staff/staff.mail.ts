/** The back office's e-mails, as pure functions (sent through the mail queue). */
import type { StaffRoleName } from '../../../shared/staff.ts'
import type { InvitationMail } from './staff.service.ts'

export function invitationMail(input: {
  email: string
  name: string
  role: StaffRoleName
  invitedBy: string
  link: string
}): InvitationMail {
  return {
    to: input.email,
    subject: 'You are invited to the shop back office',
    text: [
      `Hello ${input.name},`,
      '',
      `${input.invitedBy} has invited you to the shop's back office as ${input.role}.`,
      '',
      'Set your password here (the link works once, for 72 hours):',
      input.link,
      '',
      'You will then set up two-factor authentication with an authenticator app.',
      '',
      'If you did not expect this e-mail, you can ignore it.',
    ].join('\n'),
  }
}
