/**
 * The customer's e-mails after the order (issue 33): held, shipped (carrier, tracking number and
 * a tracking link), cancelled and refunded (the amount). Plain text and HTML like the order's
 * acknowledgement (orders.mail.ts), built from the shop's own data and queued by the lifecycle in
 * the transition's transaction, one per transition.
 */
import type { OrderData } from '../../../shared/checkout.ts'
import { formatDate } from '../../../shared/dates.ts'
import { formatMoney } from '../../../shared/money.ts'
import { escapeHtml as escape } from '../../../shared/safe-html.ts'
import type { Site } from '../sites/sites.service.ts'

/**
 * The tracking link the shop shows for a stored tracking URL: only an https URL with a host and
 * no credentials, as given; anything else (http, javascript:, a relative path) gives no link.
 */
export function trackingLink(url: string | null | undefined): string | null {
  if (!url) return null
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (parsed.protocol !== 'https:' || !parsed.hostname || parsed.username || parsed.password) return null
  return parsed.toString()
}

/** A paragraph is plain text; a link is shown as its URL in text and as an anchor in HTML. */
type Paragraph = string | { text: string; link: string }

function message(site: Site, order: OrderData, subject: string, paragraphs: Paragraph[]) {
  const c = order.contactDetails
  const all: Paragraph[] = [
    `Dear ${c.first_name} ${c.last_name},`,
    ...paragraphs,
    site.settings.contactNumber ? `Questions? Call us on ${site.settings.contactNumber}.` : '',
    site.name,
  ].filter((p) => p !== '')
  return {
    to: [c.email],
    subject: `${site.name}: ${subject}`,
    text: all.map((p) => (typeof p === 'string' ? p : `${p.text} ${p.link}`)).join('\n\n'),
    html: all
      .map((p) =>
        typeof p === 'string'
          ? `<p>${escape(p)}</p>`
          : `<p>${escape(p.text)} <a href="${escape(p.link)}">${escape(p.link)}</a></p>`,
      )
      .join(''),
    ...(site.settings.contactEmail ? { replyTo: site.settings.contactEmail } : {}),
  }
}

const ordersLink = (baseUrl: string): Paragraph | '' =>
  baseUrl
    ? {
        text: 'You can follow your order in your account:',
        link: `${baseUrl.replace(/\/+$/, '')}/customer/orders`,
      }
    : ''

export function heldMail(site: Site, order: OrderData, baseUrl = '') {
  return message(site, order, `order ${order.OrderNumber} is on hold`, [
    `Your order ${order.OrderNumber} is on hold while we check a few things. We will be in touch if we need anything from you; nothing is sent until we release it.`,
    ordersLink(baseUrl),
  ])
}

export interface ShipmentMailData {
  carrier: string
  /** Null: sent without a tracking number */
  trackingNumber: string | null
  trackingUrl: string | null
  shippedAt: Date
  lines: { name: string; sku: string; quantity: number }[]
  /** Everything ordered has now been sent */
  complete: boolean
}

export function shippedMail(site: Site, order: OrderData, shipment: ShipmentMailData, baseUrl = '') {
  const link = trackingLink(shipment.trackingUrl)
  const date = formatDate(shipment.shippedAt.toISOString(), site.settings.locale)
  return message(
    site,
    order,
    `order ${order.OrderNumber} ${shipment.complete ? 'has been sent' : 'is partly sent'}`,
    [
      shipment.complete
        ? `The rest of your order ${order.OrderNumber} was sent on ${date}.`
        : `Part of your order ${order.OrderNumber} was sent on ${date}; we will e-mail you again when the rest is on its way.`,
      `In this parcel:\n${shipment.lines.map((l) => `${l.quantity} x ${l.name} (${l.sku})`).join('\n')}`,
      shipment.trackingNumber
        ? `Carrier: ${shipment.carrier}\nTracking number: ${shipment.trackingNumber}`
        : `Carrier: ${shipment.carrier}\nThis parcel was sent without a tracking number.`,
      link ? { text: 'Track your parcel:', link } : '',
      ordersLink(baseUrl),
    ],
  )
}

export function cancelledMail(site: Site, order: OrderData, baseUrl = '') {
  return message(site, order, `order ${order.OrderNumber} is cancelled`, [
    `Your order ${order.OrderNumber} has been cancelled and nothing will be sent.`,
    'Any payment taken for it is being given back to you; we will e-mail you when it is refunded.',
    ordersLink(baseUrl),
  ])
}

export function refundedMail(site: Site, order: OrderData, amountMinor: number, baseUrl = '') {
  const amount = formatMoney(amountMinor, order.currency)
  return message(site, order, `refund of ${amount} for order ${order.OrderNumber}`, [
    `We have refunded ${amount} for your order ${order.OrderNumber}. It goes back to the way you paid; your bank may take a few days to show it.`,
    ordersLink(baseUrl),
  ])
}
