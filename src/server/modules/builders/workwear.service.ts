/**
 * The custom workwear builder on the server: the category's garments (product groups, one SKU
 * per size) and configuration, the check of a saved design, the logo (type checked, size limited;
 * SVG through the logo sanitiser, PNG and JPEG decoded and re-encoded by sharp, which also strips
 * their metadata), and the basket lines of a design. Costs come from the category's configuration.
 */
import { createHash, randomUUID } from 'node:crypto'
import { and, eq, inArray } from 'drizzle-orm'
import { loadSharp } from '../../lib/sharp.ts'
import { z } from 'zod'
import { text } from '../../../shared/text.ts'
import type { Db } from '../../db/client.ts'
import type { UploadStore } from '../../lib/upload-store.ts'
import {
  LOGO_MAX_BYTES,
  LOGO_TYPES,
  WORKWEAR_TEXT,
  WORKWEAR_TEXT_MAX,
  type WorkwearConfig,
  type WorkwearDesign,
} from '../../../shared/workwear.ts'
import type { WorkwearGarment } from '../../../shared/workwear-builder.ts'
import { sanitizeLogoSvg } from '../../lib/svg-sanitize.ts'
import { CartNotFoundError } from '../cart/cart.errors.ts'
import type { BuilderLine } from '../cart/cart.service.ts'
import type { Tx } from '../../db/client.ts'
import { workwearSessions } from './builders.tables.ts'
import { builderSkus, findBuilderCategory } from './builders.queries.ts'

export interface WorkwearCategory {
  id: number
  name: string
  url: string
  config: WorkwearConfig
  garments: WorkwearGarment[]
}

export async function loadWorkwearCategory(
  db: Db,
  siteId: number,
  categoryId: number,
): Promise<WorkwearCategory | null> {
  const category = await findBuilderCategory(db, siteId, categoryId, 'workwear')
  if (!category) return null
  const garments = new Map<number, WorkwearGarment>()
  for (const row of await builderSkus(db, siteId, categoryId)) {
    if (!row.optionLabel) continue
    const garment = garments.get(row.groupId) ?? { id: row.groupId, name: row.groupName, sizes: [] }
    garment.sizes.push({
      size: row.optionLabel,
      productId: row.productId,
      sku: row.sku,
      brackets: row.brackets,
    })
    garments.set(row.groupId, garment)
  }
  const config = category.config as WorkwearConfig
  return {
    id: category.id,
    name: category.name,
    url: category.url,
    config: {
      colours: config.colours ?? [],
      positions: config.positions ?? [],
      textCost: config.textCost ?? 0,
    },
    garments: [...garments.values()],
  }
}

/** Base64 of at most LOGO_MAX_BYTES (with room for padding): longer strings are refused unread. */
const BASE64_MAX = Math.ceil(LOGO_MAX_BYTES / 3) * 4 + 4

export const workwearSaveSchema = z.object({
  session_id: z.uuid({ error: WORKWEAR_TEXT.notFound }).optional(),
  garment: z.number({ error: WORKWEAR_TEXT.garment }).int().positive(WORKWEAR_TEXT.garment),
  colour: z.string({ error: WORKWEAR_TEXT.colour }).max(60),
  sizes: z.record(
    text().max(10),
    z
      .number({ error: WORKWEAR_TEXT.quantity })
      .int(WORKWEAR_TEXT.quantity)
      .min(0, WORKWEAR_TEXT.quantity)
      .max(9999, WORKWEAR_TEXT.quantity),
  ),
  positions: z.array(text().max(40)).max(10),
  text: text().max(WORKWEAR_TEXT_MAX, WORKWEAR_TEXT.text).default(''),
  logo: z
    .object({
      type: text().max(100),
      data: text().max(BASE64_MAX, WORKWEAR_TEXT.logoTooLarge),
      name: text().max(255).optional(),
    })
    .optional(),
})
export type WorkwearSaveBody = z.output<typeof workwearSaveSchema>

export class WorkwearError extends Error {
  constructor(readonly errors: Record<string, string[]>) {
    super(Object.values(errors)[0]?.[0] ?? 'The design is not valid.')
  }
}
const fail = (field: string, message: string) => new WorkwearError({ [field]: [message] })

export interface CleanLogo {
  bytes: Buffer
  type: 'image/png' | 'image/svg+xml'
}

