/**
 * The fields of a promotion, shared by the back office's create form (Promotions) and change
 * form (PromotionsEdit): what is typed, with each field's error under it. Amounts are typed in
 * pounds (or dollars) and dates in UTC; the server turns them into the API's fields and checks
 * them by its rules.
 */
import { amountText, Field } from './edit-parts.tsx'

export interface PromotionValues {
  description: string
  kind: string
  value: string
  giftSku: string
  minimumSpend: string
  startsAt: string
  endsAt: string
  usageLimit: string
  active: boolean
}

export const KIND_LABELS: Record<string, string> = {
  percentage: 'Percentage off the goods',
  fixed: 'Amount off the goods',
  free_delivery: 'Free delivery',
  free_gift: 'Free gift',
}

export const EMPTY_PROMOTION: PromotionValues = {
  description: '',
  kind: 'percentage',
  value: '',
  giftSku: '',
  minimumSpend: '',
  startsAt: '',
  endsAt: '',
  usageLimit: '',
  active: true,
}

/** A stored promotion as the form shows it (UTC date and time, amounts in pounds). */
export function promotionValues(p: {
  description: string
  kind: string
  value: number
  giftSku: string | null
  minimumSpend: number
  startsAt: string | null
  endsAt: string | null
  usageLimit: number | null
  active: boolean
}): PromotionValues {
  return {
    description: p.description,
    kind: p.kind,
    value: p.kind === 'fixed' ? amountText(p.value) : p.kind === 'percentage' ? String(p.value) : '',
    giftSku: p.giftSku ?? '',
    minimumSpend: p.minimumSpend ? amountText(p.minimumSpend) : '',
    startsAt: p.startsAt ? p.startsAt.slice(0, 16) : '',
    endsAt: p.endsAt ? p.endsAt.slice(0, 16) : '',
    usageLimit: p.usageLimit === null ? '' : String(p.usageLimit),
    active: p.active,
  }
}

export function PromotionFields({
  values,
  set,
  errors,
  kinds,
  currency,
}: {
  values: PromotionValues
  set: (change: Partial<PromotionValues>) => void
  errors: Record<string, string>
  kinds: string[]
  currency: string
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field label="Description" error={errors.description} className="sm:col-span-2">
        {(p) => (
          <input
            {...p}
            name="description"
            value={values.description}
            onChange={(e) => set({ description: e.target.value })}
          />
        )}
      </Field>
      <Field label="Kind" error={errors.kind}>
        {(p) => (
          <select {...p} name="kind" value={values.kind} onChange={(e) => set({ kind: e.target.value })}>
            {kinds.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k] ?? k}
              </option>
            ))}
          </select>
        )}
      </Field>
      {values.kind === 'percentage' || values.kind === 'fixed' ? (
        <Field
          label={
            values.kind === 'percentage' ? 'Percentage off (1 to 100)' : `Amount off ex VAT (${currency})`
          }
          error={errors.value}
        >
          {(p) => (
            <input
              {...p}
              name="value"
              inputMode="decimal"
              value={values.value}
              onChange={(e) => set({ value: e.target.value })}
            />
          )}
        </Field>
      ) : null}
      {values.kind === 'free_gift' ? (
        <Field label="SKU given as the gift" error={errors.giftSku}>
          {(p) => (
            <input
              {...p}
              name="giftSku"
              value={values.giftSku}
              onChange={(e) => set({ giftSku: e.target.value })}
            />
          )}
        </Field>
      ) : null}
      <Field
        label={`Minimum spend ex VAT (${currency})`}
        hint="Leave empty for none."
        error={errors.minimumSpend}
      >
        {(p) => (
          <input
            {...p}
            name="minimumSpend"
            inputMode="decimal"
            value={values.minimumSpend}
            onChange={(e) => set({ minimumSpend: e.target.value })}
          />
        )}
      </Field>
      <Field label="Uses allowed" hint="Leave empty for no limit." error={errors.usageLimit}>
        {(p) => (
          <input
            {...p}
            name="usageLimit"
            inputMode="numeric"
            value={values.usageLimit}
            onChange={(e) => set({ usageLimit: e.target.value })}
          />
        )}
      </Field>
      <Field label="Starts (UTC)" hint="Leave empty to start now." error={errors.startsAt}>
        {(p) => (
          <input
            {...p}
            name="startsAt"
            type="datetime-local"
            value={values.startsAt}
            onChange={(e) => set({ startsAt: e.target.value })}
          />
        )}
      </Field>
      <Field label="Ends (UTC)" hint="Leave empty for no end." error={errors.endsAt}>
        {(p) => (
          <input
            {...p}
            name="endsAt"
            type="datetime-local"
            value={values.endsAt}
            onChange={(e) => set({ endsAt: e.target.value })}
          />
        )}
      </Field>
      <label className="flex items-center gap-2 text-sm sm:col-span-2">
        <input
          type="checkbox"
          name="active"
          checked={values.active}
          onChange={(e) => set({ active: e.target.checked })}
        />
        Active (baskets can apply it)
      </label>
    </div>
  )
}
