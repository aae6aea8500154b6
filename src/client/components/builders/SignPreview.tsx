/**
 * The live preview of a designed sign: the shared renderer's SVG shown as an image (a data: URL),
 * so no markup is ever inserted into the page. The server stores the same SVG for printing.
 */
import { signReads, type SignDesign, type SignSize } from '../../../shared/sign/design.ts'
import { renderSign, svgDataUrl } from '../../../shared/sign/render.ts'

/** The SVG the preview shows for a design (exported for the test that compares it with the server's). */
export function previewSvg(design: SignDesign, size: SignSize, numberLabel?: string): string {
  return renderSign(design, size, { numberLabel }).svg
}

export function SignPreview({
  design,
  size,
  numberLabel,
  className = '',
}: {
  design: SignDesign
  size: SignSize
  numberLabel?: string
  className?: string
}) {
  const reads = signReads(design, numberLabel)
  return (
    <img
      src={svgDataUrl(previewSvg(design, size, numberLabel))}
      alt={reads ? `Preview of your sign, which reads: ${reads}` : 'Preview of your sign'}
      className={`h-auto w-full ${className}`}
      data-testid="sign-preview"
    />
  )
}
