/**
 * The printable PDF proof of a designed sign (from the basket): the stored, sanitised printable
 * SVG rasterised by sharp (librsvg, the same fonts the printer's RIP is sent) at up to 300 dpi,
 * placed on one A4 page by pdfkit with its width and height marked, the sign's wording, size,
 * material and quantity in a table, and a box for the customer's approval.
 */
import { createHash } from 'node:crypto'
import type { UploadStore } from '../../lib/upload-store.ts'
import type { PrintableSign } from '../cart/cart.tables.ts'

/** Bump when the proof's layout changes, so stored proofs are made again. */
const PROOF_LAYOUT = 2

/** Longest side of the embedded image, pixels (a 600 mm sign at 300 dpi would be 7,000) */
const MAX_PIXELS = 2000
/** A4 in PDF points, and the page margin */
const PAGE = { width: 595.28, height: 841.89, margin: 48 } as const
/** Largest height the drawing may take on the page, points */
const DRAWING_MAX_HEIGHT = 380
/** Room kept right of and below the drawing for its dimension marks */
const DIMENSION_ROOM = 28
const INK = '#111827'
const MUTED = '#4B5563'
const RULE = '#9CA3AF'

export interface ProofDetails {
  shopName: string
  sku: string
  quantity: number
  /** When the proof is made (shown on the page); now unless given */
  date?: Date
}

/** Where the drawing goes: as large as fits, centred, keeping the sign's proportions. */
export function drawingBox(size: { width: number; height: number }) {
  const content = PAGE.width - 2 * PAGE.margin - DIMENSION_ROOM
  const scale = Math.min(content / size.width, DRAWING_MAX_HEIGHT / size.height)
  const w = size.width * scale
  const h = size.height * scale
  return { x: PAGE.margin + (content - w) / 2, w, h }
}

export async function signProofPdf(sign: PrintableSign, details: ProofDetails): Promise<Buffer> {
  const stored = sign.design
  if (!sign.printableSVG || !stored) throw new Error('This line has no printable sign')
  const { width, height } = stored.size
  const longestInches = Math.max(width, height) / 25.4
  const density = Math.max(36, Math.min(300, Math.floor(MAX_PIXELS / longestInches)))
  // JPEG at high quality without chroma subsampling: pdfkit embeds it as is (a PNG would be
  // decoded and re-compressed in JavaScript, some thirty times slower).
  const { default: sharp } = await import('sharp')
  const image = await sharp(Buffer.from(sign.printableSVG), { density })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 92, chromaSubsampling: '4:4:4' })
    .toBuffer()

  const { default: PDFDocument } = await import('pdfkit')
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    info: { Title: `Sign proof: ${sign.signReads ?? ''}`, Author: details.shopName },
  })
  const chunks: Buffer[] = []
  doc.on('data', (c: Buffer) => chunks.push(c))
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  const left = PAGE.margin
  const right = PAGE.width - PAGE.margin
  const contentWidth = right - left

  // Heading: title on the left, shop and date on the right, a rule below.
  const date = (details.date ?? new Date()).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  })
  doc.font('Helvetica-Bold').fontSize(20).fillColor(INK).text('Sign proof', left, PAGE.margin)
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor(MUTED)
    .text(details.shopName, left, PAGE.margin + 2, { width: contentWidth, align: 'right' })
    .text(date, left, PAGE.margin + 15, { width: contentWidth, align: 'right' })
  const ruleY = PAGE.margin + 34
  doc.moveTo(left, ruleY).lineTo(right, ruleY).lineWidth(0.75).strokeColor(RULE).stroke()

  // The drawing, with its width marked below and its height to the right.
  const box = drawingBox(stored.size)
  const top = ruleY + 24
  doc.image(image, box.x, top, { width: box.w, height: box.h })
  doc.rect(box.x, top, box.w, box.h).lineWidth(0.5).strokeColor(RULE).stroke()
  const bottom = top + box.h
  dimension(doc, { x1: box.x, y1: bottom + 12, x2: box.x + box.w, y2: bottom + 12 }, `${width} mm`)
  const side = box.x + box.w + 12
  dimension(doc, { x1: side, y1: top, x2: side, y2: bottom }, `${height} mm`)

  // What the customer is approving, as a table.
  const rows: [string, string][] = [
    ['Sign reads', sign.signReads ?? ''],
    ['Size', stored.sizeLabel],
    ['Material', stored.material],
    ['Product code', details.sku],
    ['Quantity', String(details.quantity)],
  ]
  if (stored.numberLabel !== undefined) rows.push(['Number in set', stored.numberLabel])
  const labelWidth = 110
  let y = bottom + 44
  for (const [label, value] of rows) {
    doc.font('Helvetica-Bold').fontSize(11).fillColor(INK).text(label, left, y, { width: labelWidth })
    doc.font('Helvetica').text(value, left + labelWidth, y, { width: contentWidth - labelWidth })
    y = Math.max(doc.y, y + 14) + 5
    doc
      .moveTo(left, y - 3)
      .lineTo(right, y - 3)
      .lineWidth(0.25)
      .strokeColor('#D1D5DB')
      .stroke()
  }
  doc
    .fontSize(9)
    .fillColor(MUTED)
    .text(
      'Colours are shown as close to the safety colours (ISO 3864-4) as a screen or office printer allows. ' +
        'The sign is printed from the same drawing at full size.',
      left,
      y + 8,
      { width: contentWidth },
    )

  // The approval box, at the foot of the page.
  const boxHeight = 84
  const boxTop = PAGE.height - PAGE.margin - boxHeight
  doc.rect(left, boxTop, contentWidth, boxHeight).lineWidth(0.75).strokeColor(RULE).stroke()
  doc
    .font('Helvetica-Bold')
    .fontSize(11)
    .fillColor(INK)
    .text('Before you order', left + 12, boxTop + 10, { width: contentWidth - 24 })
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor(MUTED)
    .text(
      'Please check the wording, spelling, numbers, size and material. Made-to-order signs are printed exactly as shown.',
      left + 12,
      boxTop + 26,
      { width: contentWidth - 24 },
    )
  const lineY = boxTop + boxHeight - 16
  doc
    .fontSize(10)
    .fillColor(INK)
    .text('Approved by', left + 12, lineY - 10)
  doc.text('Date', left + contentWidth / 2 + 24, lineY - 10)
  doc
    .moveTo(left + 80, lineY)
    .lineTo(left + contentWidth / 2, lineY)
    .moveTo(left + contentWidth / 2 + 54, lineY)
    .lineTo(right - 12, lineY)
    .lineWidth(0.5)
    .strokeColor(INK)
    .stroke()
  doc.end()
  return done
}

