/**
 * 'Design A Sign' on the server: the sign categories' sizes and materials (their SKUs), the
 * check of a design sent by the browser, and the lines it becomes. The printable SVG, the web
 * preview and signReads are drawn here from the design with the shared renderer and sanitised;
 * whatever SVG the browser sent is ignored. Prices come from the SKU's brackets (the pricing engine).
 */
import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import { text as safeText } from '../../../shared/text.ts'
import type { Db } from '../../db/client.ts'
import {
  checkDesign,
  checkSequence,
  SIGN_LAYOUTS,
  SIGN_ORIENTATIONS,
  SIGN_TEXT,
  SIGN_TYPES,
  MAX_SIGN_LINES,
  sequenceLabels,
  signReads,
  suitsOrientation,
  type SignErrors,
  type SignSequence,
} from '../../../shared/sign/design.ts'
import type { SignDesignerProps, SignVariant } from '../../../shared/sign/designer.ts'
import { fitErrors, renderSign } from '../../../shared/sign/render.ts'
import { MAX_QUANTITY } from '../../../shared/cart.ts'
import { sanitizeSignSvg } from '../../lib/svg-sanitize.ts'
import type { BuilderLine } from '../cart/cart.service.ts'
import type { PrintableSign } from '../cart/cart.tables.ts'
import { builderSkus, findBuilderCategory } from './builders.queries.ts'

const SIZE_KEY = /^(\d{2,4})x(\d{2,4})$/
/** Width of the basket and e-mail preview, CSS pixels */
export const WEB_PREVIEW_WIDTH = 240

export interface SignCategory {
  id: number
  name: string
  url: string
  variants: SignVariant[]
}

/** A sign category of the site with its sizes and materials; null when it is not one. */
export async function loadSignCategory(
  db: Db,
  siteId: number,
  categoryId: number,
): Promise<SignCategory | null> {
  const category = await findBuilderCategory(db, siteId, categoryId, 'sign')
  if (!category) return null
  const variants: SignVariant[] = []
  for (const row of await builderSkus(db, siteId, categoryId)) {
    const match = SIZE_KEY.exec(row.rowKey ?? '')
    if (!match) continue
    const size = { width: Number(match[1]), height: Number(match[2]) }
    variants.push({
      productId: row.productId,
      sku: row.sku,
      size,
      sizeLabel: `${size.width} × ${size.height} mm`,
      material: row.optionLabel ?? 'Standard',
      brackets: row.brackets,
    })
  }
  return { ...category, variants }
}

const text = (max: number) => safeText({ error: 'This must be text.' }).max(max)

const designSchema = z.object({
  type: z.enum(SIGN_TYPES, { error: SIGN_TEXT.unknownType }),
  layout: z.enum(SIGN_LAYOUTS, { error: SIGN_TEXT.unknownLayout }),
  orientation: z.enum(SIGN_ORIENTATIONS, { error: SIGN_TEXT.unknownLayout }),
  symbol: safeText().max(60).nullable(),
  lines: z.array(text(200), { error: SIGN_TEXT.emptyText }).max(MAX_SIGN_LINES, SIGN_TEXT.tooManyLines),
})

const sequenceSchema = z
  .object({
    start: z.number({ error: SIGN_TEXT.sequenceNumber }),
    end: z.number({ error: SIGN_TEXT.sequenceNumber }).optional(),
    count: z.number({ error: SIGN_TEXT.sequenceNumber }).optional(),
    prefix: text(100).default(''),
    suffix: text(100).default(''),
    pad: z.number({ error: SIGN_TEXT.sequencePad }).default(0),
  })
  .transform((s): SignSequence => ({
    start: s.start,
    end: s.end ?? (s.count !== undefined ? s.start + s.count - 1 : s.start),
    prefix: s.prefix,
    suffix: s.suffix,
    pad: s.pad,
  }))

/** The legacy add call: the SVGs and signReads the browser sends are accepted and ignored. */
export const signAddSchema = z.object({
  items: z
    .array(
      z.object({
        sku: text(100),
        catid: z.number({ error: SIGN_TEXT.sizeNotInGrid }).int().positive(),
        qty: z
          .number({ error: 'The quantity must be a number.' })
          .int('The quantity must be a whole number.')
          .min(1, 'The quantity must be at least 1.')
          .max(MAX_QUANTITY, `The quantity may not be greater than ${MAX_QUANTITY}.`),
        url: safeText().max(500).optional(),
        printableSVG: safeText().max(500_000).optional(),
        webVersionOfSVG: safeText().max(500_000).optional(),
        signReads: safeText().max(2000).optional(),
        reporting_json: z.unknown().optional(),
        sequence_id: z.unknown().optional(),
        design: designSchema,
        sequence: sequenceSchema.optional(),
      }),
    )
    .min(1, 'Design a sign first.')
    .max(10, 'Too many signs in one request.'),
  item_id: z.number().int().positive().optional(),
})

