import { mkdtemp, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { docxDocument, pdfDocument, xlsxDocument } from './documents.ts'
import { escapeXml, productSvg, renderPhoto, wrapText, writeMediaFiles, type MediaFile } from './media.ts'

let root: string
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'seed-media-'))
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

const svgFile = (path: string, text: string): MediaFile => {
  const svg = productSvg('warning', text)
  return { path, key: svg, render: () => Buffer.from(svg) }
}

describe('seed media files', () => {
  it('are written once and skipped on an identical second run', async () => {
    const files = [svgFile('catalog/a.svg', 'Caution Wet Floor'), svgFile('catalog/sub/b.svg', 'Trip Hazard')]
    expect(await writeMediaFiles(root, 'test', files)).toEqual({ written: 2, total: 2 })
    const before = await stat(join(root, 'catalog/a.svg'))
    expect(await writeMediaFiles(root, 'test', files)).toEqual({ written: 0, total: 2 })
    expect((await stat(join(root, 'catalog/a.svg'))).mtimeMs).toBe(before.mtimeMs)
  })

  it('are written again when one was deleted or the content changed', async () => {
    const files = [svgFile('a.svg', 'One'), svgFile('b.svg', 'Two')]
    await writeMediaFiles(root, 'test', files)
    await unlink(join(root, 'a.svg'))
    expect((await writeMediaFiles(root, 'test', files)).written).toBe(1)
    expect((await writeMediaFiles(root, 'test', [svgFile('a.svg', 'One changed'), files[1]!])).written).toBe(
      2,
    )
    expect(await readFile(join(root, 'a.svg'), 'utf8')).toContain('ONE CHANGED')
  })

  it('escape product text inside the SVG', () => {
    const svg = productSvg('custom', 'Tom & Jerry <script>')
    expect(svg).not.toContain('<script>')
    expect(svg).toContain('&amp;')
    expect(escapeXml(`"'<>&`)).toBe('&quot;&#39;&lt;&gt;&amp;')
  })

  it('wrap long text into a few lines', () => {
    expect(wrapText('Isolate Before Removing Cover', 16, 3)).toEqual(['Isolate Before', 'Removing Cover'])
    expect(wrapText('a b c d e f g h', 3, 2)).toEqual(['a b', 'c d…'])
  })

  it('draw raster photos of the requested size, identical on every run', async () => {
    const spec = { shape: 'chair', colour: '#1d4f91', format: 'jpeg' as const, size: 120 }
    const a = await renderPhoto(spec)
    expect(a.equals(await renderPhoto(spec))).toBe(true)
    expect(await sharp(a).metadata()).toMatchObject({ format: 'jpeg', width: 120, height: 120 })
    const png = await renderPhoto({ ...spec, format: 'png' })
    expect((await sharp(png).metadata()).format).toBe('png')
  })
})

describe('seed documents', () => {
  it('are a PDF with a cross-reference table', () => {
    const pdf = pdfDocument('Fire Exit Signs – Data Sheet', ['Line (one)', 'Line two'])
    const text = pdf.toString('latin1')
    expect(text.startsWith('%PDF-1.4')).toBe(true)
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true)
    expect(text).toContain('(Fire Exit Signs - Data Sheet)')
    expect(text).toContain('\\(one\\)')
    const xref = Number(/startxref\n(\d+)/.exec(text)?.[1])
    expect(text.slice(xref, xref + 4)).toBe('xref')
  })

  it('are Office files in a ZIP container, byte-identical on every run', () => {
    const docx = docxDocument('Guide', ['Step 1'])
    const xlsx = xlsxDocument([
      ['Product', 'Price'],
      ['Sign', 4.99],
    ])
    for (const file of [docx, xlsx]) {
      expect(file.subarray(0, 4).toString('hex')).toBe('504b0304')
      expect(file.readUInt32LE(file.length - 22)).toBe(0x06054b50)
    }
    expect(docxDocument('Guide', ['Step 1']).equals(docx)).toBe(true)
    expect(xlsx.toString('utf8')).toContain('<v>4.99</v>')
  })

  it('can be written next to the images', async () => {
    await writeFile(join(root, 'x.pdf'), pdfDocument('T', []))
    expect((await stat(join(root, 'x.pdf'))).size).toBeGreaterThan(100)
  })
})
