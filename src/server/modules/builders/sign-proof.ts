/**
 * The printable PDF proof of a designed sign (from the basket): the stored, sanitised printable
 * SVG rasterised by sharp (librsvg, the same fonts the printer's RIP is sent) at up to 300 dpi,
 * placed on an A4 page by pdfkit with the sign's wording, size, material and quantity.
 */
import { createHash } from 'node:crypto'
import PDFDocument from 'pdfkit'
import sharp from 'sharp'
import type { UploadStore } from '../../lib/upload-store.ts'
import type { PrintableSign } from '../cart/cart.tables.ts'

/** Bump when the proof's layout changes, so stored proofs are made again. */
const PROOF_LAYOUT = 1

/** Longest side of the embedded image, pixels (a 600 mm sign at 300 dpi would be 7,000) */
const MAX_PIXELS = 2000

export interface ProofDetails {
  shopName: string
  sku: string
  quantity: number
}

export async function signProofPdf(sign: PrintableSign, details: ProofDetails): Promise<Buffer> {
  const stored = sign.design
  if (!sign.printableSVG || !stored) throw new Error('This line has no printable sign')
  const { width, height } = stored.size
  const longestInches = Math.max(width, height) / 25.4
  const density = Math.max(36, Math.min(300, Math.floor(MAX_PIXELS / longestInches)))
  // JPEG at high quality without chroma subsampling: pdfkit embeds it as is (a PNG would be
  // decoded and re-compressed in JavaScript, some thirty times slower).
  const image = await sharp(Buffer.from(sign.printableSVG), { density })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 92, chromaSubsampling: '4:4:4' })
    .toBuffer()

  const doc = new PDFDocument({
    size: 'A4',
    margin: 48,
    info: { Title: `Sign proof: ${sign.signReads ?? ''}`, Author: details.shopName },
  })
  const chunks: Buffer[] = []
  doc.on('data', (c: Buffer) => chunks.push(c))
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  doc.font('Helvetica-Bold').fontSize(20).text('Sign proof')
  doc.moveDown(0.3).font('Helvetica').fontSize(10).fillColor('#374151').text(details.shopName)
  doc.moveDown(1)
  const boxWidth = doc.page.width - 96
  doc.image(image, { fit: [boxWidth, 420], align: 'center' })
  doc.moveDown(1)
  doc.fillColor('#000000').fontSize(11)
  const rows: [string, string][] = [
    ['Sign reads', sign.signReads ?? ''],
    ['Size', stored.sizeLabel],
    ['Material', stored.material],
    ['Product code', details.sku],
    ['Quantity', String(details.quantity)],
  ]
  if (stored.numberLabel !== undefined) rows.push(['Number in set', stored.numberLabel])
  for (const [label, value] of rows) {
    doc.font('Helvetica-Bold').text(`${label}: `, { continued: true }).font('Helvetica').text(value)
  }
  doc.moveDown(1)
  doc
    .fontSize(9)
    .fillColor('#4B5563')
    .text(
      'Colours are shown as close to the safety colours (ISO 3864-4) as a screen or office printer allows. ' +
        'The sign is printed from the same drawing at full size.',
    )
  doc.end()
  return done
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