export type SignAddBody = z.output<typeof signAddSchema>

/** A 422 answer's messages, by field. */
export class SignDesignError extends Error {
  constructor(readonly errors: SignErrors) {
    super(Object.values(errors)[0]?.[0] ?? 'The design is not valid.')
  }
}

function prefixed(errors: SignErrors, prefix: string): SignErrors {
  return Object.fromEntries(Object.entries(errors).map(([k, v]) => [`${prefix}${k}`, v]))
}

/**
 * The basket lines of a designed sign (or numbered set), drawn by the server. Throws a
 * SignDesignError for a design that breaks a rule: nothing is changed then.
 */
export async function signLines(db: Db, siteId: number, body: SignAddBody): Promise<BuilderLine[]> {
  const out: BuilderLine[] = []
  const cache = new Map<number, SignCategory | null>()
  for (const [index, item] of body.items.entries()) {
    const at = body.items.length > 1 ? `items.${index}.` : ''
    if (!cache.has(item.catid)) cache.set(item.catid, await loadSignCategory(db, siteId, item.catid))
    const category = cache.get(item.catid)
    const variant = category?.variants.find((v) => v.sku === item.sku)
    if (!category || !variant) throw new SignDesignError({ [`${at}size`]: [SIGN_TEXT.sizeNotInGrid] })
    const design = { ...item.design, symbol: item.design.layout === 'text-only' ? null : item.design.symbol }
    let errors: SignErrors = checkDesign(design)
    if (!suitsOrientation(variant.size, design.orientation)) {
      errors.size = [...(errors.size ?? []), SIGN_TEXT.wrongOrientation]
    }
    const sequence = item.sequence
    if (sequence) errors = { ...errors, ...checkSequence(sequence) }
    if (
      Object.keys(errors).length === 0 &&
      sequence &&
      (sequence.end - sequence.start + 1) * item.qty > MAX_QUANTITY
    ) {
      errors.qty = [`A numbered set may have at most ${MAX_QUANTITY} signs in all.`]
    }
    if (Object.keys(errors).length) throw new SignDesignError(prefixed(errors, at))
    const labels = sequence ? sequenceLabels(sequence) : []
    const fit = fitErrors(design, variant.size, labels)
    if (Object.keys(fit).length) throw new SignDesignError(prefixed(fit, at))

    const url = `/design-a-sign/${category.id}`
    const sequenceId = sequence ? `seq-${randomBytes(12).toString('base64url')}` : null
    for (const label of labels.length ? labels : [undefined]) {
      const printableSVG = sanitizeSignSvg(renderSign(design, variant.size, { numberLabel: label }).svg)
      const webVersionOfSVG = sanitizeSignSvg(
        renderSign(design, variant.size, { numberLabel: label, displayWidth: WEB_PREVIEW_WIDTH }).svg,
      )
      const printableSign: PrintableSign = {
        url,
        printableSVG,
        webVersionOfSVG,
        signReads: signReads(design, label),
        design: {
          design,
          size: variant.size,
          sizeLabel: variant.sizeLabel,
          material: variant.material,
          sku: variant.sku,
          ...(sequence ? { sequence, numberLabel: label } : {}),
        },
      }
      out.push({
        productId: variant.productId,
        categoryId: category.id,
        quantity: item.qty,
        sequenceId,
        printableSign,
      })
    }
  }
  return out
}

/** The designer page's props; `editing` is the line reopened from the basket. */
export function designerProps(
  category: SignCategory,
  editing: { itemId: number; quantity: number; sign: PrintableSign } | null,
): SignDesignerProps {
  const stored = editing?.sign.design
  return {
    category: { id: category.id, name: category.name, url: category.url },
    variants: category.variants,
    editing:
      editing && stored
        ? {
            itemId: editing.itemId,
            sku: stored.sku,
            quantity: editing.quantity,
            design: stored.design,
            sequence: stored.sequence ?? null,
          }
        : null,
  }
}
