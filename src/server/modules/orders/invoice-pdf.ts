/**
 * An invoice as a PDF a customer can file: drawn by pdfkit on the server from the same stored
 * invoice the Invoices page shows (number, date, amount, lines, totals), with the seller's
 * company details from the site settings.
 */
import type { InvoiceView } from '../../../shared/account.ts'
import { formatMoney } from '../../../shared/money.ts'
import type { Site } from '../sites/sites.service.ts'

export async function invoicePdf(site: Site, invoice: InvoiceView, customerName: string): Promise<Buffer> {
  const currency = invoice.currency
  const money = (n: number) => formatMoney(n, currency)
  const locale = currency === 'USD' ? 'en-US' : 'en-GB'
  const date = new Date(invoice.Invoice_Date).toLocaleDateString(locale, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  })
  const company = site.settings.company
  const seller = site.settings.invoicingEntity || company.name || site.name

  const { default: PDFDocument } = await import('pdfkit')
  const doc = new PDFDocument({
    size: 'A4',
    margin: 48,
    info: {
      Title: `Invoice ${invoice.Invoice_Number}`,
      Author: seller,
      Subject: `Order ${invoice.OrderNumber}`,
    },
  })
  const chunks: Buffer[] = []
  doc.on('data', (c: Buffer) => chunks.push(c))
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })

  doc.font('Helvetica-Bold').fontSize(22).text('Invoice')
  doc.moveDown(0.2).font('Helvetica').fontSize(10).fillColor('#374151')
  doc.text(seller)
  if (company.registeredAddress) doc.text(company.registeredAddress)
  if (company.number) doc.text(`Company number ${company.number}`)
  if (company.vatNumber) doc.text(`${site.settings.tax.name} number ${company.vatNumber}`)
  doc.moveDown(1).fillColor('#000000').fontSize(11)
  const facts: [string, string][] = [
    ['Invoice number', String(invoice.Invoice_Number)],
    ['Invoice date', date],
    ['Order number', String(invoice.OrderNumber)],
    ['Invoice amount', money(invoice.Invoice_Amount)],
  ]
  for (const [label, value] of facts) {
    doc.font('Helvetica-Bold').text(`${label}: `, { continued: true }).font('Helvetica').text(value)
  }
  doc.moveDown(1).font('Helvetica-Bold').text('Invoice to')
  doc.font('Helvetica')
  const a = invoice.billingAddress
  for (const line of [
    customerName,
    a.company,
    a.address1,
    a.address2,
    a.town,
    a.county,
    a.postcode,
    a.country,
  ]) {
    if (line) doc.text(line)
  }

  doc.moveDown(1)
  const left = doc.page.margins.left
  const cols = [left, left + 80, left + 300, left + 350, left + 420]
  const header = ['Code', 'Description', 'Qty', 'Unit', 'Total']
  const row = (cells: string[], bold = false) => {
    const y = doc.y
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9)
    const heights = cells.map((c, i) => {
      const width = i === 1 ? 210 : i === cols.length - 1 ? 80 : (cols[i + 1] ?? 0) - (cols[i] ?? 0) - 6
      return doc.heightOfString(c, { width })
    })
    cells.forEach((c, i) => {
      const width = i === 1 ? 210 : i === cols.length - 1 ? 80 : (cols[i + 1] ?? 0) - (cols[i] ?? 0) - 6
      doc.text(c, cols[i], y, { width, align: i >= 2 ? 'right' : 'left' })
    })
    doc.y = y + Math.max(...heights) + 4
    doc.x = left
  }
  row(header, true)
  for (const l of invoice.lines) {
    if (doc.y > doc.page.height - 140) doc.addPage()
    row([l.sku, l.name, String(l.quantity), money(l.unitPrice), money(l.lineTotal)])
  }
  doc.moveDown(1)
  // The same lines as the Invoices page: ex tax, then the tax, then a total they add up to.
  const totals: [string, string][] = [...invoice.totals.lines, invoice.totals.total].map((l) => [
    l.label,
    money(l.amount),
  ])
  for (const [label, value] of totals) {
    const y = doc.y
    doc.font(label === invoice.totals.total.label ? 'Helvetica-Bold' : 'Helvetica').fontSize(10)
    doc.text(label, cols[2], y, { width: 110 })
    doc.text(value, cols[4], y, { width: 80, align: 'right' })
    doc.x = left
  }
  doc.end()
  return done
}
