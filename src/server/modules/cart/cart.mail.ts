/** The share e-mail: who shared, and the link that loads a copy of the basket. */
import type { Site } from '../sites/sites.service.ts'
import { escapeHtml as escape } from '../../../shared/safe-html.ts'

export function shareEmail(
  site: Site,
  senderName: string,
  link: string,
): { subject: string; text: string; html: string } {
  const cartName = site.settings.cartName || 'Basket'
  const subject = `${senderName} has shared a ${cartName.toLowerCase()} with you`
  const text = [
    `Hello,`,
    ``,
    `${senderName} has shared a ${cartName.toLowerCase()} from ${site.name} with you.`,
    `Open it here to see the items and prices, change it or check out:`,
    ``,
    link,
    ``,
    `Opening the link gives you your own copy; changes you make do not affect theirs.`,
    ``,
    site.name,
    site.settings.contactNumber ? `Telephone ${site.settings.contactNumber}` : '',
  ]
    .filter((line, i, all) => line !== '' || all[i - 1] !== '')
    .join('\n')
  const html = `<p>Hello,</p><p>${escape(senderName)} has shared a ${escape(cartName.toLowerCase())} from ${escape(site.name)} with you.</p><p><a href="${escape(link)}">Open the ${escape(cartName.toLowerCase())}</a></p><p>Opening the link gives you your own copy; changes you make do not affect theirs.</p><p>${escape(site.name)}</p>`
  return { subject, text, html }
}
