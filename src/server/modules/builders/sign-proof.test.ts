import { extractText, getDocumentProxy } from 'unpdf'
import { describe, expect, it } from 'vitest'
import type { SignDesign } from '../../../shared/sign/design.ts'
import { renderSign } from '../../../shared/sign/render.ts'
import type { PrintableSign } from '../cart/cart.tables.ts'
import { drawingBox, signProofPdf } from './sign-proof.ts'

const design: SignDesign = {
  type: 'warning',
  layout: 'symbol-text',
  orientation: 'landscape',
  symbol: 'flame',
  lines: ['Highly flammable', 'No naked flames'],
}

function line(size: { width: number; height: number }, numberLabel?: string): PrintableSign {
  const svg = renderSign(design, size, numberLabel ? { numberLabel } : {}).svg
  return {
    url: '/design-a-sign',
    printableSVG: svg,
    webVersionOfSVG: svg,
    signReads: 'Highly flammable / No naked flames',
    design: {
      design,
      size,
      sizeLabel: `${size.width} x ${size.height} mm`,
      material: '1mm rigid plastic',
      sku: 'SIGN-600x200-RP',
      ...(numberLabel ? { numberLabel } : {}),
    },
  }
}

async function read(pdf: Buffer) {
  const doc = await getDocumentProxy(new Uint8Array(pdf))
  const page = await doc.getPage(1)
  const { text } = await extractText(doc, { mergePages: true })
  return { pages: doc.numPages, view: page.view, text: text.replace(/\s+/g, ' ') }
}

describe('the sign proof PDF', () => {
  it('is one A4 page with the wording, size, material, code, quantity, dimensions and an approval box', async () => {
    const pdf = await signProofPdf(line({ width: 600, height: 200 }), {
      shopName: 'Harbour Safety',
      sku: 'SIGN-600x200-RP',
      quantity: 2,
      date: new Date('2026-11-24T10:00:00Z'),
    })
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
    const { pages, view, text } = await read(pdf)
    expect(pages).toBe(1)
    expect(view.map((n) => Math.round(n))).toEqual([0, 0, 595, 842])
    for (const expected of [
      'Sign proof',
      'Harbour Safety',
      '24 November 2026',
      'Sign reads Highly flammable / No naked flames',
      'Size 600 x 200 mm',
      'Material 1mm rigid plastic',
      'Product code SIGN-600x200-RP',
      'Quantity 2',
      '600 mm',
      '200 mm',
      'Approved by',
    ])
      expect(text).toContain(expected)
    expect(text).not.toContain('Number in set')
  })

  it('names the number of a sign from a numbered set', async () => {
    const pdf = await signProofPdf(line({ width: 200, height: 300 }, 'FP07'), {
      shopName: 'Harbour Safety',
      sku: 'SIGN-200x300-RP',
      quantity: 1,
    })
    const { pages, text } = await read(pdf)
    expect(pages).toBe(1)
    expect(text).toContain('Number in set FP07')
  })

  it('draws the sign as large as fits, in its own proportions, inside the margins', () => {
    for (const size of [
      { width: 600, height: 200 },
      { width: 200, height: 300 },
      { width: 1000, height: 1000 },
    ]) {
      const box = drawingBox(size)
      expect(box.w / box.h).toBeCloseTo(size.width / size.height, 5)
      expect(box.x).toBeGreaterThanOrEqual(48)
      expect(box.x + box.w).toBeLessThanOrEqual(595.28 - 48)
      expect(box.h).toBeLessThanOrEqual(380)
    }
  })

  it('refuses a line without a printable sign', async () => {
    await expect(
      signProofPdf({ url: '/x' }, { shopName: 'Harbour Safety', sku: 'X', quantity: 1 }),
    ).rejects.toThrow('This line has no printable sign')
  })
})