/** A dimension mark: a line with end ticks between two points, and its label beside the middle. */
function dimension(
  doc: PDFKit.PDFDocument,
  at: { x1: number; y1: number; x2: number; y2: number },
  label: string,
) {
  const horizontal = at.y1 === at.y2
  const tick = 4
  doc.lineWidth(0.5).strokeColor(MUTED)
  doc.moveTo(at.x1, at.y1).lineTo(at.x2, at.y2)
  if (horizontal) {
    doc.moveTo(at.x1, at.y1 - tick).lineTo(at.x1, at.y1 + tick)
    doc.moveTo(at.x2, at.y2 - tick).lineTo(at.x2, at.y2 + tick)
  } else {
    doc.moveTo(at.x1 - tick, at.y1).lineTo(at.x1 + tick, at.y1)
    doc.moveTo(at.x2 - tick, at.y2).lineTo(at.x2 + tick, at.y2)
  }
  doc.stroke()
  doc.font('Helvetica').fontSize(9).fillColor(MUTED)
  const textWidth = doc.widthOfString(label)
  if (horizontal) {
    doc.text(label, (at.x1 + at.x2) / 2 - textWidth / 2, at.y1 + 5, { lineBreak: false })
  } else {
    const middle = (at.y1 + at.y2) / 2
    doc.save()
    doc.rotate(-90, { origin: [at.x1 + 5, middle] })
    doc.text(label, at.x1 + 5 - textWidth / 2, middle, { lineBreak: false })
    doc.restore()
  }
}

/**
 * The proof from the upload store, made and stored on first request. The key is the hash of
 * everything printed on it, so a changed sign or quantity gets a new proof, and every instance
 * hands out the one already made (a sign proof takes a second or more to render).
 */
export async function storedSignProof(
  uploads: UploadStore,
  sign: PrintableSign,
  details: ProofDetails,
): Promise<Buffer> {
  const hash = createHash('sha256')
    .update(JSON.stringify([PROOF_LAYOUT, sign.printableSVG, sign.signReads ?? '', sign.design, details]))
    .digest('hex')
  const key = `sign-proofs/${hash}.pdf`
  const kept = await uploads.get(key)
  if (kept) return kept.data
  const pdf = await signProofPdf(sign, details)
  await uploads.put(key, pdf, 'application/pdf')
  return pdf
}
