import sanitizeHtml from 'sanitize-html'

/**
 * SVG sanitisers. Signs: the server draws them itself (src/shared/sign/render.ts), and the drawing
 * still passes this allow-list before it is stored, so what is kept with a basket line can only
 * ever be shapes and text (no script, no event handlers, no links, no external images). Logos
 * uploaded to the workwear builder pass a wider allow-list of drawing elements. Both are
 * idempotent on their own output, and the sign renderer's output passes through unchanged (a
 * unit test holds that), so the stored file is byte for byte the designer's preview.
 */

const SHAPES = ['path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon']

const PRESENTATION = [
  'fill',
  'fill-rule',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-opacity',
  'opacity',
  'transform',
]

const signOptions: sanitizeHtml.IOptions = {
  allowedTags: ['svg', 'title', 'g', 'text', ...SHAPES],
  allowedAttributes: {
    svg: ['xmlns', 'viewBox', 'width', 'height', 'role'],
    g: [...PRESENTATION, 'font-family', 'font-weight', 'font-size', 'text-anchor'],
    text: ['x', 'y', ...PRESENTATION],
    path: ['d', ...PRESENTATION],
    rect: ['x', 'y', 'width', 'height', 'rx', 'ry', ...PRESENTATION],
    circle: ['cx', 'cy', 'r', ...PRESENTATION],
    ellipse: ['cx', 'cy', 'rx', 'ry', ...PRESENTATION],
    line: ['x1', 'y1', 'x2', 'y2', ...PRESENTATION],
    polyline: ['points', ...PRESENTATION],
    polygon: ['points', ...PRESENTATION],
  },
  selfClosing: SHAPES,
  allowedSchemes: [],
  parser: { xmlMode: true, decodeEntities: true },
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'foreignObject', 'foreignobject'],
}

/** A printable sign or its preview, drawn by the server, as it may be stored and served. */
export function sanitizeSignSvg(svg: string): string {
  return sanitizeHtml(svg, signOptions)
}

const GRADIENT = [
  'id',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'fx',
  'fy',
  'gradientUnits',
  'gradientTransform',
]

const logoOptions: sanitizeHtml.IOptions = {
  allowedTags: [
    'svg',
    'g',
    'defs',
    'title',
    'desc',
    'text',
    'tspan',
    'linearGradient',
    'radialGradient',
    'stop',
    'clipPath',
    ...SHAPES,
  ],
  allowedAttributes: {
    svg: ['xmlns', 'viewBox', 'width', 'height', 'preserveAspectRatio', ...PRESENTATION],
    g: ['id', 'clip-path', ...PRESENTATION, 'font-family', 'font-weight', 'font-size', 'text-anchor'],
    text: ['x', 'y', 'dx', 'dy', ...PRESENTATION, 'font-family', 'font-weight', 'font-size', 'text-anchor'],
    tspan: ['x', 'y', 'dx', 'dy', ...PRESENTATION, 'font-family', 'font-weight', 'font-size'],
    linearGradient: GRADIENT,
    radialGradient: GRADIENT,
    stop: ['offset', 'stop-color', 'stop-opacity'],
    clipPath: ['id', 'clipPathUnits'],
    path: ['d', 'clip-path', ...PRESENTATION],
    rect: ['x', 'y', 'width', 'height', 'rx', 'ry', 'clip-path', ...PRESENTATION],
    circle: ['cx', 'cy', 'r', 'clip-path', ...PRESENTATION],
    ellipse: ['cx', 'cy', 'rx', 'ry', 'clip-path', ...PRESENTATION],
    line: ['x1', 'y1', 'x2', 'y2', ...PRESENTATION],
    polyline: ['points', ...PRESENTATION],
    polygon: ['points', 'clip-path', ...PRESENTATION],
  },
  // Paint may refer to a gradient in the same file (url(#id)), never to anything outside it.
  allowedSchemes: [],
  selfClosing: [...SHAPES, 'stop'],
  parser: { xmlMode: true, decodeEntities: true, lowerCaseTags: false, lowerCaseAttributeNames: false },
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'foreignObject', 'foreignobject'],
}

const LOCAL_REF = /^url\(#[\w-]+\)$/
const PAINT_ATTRS = ['fill', 'stroke', 'clip-path']

/**
 * An uploaded SVG logo, reduced to drawing elements; null when nothing drawable is left (or it
 * is not an <svg> document). Paint that points outside the file (url(http…)) is dropped.
 */
export function sanitizeLogoSvg(svg: string): string | null {
  const clean = sanitizeHtml(svg, {
    ...logoOptions,
    transformTags: {
      '*': (tagName, attribs) => {
        const kept: Record<string, string> = {}
        for (const [k, v] of Object.entries(attribs)) {
          if (PAINT_ATTRS.includes(k) && v.includes('(') && !LOCAL_REF.test(v.trim())) continue
          if (k === 'transform' && !/^[\w\s.,()-]*$/.test(v)) continue
          kept[k] = v
        }
        return { tagName, attribs: kept }
      },
    },
  }).trim()
  if (
    !/^<svg[\s>]/.test(clean) ||
    !/<(path|rect|circle|ellipse|line|polyline|polygon|text)[\s>/]/.test(clean)
  ) {
    return null
  }
  return clean.includes('xmlns=') ? clean : clean.replace(/^<svg/, '<svg xmlns="http://www.w3.org/2000/svg"')
}
