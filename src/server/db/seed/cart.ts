/**
 * Demo delivery rates and promotional codes for the seeded brands. Idempotent: rows are matched
 * on (site, zone, despatch type) and (site, code) and brought back to these values (usage
 * counters are left alone).
 */
import { and, asc, eq } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { products } from '../../modules/catalog/catalog.tables.ts'
import { sites } from '../../modules/sites/sites.tables.ts'
import { deliveryRates, promotions, type PromotionKind } from '../../modules/cart/cart.tables.ts'

interface RateSeed {
  zone: string
  despatchType: string
  name: string
  price: number
  freeOver: number | null
}

interface PromoSeed {
  code: string
  description: string
  kind: PromotionKind
  value?: number
  minimumSpend?: number
  startsAt?: Date | null
  endsAt?: Date | null
  usageLimit?: number | null
  gift?: boolean
}

const RATES: Record<string, RateSeed[]> = {
  harbour: [
    {
      zone: 'UK Mainland',
      despatchType: 'standard',
      name: 'Standard delivery (3-5 working days)',
      price: 595,
      freeOver: 10000,
    },
    { zone: 'UK Mainland', despatchType: 'next_day', name: 'Next working day', price: 1295, freeOver: null },
    {
      zone: 'Highlands and Islands',
      despatchType: 'standard',
      name: 'Standard delivery (5-7 working days)',
      price: 1495,
      freeOver: 25000,
    },
    {
      zone: 'Northern Ireland',
      despatchType: 'standard',
      name: 'Standard delivery (5-7 working days)',
      price: 1495,
      freeOver: 25000,
    },
    {
      zone: 'Ireland and Europe',
      despatchType: 'standard',
      name: 'International delivery (5-10 working days)',
      price: 2495,
      freeOver: null,
    },
  ],
  northgate: [
    {
      zone: 'Contiguous US',
      despatchType: 'standard',
      name: 'Ground (5-7 business days)',
      price: 995,
      freeOver: 15000,
    },
    { zone: 'Contiguous US', despatchType: 'next_day', name: 'Overnight', price: 2995, freeOver: null },
    {
      zone: 'Canada',
      despatchType: 'standard',
      name: 'International (7-14 business days)',
      price: 3495,
      freeOver: null,
    },
  ],
}

const PROMOS: Record<string, PromoSeed[]> = {
  harbour: [
    { code: 'SAVE10', description: '10% off everything', kind: 'percentage', value: 10 },
    {
      code: 'TENOFF',
      description: '£10 off orders over £50',
      kind: 'fixed',
      value: 1000,
      minimumSpend: 5000,
    },
    { code: 'FREEDEL', description: 'Free delivery', kind: 'free_delivery' },
    {
      code: 'FREEGIFT',
      description: 'A free gift with orders over £30',
      kind: 'free_gift',
      minimumSpend: 3000,
      gift: true,
    },
    {
      code: 'LIMITED15',
      description: '15% off, first 100 baskets',
      kind: 'percentage',
      value: 15,
      usageLimit: 100,
    },
    {
      code: 'EXPIRED5',
      description: 'An old 5% code',
      kind: 'percentage',
      value: 5,
      startsAt: new Date('2020-01-01T00:00:00Z'),
      endsAt: new Date('2020-12-31T23:59:59Z'),
    },
  ],
  northgate: [
    { code: 'SAVE10', description: '10% off everything', kind: 'percentage', value: 10 },
    { code: 'FREESHIP', description: 'Free shipping', kind: 'free_delivery' },
  ],
}

export async function seedCart(db: Db): Promise<void> {
  const rows = await db.select({ id: sites.id, code: sites.code }).from(sites)
  for (const site of rows) {
    for (const [position, rate] of (RATES[site.code] ?? []).entries()) {
      const values = { siteId: site.id, position, ...rate }
      await db
        .insert(deliveryRates)
        .values(values)
        .onConflictDoUpdate({
          target: [deliveryRates.siteId, deliveryRates.zone, deliveryRates.despatchType],
          set: values,
        })
    }
    const promos = PROMOS[site.code] ?? []
    if (promos.length === 0) continue
    // The free gift: the site's cheapest-positioned published SKU.
    const [gift] = await db
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.siteId, site.id), eq(products.published, true)))
      .orderBy(asc(products.id))
      .limit(1)
    for (const promo of promos) {
      const values = {
        siteId: site.id,
        code: promo.code,
        description: promo.description,
        kind: promo.kind,
        value: promo.value ?? 0,
        minimumSpend: promo.minimumSpend ?? 0,
        startsAt: promo.startsAt ?? null,
        endsAt: promo.endsAt ?? null,
        usageLimit: promo.usageLimit ?? null,
        giftProductId: promo.gift ? (gift?.id ?? null) : null,
        active: true,
      }
      await db
        .insert(promotions)
        .values(values)
        .onConflictDoUpdate({ target: [promotions.siteId, promotions.code], set: values })
    }
  }
}
