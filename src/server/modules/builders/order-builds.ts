/**
 * Builder lines in orders (ADR 0039). When an order is written, each sign line keeps its printable
 * data and each workwear line its session data, with a small preview; each workwear design and its
 * logo are copied from the basket's session (which goes with the basket). The preview is served to
 * whoever has its token (e-mails are read without a session); the PNG is drawn on first request.
 */
import { randomBytes } from 'node:crypto'
import { and, eq, inArray } from 'drizzle-orm'
import { loadSharp } from '../../lib/sharp.ts'
import type { Db, Executor, Tx } from '../../db/client.ts'
import { renderWorkwearPreview } from '../../../shared/workwear-preview.ts'
import type { WorkwearConfig } from '../../../shared/workwear.ts'
import type { CartItemRow } from '../cart/cart.tables.ts'
import {
  builderTools,
  orderBuilderLines,
  orderWorkwearDesigns,
  workwearSessions,
  type WorkwearSessionRow,
} from './builders.tables.ts'

/** Longest side of the logo inside an order's workwear preview, pixels */
const PREVIEW_LOGO_PIXELS = 160
/** Pixel density the preview PNG is drawn at (twice the SVG's own size), and its largest side */
const PREVIEW_DENSITY = 144
const PREVIEW_PIXELS = 240
export const ORDER_PREVIEW_PATH = /^([A-Za-z0-9_-]{22})\.png$/

export interface OrderPreview {
  url: string
  alt: string
}

/** A new preview token: 128 random bits, base64url (22 characters). */
function newToken(): string {
  return randomBytes(16).toString('base64url')
}

/** Reads a workwear session's logo (from the upload store); null when it has none. */
export type LogoLoader = (row: Pick<WorkwearSessionRow, 'logoKey' | 'logoType'>) => Promise<LogoFile | null>

export interface LogoFile {
  data: Buffer
  type: string
}

/** The small logo embedded in a workwear preview: a PNG of at most 160 px, or the sanitised SVG. */
async function previewLogo(logo: LogoFile | null): Promise<string | null> {
  if (!logo) return null
  if (logo.type === 'image/svg+xml') return `data:image/svg+xml;base64,${logo.data.toString('base64')}`
  const small = await (
    await loadSharp()
  )(logo.data)
    .resize(PREVIEW_LOGO_PIXELS, PREVIEW_LOGO_PIXELS, { fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer()
  return `data:image/png;base64,${small.toString('base64')}`
}

/**
 * Records the builder lines of a new order: `lines` are the basket's items and the order items
 * made from them (matched on the basket item id). Lines without a builder are skipped.
 */
export async function recordOrderBuilds(
  tx: Tx,
  input: {
    siteId: number
    orderId: number
    items: readonly CartItemRow[]
    ordered: readonly { id: number; cartItemId: number | null }[]
    /** The logo store's reader; upload-store keys are content hashes, so the order keeps the key */
    loadLogo: LogoLoader
  },
): Promise<void> {
  const orderItemOf = new Map(input.ordered.map((o) => [o.cartItemId, o.id]))
  const sessionIds = [
    ...new Set(input.items.flatMap((i) => (i.workWearSession ? [i.workWearSession.id] : []))),
  ]
  const sessions = sessionIds.length
    ? await tx
        .select()
        .from(workwearSessions)
        .where(
          and(inArray(workwearSessions.id, sessionIds), eq(workwearSessions.cartId, input.items[0]!.cartId)),
        )
    : []
  const configs = new Map<number, WorkwearConfig>()
  for (const categoryId of new Set(sessions.map((s) => s.categoryId))) {
    const [tool] = await tx
      .select({ config: builderTools.config })
      .from(builderTools)
      .where(eq(builderTools.categoryId, categoryId))
    if (tool && 'colours' in tool.config) configs.set(categoryId, tool.config as WorkwearConfig)
  }
  const previews = new Map<string, { svg: string; alt: string }>()
  for (const session of sessions) {
    await tx
      .insert(orderWorkwearDesigns)
      .values({
        orderId: input.orderId,
        sessionId: session.id,
        categoryId: session.categoryId,
        design: session.design,
        logoKey: session.logoKey,
        logoType: session.logoType,
      })
      .onConflictDoNothing()
    const config = configs.get(session.categoryId)
    const colour = config?.colours.find((c) => c.name === session.design.colour) ?? null
    const names = session.design.positions.map(
      (id) => config?.positions.find((p) => p.id === id)?.name.toLowerCase() ?? id,
    )
    previews.set(session.id, {
      svg: renderWorkwearPreview({
        colour,
        garment: session.design.garmentName,
        positions: session.design.positions,
        text: session.design.text,
        logo: await previewLogo(await input.loadLogo(session)),
        displaySize: 120,
      }),
      alt: `${session.design.garmentName} in ${session.design.colour}${names.length ? `, logo on the ${names.join(', ')}` : ''}`,
    })
  }

  const rows: (typeof orderBuilderLines.$inferInsert)[] = []
  for (const item of input.items) {
    const orderItemId = orderItemOf.get(item.id)
    if (orderItemId === undefined) continue
    const sign = item.printableSign
    if (sign?.webVersionOfSVG) {
      rows.push({
        orderItemId,
        orderId: input.orderId,
        siteId: input.siteId,
        printableSign: sign,
        previewToken: newToken(),
        previewAlt: `Sign reads: ${sign.signReads ?? ''}`,
        previewSvg: sign.webVersionOfSVG,
      })
      continue
    }
    const preview = item.workWearSession ? previews.get(item.workWearSession.id) : undefined
    if (item.workWearSession && preview) {
      rows.push({
        orderItemId,
        orderId: input.orderId,
        siteId: input.siteId,
        workWearSession: item.workWearSession,
        previewToken: newToken(),
        previewAlt: preview.alt,
        previewSvg: preview.svg,
      })
    }
  }
  if (rows.length) await tx.insert(orderBuilderLines).values(rows)
}

/** The previews of an order's builder lines, by order item id (URLs relative to the site). */
export async function orderPreviews(executor: Executor, orderId: number): Promise<Map<number, OrderPreview>> {
  const rows = await executor
    .select({
      orderItemId: orderBuilderLines.orderItemId,
      token: orderBuilderLines.previewToken,
      alt: orderBuilderLines.previewAlt,
    })
    .from(orderBuilderLines)
    .where(eq(orderBuilderLines.orderId, orderId))
  return new Map(rows.map((r) => [r.orderItemId, { url: `/order-preview/${r.token}.png`, alt: r.alt }]))
}

/** The preview PNG for a token on a site, drawn and kept on first request; null if unknown. */
export async function orderPreviewPng(db: Db, siteId: number, token: string): Promise<Buffer | null> {
  const [row] = await db
    .select({ svg: orderBuilderLines.previewSvg, png: orderBuilderLines.previewPng })
    .from(orderBuilderLines)
    .where(and(eq(orderBuilderLines.previewToken, token), eq(orderBuilderLines.siteId, siteId)))
  if (!row) return null
  if (row.png) return row.png
  const png = await (
    await loadSharp()
  )(Buffer.from(row.svg), { density: PREVIEW_DENSITY })
    .resize(PREVIEW_PIXELS, PREVIEW_PIXELS, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .png({ compressionLevel: 9 })
    .toBuffer()
  await db.update(orderBuilderLines).set({ previewPng: png }).where(eq(orderBuilderLines.previewToken, token))
  return png
}
