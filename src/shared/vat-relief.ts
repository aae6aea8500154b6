/**
 * VAT relief on goods for a chronically sick or disabled person (spec checkout-and-account.md §1,
 * §3 `show_vat_relief` / `ApplyVATRelief`, §7 `POST /cart/update-cart` with `vatRelief`, §9 limits):
 * the declaration the buyer makes at step 3, its limits per order and its texts. Eligible goods
 * are flagged on the product group (and, for the limited kinds, which kind they are). The basket
 * is zero-rated on those lines only while a valid declaration is stored with it.
 */
import { z } from 'zod'
import { text } from './text.ts'

/** Eligible goods with a per-order limit under relief (§9: 0-200, 0-50, 0-10). */
export const VAT_RELIEF_KINDS = ['pads', 'washable_pads', 'underwear'] as const
export type VatReliefKind = (typeof VAT_RELIEF_KINDS)[number]

export const VAT_RELIEF = {
  limits: { pads: 200, washable_pads: 50, underwear: 10 } satisfies Record<VatReliefKind, number>,
  nameMax: 100,
  conditionMax: 255,
} as const

const KIND_LABEL: Record<VatReliefKind, string> = {
  pads: 'pads',
  washable_pads: 'washable pads',
  underwear: 'pairs of underwear',
}

export const VAT_RELIEF_TEXT = {
  heading: 'VAT Relief',
  intro:
    'Goods made for a chronically sick or disabled person can be bought without VAT when they are for that person’s own personal or domestic use. In your basket, these goods qualify.',
  limits:
    'In one order, VAT relief covers 0-200 pads, 0-50 washable pads and 0-10 pairs of underwear, and wheelchairs.',
  claim: 'I want to claim VAT relief on the qualifying goods',
  nameLabel: 'Full name of the person the goods are for',
  conditionLabel: 'Their illness or disability',
  declaration: (name: string) =>
    `I declare that ${name || 'the person named above'} is chronically sick or disabled, that the qualifying goods are for their personal or domestic use, and that these details are true. I understand that HM Revenue & Customs may ask for evidence.`,
  confirm: 'I confirm this declaration',
  apply: 'Apply VAT Relief',
  remove: 'Remove VAT Relief',
  applied: 'VAT relief applied: qualifying goods are zero-rated.',
  nameRequired: 'Please enter the name of the person the goods are for.',
  conditionRequired: 'Please describe the illness or disability.',
  confirmRequired: 'Please confirm the declaration to claim VAT relief.',
  tooLong: (n: number) => `Please enter no more than ${n} characters.`,
  declarationRequired: 'A VAT relief declaration is needed to claim VAT relief.',
  nothingEligible: 'Nothing in your basket qualifies for VAT relief.',
  noVat: 'VAT relief does not apply: this shop charges no VAT.',
  overLimit: (kind: VatReliefKind) =>
    `VAT relief covers at most ${VAT_RELIEF.limits[kind]} ${KIND_LABEL[kind]} in one order.`,
} as const

/** The declaration as the browser sends it (`vatRelief` in `POST /cart/update-cart`). */
export const vatReliefDeclarationSchema = z.object({
  name: text({ error: VAT_RELIEF_TEXT.nameRequired })
    .trim()
    .min(1, VAT_RELIEF_TEXT.nameRequired)
    .max(VAT_RELIEF.nameMax, VAT_RELIEF_TEXT.tooLong(VAT_RELIEF.nameMax)),
  condition: text({ error: VAT_RELIEF_TEXT.conditionRequired })
    .trim()
    .min(1, VAT_RELIEF_TEXT.conditionRequired)
    .max(VAT_RELIEF.conditionMax, VAT_RELIEF_TEXT.tooLong(VAT_RELIEF.conditionMax)),
  confirmed: z.literal(true, { error: VAT_RELIEF_TEXT.confirmRequired }),
})
export type VatReliefDeclarationInput = z.output<typeof vatReliefDeclarationSchema>

/** What is kept with the basket and the order. */
export interface VatReliefDeclaration {
  name: string
  condition: string
  /** ISO time the declaration was made */
  declaredAt: string
}

/**
 * Why relief cannot apply to these lines (null: it can): the site charges no VAT, nothing is
 * eligible, or a limited kind is over its per-order limit. Free gifts are not counted.
 */
export function vatReliefProblem(
  taxRate: number,
  lines: readonly { eligible: boolean; kind: VatReliefKind | null; quantity: number; isFreeGift: boolean }[],
): { field: string; message: string } | null {
  if (!(taxRate > 0)) return { field: 'vatRelief', message: VAT_RELIEF_TEXT.noVat }
  const eligible = lines.filter((l) => l.eligible && !l.isFreeGift)
  if (eligible.length === 0) return { field: 'vatRelief', message: VAT_RELIEF_TEXT.nothingEligible }
  for (const kind of VAT_RELIEF_KINDS) {
    const count = eligible.filter((l) => l.kind === kind).reduce((n, l) => n + l.quantity, 0)
    if (count > VAT_RELIEF.limits[kind])
      return { field: 'vatRelief', message: VAT_RELIEF_TEXT.overLimit(kind) }
  }
  return null
}
