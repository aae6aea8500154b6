/**
 * The order e-mails: the acknowledgement to the customer and the notification to the site. Built
 * when the order is written (inside its transaction) and queued; the mail queue sends them.
 */
import type { OrderData } from '../../../shared/checkout.ts'
import { formatDate } from '../../../shared/dates.ts'
import { formatMoney } from '../../../shared/money.ts'
import { endSentence } from '../../../shared/text.ts'
import { orderDataTotals, orderTotalLines } from '../../../shared/order-totals.ts'
import type { Site } from '../sites/sites.service.ts'
import { siteTotalsOptions } from './orders.presenter.ts'
import { escapeHtml as escape } from '../../../shared/safe-html.ts'

function addressLines(a: OrderData['shippingAddress']): string[] {
  return [a.company, a.address1, a.address2, a.town, a.county, a.postcode, a.country].filter((l) => l)
}

/** An absolute URL for an e-mail: the site's base URL and a path ('/…'); absolute URLs stay. */
function absolute(baseUrl: string, url: string): string {
  return /^https?:\/\//.test(url) ? url : `${baseUrl.replace(/\/+$/, '')}${url}`
}

/** A builder line's preview in the HTML e-mail (120 px wide), or nothing. */
function previewCell(item: OrderData['items'][number], baseUrl: string): string {
  if (!item.preview) return ''
  return `<br><img src="${escape(absolute(baseUrl, item.preview.url))}" alt="${escape(item.preview.alt)}" width="120" style="display:block;margin-top:4px;max-width:120px;height:auto;border:0">`
}

/**
 * The items (ex tax, before any discount, so they add up to the goods line) and the totals from
 * orderTotalLines: one convention, lines that add up to the total.
 */
function orderLines(site: Site, order: OrderData, baseUrl: string): { text: string[]; html: string } {
  const money = (n: number) => formatMoney(n, order.currency)
  const text = order.items.map(
    (i) =>
      `${i.quantity} x ${i.name} (${i.sku})${i.IsFreeGift ? ' - free gift' : ''}: ${money(i.line_total_ex_discount_ex_tax)}` +
      (i.preview ? `\n    ${i.preview.alt}` : ''),
  )
  const totals = orderTotalLines(orderDataTotals(order), siteTotalsOptions(site, order.deliveryName))
  const shown = [...totals.lines, totals.total]
  text.push('', ...shown.map((l) => `${l.label}: ${money(l.amount)}`))
  const rows = order.items
    .map(
      (i) =>
        `<tr><td style="vertical-align:top">${i.quantity}</td><td>${escape(i.name)} <small>(${escape(i.sku)})</small>${previewCell(i, baseUrl)}</td><td style="text-align:right;vertical-align:top">${escape(money(i.line_total_ex_discount_ex_tax))}</td></tr>`,
    )
    .join('')
  const totalRows = shown
    .map(
      (l) =>
        `<tr><td></td><th style="text-align:right">${escape(l.label)}</th><td style="text-align:right">${escape(money(l.amount))}</td></tr>`,
    )
    .join('')
  return { text, html: `<table>${rows}${totalRows}</table>` }
}

/** The order's date the site's way: 27/11/2026 (en-GB), 11/27/2026 (en-US). */
function orderDate(site: Site, order: OrderData): string {
  return formatDate(order.orderDate, site.settings.locale)
}

function common(site: Site, order: OrderData): string[] {
  const po = order.transactions[0]?.paymentDetails.PONumber
  return [
    `Order number: ${order.OrderNumber}`,
    `Order date: ${orderDate(site, order)}`,
    ...(typeof po === 'string' && po ? [`Purchase order number: ${po}`] : []),
    ...(order.VATNumber ? [`VAT number: ${order.VATNumber}`] : []),
    ...(order.Notes ? [`Delivery notes: ${order.Notes}`] : []),
    '',
    'Delivery address:',
    ...addressLines(order.shippingAddress),
    '',
    'Billing address:',
    ...addressLines(order.billingAddress),
  ]
}

/** What the shop says about a guest order's confirmation link (ADR 0145). */
export const CONFIRM_OWNER_TEXT =
  'Have an account with us? To see this order in your order history and order it again, log in and confirm it is yours with this link:'

/**
 * `baseUrl` is the site's address ('https://shop.example'), for the builder lines' previews.
 * `confirmOwnerUrl`: for an order placed without logging in, the shop's signed link by which the
 * owner of the account holding this e-mail adds the order to it (OrderOwnerLinks.url).
 */
export function acknowledgementMail(
  site: Site,
  order: OrderData,
  baseUrl = '',
  options: { confirmOwnerUrl?: string | null } = {},
) {
  const c = order.contactDetails
  const lines = orderLines(site, order, baseUrl)
  const confirm = options.confirmOwnerUrl ?? null
  const text = [
    `Dear ${c.first_name} ${c.last_name},`,
    '',
    `Thank you for your order with ${site.name}. This e-mail acknowledges that we have received it; we will be in touch if we need anything else.`,
    '',
    ...common(site, order),
    '',
    ...lines.text,
    '',
    ...(confirm ? [CONFIRM_OWNER_TEXT, confirm, ''] : []),
    site.settings.invoicingEntity
      ? `Your invoice will come from ${endSentence(site.settings.invoicingEntity)}`
      : '',
    site.settings.contactNumber ? `Questions? Call us on ${site.settings.contactNumber}.` : '',
    site.name,
  ].join('\n')
  const html = `<p>Dear ${escape(c.first_name)} ${escape(c.last_name)},</p><p>Thank you for your order with ${escape(site.name)}. This e-mail acknowledges that we have received it.</p><pre style="font-family:inherit">${escape(common(site, order).join('\n'))}</pre>${lines.html}${confirm ? `<p>${escape(CONFIRM_OWNER_TEXT)}<br><a href="${escape(confirm)}">${escape(confirm)}</a></p>` : ''}<p>${escape(site.name)}</p>`
  return {
    to: [c.email],
    subject: `${site.name}: order acknowledgement ${order.OrderNumber}`,
    text,
    html,
    ...(site.settings.contactEmail ? { replyTo: site.settings.contactEmail } : {}),
  }
}

export function notificationMail(site: Site, order: OrderData, to: string, baseUrl = '') {
  const c = order.contactDetails
  const lines = orderLines(site, order, baseUrl)
  const method = order.transactions[0]?.paymentProvider ?? ''
  const text = [
    `New order ${order.OrderNumber} on ${site.name} (${method}).`,
    '',
    `Customer: ${c.first_name} ${c.last_name}${c.company ? `, ${c.company}` : ''}`,
    `E-mail: ${c.email}`,
    `Telephone: ${c.phone}`,
    '',
    ...common(site, order),
    '',
    ...lines.text,
  ].join('\n')
  return {
    to: [to],
    subject: `New order ${order.OrderNumber} (${method})`,
    text,
    html: `<pre style="font-family:inherit">${escape(text)}</pre>`,
    replyTo: c.email,
  }
}
