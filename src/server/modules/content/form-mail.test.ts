import { describe, expect, it } from 'vitest'
import { formSubmissionMail } from './form-mail.ts'

describe('formSubmissionMail', () => {
  it('lists every field as a plain-text line in the form order, marking blank answers', () => {
    const mail = formSubmissionMail({
      siteId: 1,
      to: 'sales@example.test',
      subject: 'Contact us: new submission',
      fields: [
        { label: 'Name', value: 'Ada <b>Lovelace</b>' },
        { label: 'Company', value: '  ' },
      ],
    })
    expect(mail.to).toEqual(['sales@example.test'])
    expect(mail.subject).toBe('Contact us: new submission')
    expect(mail.text).toContain('Name: Ada <b>Lovelace</b>\nCompany: (blank)\n')
    expect(mail.html).toBeUndefined()
  })
})