/**
 * A logo as it may be stored: an SVG reduced by the sanitiser (and rendered once by sharp to
 * prove it draws), or a PNG/JPEG decoded and re-encoded as PNG at most 1200 px. Anything else,
 * or a file whose bytes are not what its type says, is refused.
 */
export async function cleanLogo(logo: NonNullable<WorkwearSaveBody['logo']>): Promise<CleanLogo> {
  if (!(LOGO_TYPES as readonly string[]).includes(logo.type)) throw fail('logo', WORKWEAR_TEXT.logoType)
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(logo.data)) throw fail('logo', WORKWEAR_TEXT.logoUnreadable)
  const bytes = Buffer.from(logo.data, 'base64')
  if (bytes.length === 0) throw fail('logo', WORKWEAR_TEXT.logoUnreadable)
  if (bytes.length > LOGO_MAX_BYTES) throw fail('logo', WORKWEAR_TEXT.logoTooLarge)
  try {
    if (logo.type === 'image/svg+xml') {
      const clean = sanitizeLogoSvg(bytes.toString('utf8'))
      if (!clean) throw new Error('not an SVG drawing')
      await (await loadSharp())(Buffer.from(clean), { limitInputPixels: 50_000_000 }).metadata()
      return { bytes: Buffer.from(clean), type: 'image/svg+xml' }
    }
    const png = logo.type === 'image/png' && bytes.subarray(1, 4).toString('latin1') === 'PNG'
    const jpeg = logo.type === 'image/jpeg' && bytes[0] === 0xff && bytes[1] === 0xd8
    if (!png && !jpeg) throw new Error('bytes do not match the type')
    const out = await (
      await loadSharp()
    )(bytes, { limitInputPixels: 50_000_000, failOn: 'error' })
      .rotate()
      .resize({ width: 1200, height: 1200, fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer()
    return { bytes: out, type: 'image/png' }
  } catch {
    throw fail('logo', WORKWEAR_TEXT.logoUnreadable)
  }
}

/** Checks a design against the category; its garment, quantities and customisation per garment. */
export function checkWorkwear(category: WorkwearCategory, body: WorkwearSaveBody) {
  const garment = category.garments.find((g) => g.id === body.garment)
  if (!garment) throw fail('garment', WORKWEAR_TEXT.garment)
  const colour = category.config.colours.find((c) => c.name === body.colour)
  if (!colour) throw fail('colour', WORKWEAR_TEXT.colour)
  const sizes: { size: string; productId: number; quantity: number }[] = []
  for (const [size, quantity] of Object.entries(body.sizes)) {
    const known = garment.sizes.find((s) => s.size === size)
    if (!known) throw fail('sizes', WORKWEAR_TEXT.sizes)
    if (quantity > 0) sizes.push({ size, productId: known.productId, quantity })
  }
  if (sizes.length === 0) throw fail('sizes', WORKWEAR_TEXT.sizes)
  if (sizes.reduce((s, x) => s + x.quantity, 0) > 9999) throw fail('sizes', WORKWEAR_TEXT.quantity)
  const positions = [...new Set(body.positions)]
  if (positions.length === 0) throw fail('positions', WORKWEAR_TEXT.positions)
  const chosen = positions.map((id) => category.config.positions.find((p) => p.id === id))
  if (chosen.some((p) => !p)) throw fail('positions', WORKWEAR_TEXT.positions)
  const text = body.text.replace(/\s+/g, ' ').trim()
  const customisation = [
    ...chosen.map((p) => ({ name: `Logo: ${p!.name}`, cost: p!.cost })),
    ...(text ? [{ name: `Text: ${text}`, cost: category.config.textCost }] : []),
  ]
  const design: WorkwearDesign = {
    garment: garment.id,
    garmentName: garment.name,
    colour: colour.name,
    sizes: Object.fromEntries(sizes.map((s) => [s.size, s.quantity])),
    positions,
    text,
    hasLogo: true,
  }
  return { garment, colour, sizes, customisation, design }
}

/**
 * Writes the session (inside the basket's transaction) and returns its lines. An existing
 * session must belong to this basket; without a new logo it keeps the one it has.
 */
export async function saveWorkwearSession(
  tx: Tx,
  input: {
    siteId: number
    cartId: string
    category: WorkwearCategory
    sessionId: string | null
    checked: ReturnType<typeof checkWorkwear>
    logo: StoredLogo | null
  },
): Promise<BuilderLine[]> {
  const { checked, category, logo } = input
  let id = input.sessionId
  if (id) {
    const [row] = await tx
      .update(workwearSessions)
      .set({
        design: checked.design,
        ...(logo ? { logoKey: logo.key, logoType: logo.type } : {}),
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(workwearSessions.id, id),
          eq(workwearSessions.cartId, input.cartId),
          eq(workwearSessions.categoryId, category.id),
        ),
      )
      .returning({ id: workwearSessions.id, logo: workwearSessions.logoKey })
    if (!row) throw new CartNotFoundError()
    if (!row.logo) throw fail('logo', WORKWEAR_TEXT.logoRequired)
  } else {
    if (!logo) throw fail('logo', WORKWEAR_TEXT.logoRequired)
    id = randomUUID()
    await tx.insert(workwearSessions).values({
      id,
      siteId: input.siteId,
      cartId: input.cartId,
      categoryId: category.id,
      design: checked.design,
      logoKey: logo.key,
      logoType: logo.type,
    })
  }
  const sessionId = id
  return checked.sizes.map((s) => ({
    productId: s.productId,
    categoryId: category.id,
    quantity: s.quantity,
    workWearSession: {
      id: sessionId,
      builder_json: {
        cat_id: category.id,
        garment: checked.garment.name,
        colour: checked.colour.name,
        size: s.size,
        customisation: checked.customisation,
      },
    },
  }))
}

/** A session of the visitor's basket (null for any other). */
export async function findWorkwearSession(db: Db, cartId: string | null, sessionId: string) {
  if (!cartId || !z.uuid().safeParse(sessionId).success) return null
  const [row] = await db
    .select()
    .from(workwearSessions)
    .where(and(eq(workwearSessions.id, sessionId), eq(workwearSessions.cartId, cartId)))
  return row ?? null
}

/** A cleaned logo as kept in the upload store: its key and type. */
export interface StoredLogo {
  key: string
  type: CleanLogo['type']
}

const LOGO_EXTENSIONS: Record<CleanLogo['type'], string> = { 'image/svg+xml': 'svg', 'image/png': 'png' }

/**
 * Puts a cleaned logo in the upload store (every instance reads the same store). The key is the
 * hash of the bytes, so the same logo uploaded twice is kept once and a key never changes meaning.
 */
export async function storeLogo(uploads: UploadStore, logo: CleanLogo): Promise<StoredLogo> {
  const hash = createHash('sha256').update(logo.bytes).digest('hex')
  const key = `workwear-logos/${hash}.${LOGO_EXTENSIONS[logo.type]}`
  await uploads.put(key, logo.bytes, logo.type)
  return { key, type: logo.type }
}

/** The session's logo from the upload store, or null. */
export async function loadLogo(
  uploads: UploadStore,
  row: { logoKey: string | null; logoType: string | null },
): Promise<{ data: Buffer; type: string } | null> {
  if (!row.logoKey || !row.logoType) return null
  const file = await uploads.get(row.logoKey)
  return file ? { data: file.data, type: row.logoType } : null
}

export function logoDataUrl(logo: { data: Buffer; type: string } | null): string | null {
  return logo ? `data:${logo.type};base64,${logo.data.toString('base64')}` : null
}

/**
 * Copies the workwear sessions that `lines` (all of one basket) point at into new sessions owned by
 * `toCartId`, so that a copied basket (share link, saved basket) has designs of its own: editing
 * the copy never changes the original. Returns the new session id for each old one; a line whose
 * session is missing keeps its id (the builder link then reports it gone).
 */
export async function copyWorkwearSessions(
  tx: Tx,
  lines: readonly { cartId: string; workWearSession: { id: string } | null }[],
  toCartId: string,
): Promise<Map<string, string>> {
  const fromCartId = lines[0]?.cartId
  const ids = [...new Set(lines.flatMap((l) => (l.workWearSession ? [l.workWearSession.id] : [])))]
  const copies = new Map<string, string>()
  if (!fromCartId || ids.length === 0) return copies
  const rows = await tx
    .select()
    .from(workwearSessions)
    .where(and(inArray(workwearSessions.id, ids), eq(workwearSessions.cartId, fromCartId)))
  for (const row of rows) {
    const id = randomUUID()
    await tx.insert(workwearSessions).values({
      id,
      siteId: row.siteId,
      cartId: toCartId,
      categoryId: row.categoryId,
      design: row.design,
      // Upload-store keys are content hashes that are never overwritten: the copy shares the file.
      logoKey: row.logoKey,
      logoType: row.logoType,
    })
    copies.set(row.id, id)
  }
  return copies
}
