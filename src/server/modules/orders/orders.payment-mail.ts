/**
 * The e-mail a shopper gets when the payment of an order that waited for its provider failed
 * (order state pending_payment → payment_failed). Built from the shop's own data and addresses.
 */
import { orderTotal, type OrderData } from '../../../shared/checkout.ts'
import { formatMoney } from '../../../shared/money.ts'
import { escapeHtml as escape } from '../../../shared/safe-html.ts'
import type { Site } from '../sites/sites.service.ts'

export function paymentFailedMail(site: Site, order: OrderData, baseUrl: string) {
  const c = order.contactDetails
  const amount = formatMoney(orderTotal(order), site.currency)
  const basket = `${baseUrl.replace(/\/+$/, '')}/cart`
  const paragraphs = [
    `Dear ${c.first_name} ${c.last_name},`,
    `The payment of ${amount} for your order ${order.OrderNumber} with ${site.name} did not go through, so the order has not been placed and nothing will be sent.`,
    'If any money was held on your account for it, it is released or returned to you.',
    `You are welcome to order again at ${basket}.`,
    site.settings.contactNumber ? `Questions? Call us on ${site.settings.contactNumber}.` : '',
    site.name,
  ].filter(Boolean)
  return {
    to: [c.email],
    subject: `${site.name}: the payment for order ${order.OrderNumber} did not go through`,
    text: paragraphs.join('\n\n'),
    html: paragraphs.map((p) => `<p>${escape(p)}</p>`).join(''),
    ...(site.settings.contactEmail ? { replyTo: site.settings.contactEmail } : {}),
  }
}
