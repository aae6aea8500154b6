/**
 * 'Design A Sign' (spec §1, §2, §7 "Legacy add helper"): the customer picks a sign type (ISO 7010
 * colours and shape), a layout and orientation, a symbol, up to four lines of text (fitted
 * automatically), a size and material from the category's price grid and a quantity, or a
 * numbered set. The preview is drawn by the shared renderer; the server draws the same sign from
 * the same design when it is added, and re-prices it. Reopened from the basket with ?item_id=,
 * saving replaces that line (or the whole numbered set).
 */
import { useId, useMemo, useState } from 'react'
import { MAX_QUANTITY } from '../../shared/cart.ts'
import { unitPriceFor } from '../../shared/pricing.ts'
import {
  checkDesign,
  checkSequence,
  MAX_AFFIX_CHARS,
  MAX_LINE_CHARS,
  MAX_SEQUENCE_PAD,
  MAX_SIGN_LINES,
  sequenceLabels,
  signReads,
  SIGN_LAYOUTS,
  SIGN_TEXT,
  SIGN_TYPE_LABELS,
  SIGN_TYPES,
  suitsOrientation,
  type SignDesign,
  type SignErrors,
  type SignLayout,
  type SignOrientation,
  type SignSequence,
  type SignType,
} from '../../shared/sign/design.ts'
import { SIGN_ADD_URL, type SignAddRequest, type SignDesignerProps } from '../../shared/sign/designer.ts'
import { fitErrors, renderSign, renderSymbol, svgDataUrl } from '../../shared/sign/render.ts'
import { SIGN_SYMBOLS } from '../../shared/sign/symbols.ts'
import { pageTitle } from '../../shared/titles.ts'
import {
  BuilderHeader,
  BuilderLayout,
  describedByFor,
  FIELD_CLASS as field,
  FieldError,
  PriceSummary,
  SubmitButton,
  useAddToBasket,
} from '../components/builders/BuilderForm.tsx'
import { SignPreview } from '../components/builders/SignPreview.tsx'
import { Price } from '../components/Price.tsx'
import { useSiteName } from '../lib/shared-props.ts'

const LAYOUT_LABELS: Record<SignLayout, string> = {
  'symbol-text': 'Symbol with text',
  'text-only': 'Text only',
}
export default function SignDesigner({ category, variants, editing }: SignDesignerProps) {
  const siteName = useSiteName()
  const { busy, send, pushError } = useAddToBasket()
  const uid = useId()
  const initial = editing?.design
  const [type, setType] = useState<SignType>(initial?.type ?? 'safe')
  const [layout, setLayout] = useState<SignLayout>(initial?.layout ?? 'symbol-text')
  const [orientation, setOrientation] = useState<SignOrientation>(initial?.orientation ?? 'landscape')
  const [symbol, setSymbol] = useState<string>(initial?.symbol ?? 'first-aid')
  const [lines, setLines] = useState<string[]>(() => {
    const start = initial?.lines ?? ['First aid']
    return [...start, '', '', '', ''].slice(0, MAX_SIGN_LINES)
  })
  const [sku, setSku] = useState<string>(() => {
    if (editing) return editing.sku
    return variants.find((v) => suitsOrientation(v.size, 'landscape'))?.sku ?? variants[0]?.sku ?? ''
  })
  const [quantity, setQuantity] = useState<string>(String(editing?.quantity ?? 1))
  const [numbered, setNumbered] = useState<boolean>(!!editing?.sequence)
  const [seq, setSeq] = useState({
    start: String(editing?.sequence?.start ?? 1),
    end: String(editing?.sequence?.end ?? 20),
    prefix: editing?.sequence?.prefix ?? '',
    suffix: editing?.sequence?.suffix ?? '',
    pad: String(editing?.sequence?.pad ?? 0),
  })
  const [serverErrors, setServerErrors] = useState<SignErrors>({})

  const sizes = useMemo(() => {
    const seen = new Map<string, { key: string; label: string }>()
    for (const v of variants) {
      if (!suitsOrientation(v.size, orientation)) continue
      const key = `${v.size.width}x${v.size.height}`
      if (!seen.has(key)) seen.set(key, { key, label: v.sizeLabel })
    }
    return [...seen.values()]
  }, [variants, orientation])
  const variant = variants.find((v) => v.sku === sku) ?? null
  const sizeKey = variant ? `${variant.size.width}x${variant.size.height}` : ''
  const materials = variants.filter((v) => `${v.size.width}x${v.size.height}` === sizeKey)

  const design: SignDesign = {
    type,
    layout,
    orientation,
    symbol: layout === 'text-only' ? null : symbol,
    lines: lines.slice(0, lastFilled(lines) + 1),
  }
  const sequence: SignSequence | null = numbered
    ? {
        start: toInt(seq.start),
        end: toInt(seq.end),
        prefix: seq.prefix,
        suffix: seq.suffix,
        pad: toInt(seq.pad),
      }
    : null
  const qty = toInt(quantity)
  const labels = sequence && Object.keys(checkSequence(sequence)).length === 0 ? sequenceLabels(sequence) : []
  const errors: SignErrors = { ...checkDesign(design), ...(sequence ? checkSequence(sequence) : {}) }
  if (!variant) errors.size = [SIGN_TEXT.sizeNotInGrid]
  else if (!suitsOrientation(variant.size, orientation)) errors.size = [SIGN_TEXT.wrongOrientation]
  if (variant && !errors.lines && !Object.keys(errors).some((k) => k.startsWith('lines'))) {
    Object.assign(errors, fitErrors(design, variant.size, labels))
  }
  if (!(qty >= 1 && qty <= MAX_QUANTITY)) errors.qty = [`Enter a quantity from 1 to ${MAX_QUANTITY}.`]
  const shown: SignErrors = { ...errors, ...serverErrors }
  const count = labels.length || 1
  const totalQty = qty > 0 ? qty * count : 0
  const unit = variant ? unitPriceFor(variant.brackets, totalQty) : 0

  const changeOrientation = (next: SignOrientation) => {
    setOrientation(next)
    if (variant && !suitsOrientation(variant.size, next)) {
      const replacement =
        variants.find((v) => suitsOrientation(v.size, next) && v.material === variant.material) ??
        variants.find((v) => suitsOrientation(v.size, next))
      if (replacement) setSku(replacement.sku)
    }
  }
  const changeSize = (key: string) => {
    const same = variants.find(
      (v) => `${v.size.width}x${v.size.height}` === key && v.material === variant?.material,
    )
    const any = variants.find((v) => `${v.size.width}x${v.size.height}` === key)
    setSku((same ?? any)?.sku ?? '')
  }

  const submit = async (event: React.FormEvent) => {
    event.preventDefault()
    setServerErrors({})
    if (Object.keys(errors).length || !variant) {
      pushError(Object.values(errors).flat()[0] ?? SIGN_TEXT.sizeNotInGrid)
      return
    }
    const preview = renderSign(design, variant.size, { numberLabel: labels[0] })
    const body: SignAddRequest = {
      items: [
        {
          sku: variant.sku,
          catid: category.id,
          qty,
          url: `/design-a-sign/${category.id}`,
          printableSVG: preview.svg,
          webVersionOfSVG: renderSign(design, variant.size, { numberLabel: labels[0], displayWidth: 240 })
            .svg,
          signReads: signReads(design, labels[0]),
          design,
          ...(sequence ? { sequence } : {}),
        },
      ],
      ...(editing ? { item_id: editing.itemId } : {}),
    }
    await send(SIGN_ADD_URL, body, setServerErrors)
  }

  const describedBy = describedByFor(uid, shown)

  return (
    <>
      <BuilderHeader
        title={pageTitle({ page: 'signBuilder' }, siteName)}
        heading="Design A Sign"
        category={category}
        editingNote={
          editing
            ? `You are changing a sign in your basket: saving replaces it${editing.sequence ? ' (the whole numbered set)' : ''}.`
            : null
        }
      />
      <BuilderLayout
        onSubmit={submit}
        preview={
          <>
            {variant ? (
              <SignPreview design={design} size={variant.size} numberLabel={labels[0]} className="mt-3" />
            ) : null}
            {labels.length > 1 ? (
              <p className="mt-2 text-sm text-gray-700">
                Shown: number {labels[0]}. Your set runs from {labels[0]} to {labels[labels.length - 1]} (
                {labels.length} signs).
              </p>
            ) : null}
            <PriceSummary
              testId="sign-price"
              rows={[
                ['Price each', <Price key="unit" amount={unit} />],
                ['Signs', totalQty],
                ['Total', <Price key="total" amount={unit * totalQty} />],
              ]}
            />
          </>
        }
      >
        <fieldset>
          <legend className="text-lg font-semibold">Type of sign</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {SIGN_TYPES.map((t) => (
              <label key={t} className="flex items-center gap-2 rounded border border-gray-300 p-2">
                <input type="radio" name="type" value={t} checked={type === t} onChange={() => setType(t)} />
                {SIGN_TYPE_LABELS[t]}
              </label>
            ))}
          </div>
        </fieldset>

        <fieldset>
          <legend className="text-lg font-semibold">Layout</legend>
          <div className="mt-2 flex flex-wrap gap-4">
            {SIGN_LAYOUTS.map((l) => (
              <label key={l} className="flex items-center gap-2">
                <input
                  type="radio"
                  name="layout"
                  value={l}
                  checked={layout === l}
                  onChange={() => setLayout(l)}
                />
                {LAYOUT_LABELS[l]}
              </label>
            ))}
            {(['landscape', 'portrait'] as const).map((o) => (
              <label key={o} className="flex items-center gap-2">
                <input
                  type="radio"
                  name="orientation"
                  value={o}
                  checked={orientation === o}
                  onChange={() => changeOrientation(o)}
                />
                {o === 'landscape' ? 'Landscape' : 'Portrait'}
              </label>
            ))}
          </div>
        </fieldset>

        {layout === 'symbol-text' ? (
          <fieldset aria-describedby={describedBy('symbol')}>
            <legend className="text-lg font-semibold">Symbol</legend>
            <div className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-3">
              {SIGN_SYMBOLS.map((s) => (
                <label
                  key={s.id}
                  className="flex items-center gap-2 rounded border border-gray-300 p-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-blue-50"
                >
                  <input
                    type="radio"
                    name="symbol"
                    value={s.id}
                    checked={symbol === s.id}
                    onChange={() => setSymbol(s.id)}
                  />
                  <img src={svgDataUrl(renderSymbol(type, s.id, 40))} alt="" width={40} height={40} />
                  {s.name}
                </label>
              ))}
            </div>
            <FieldError id={`${uid}-symbol-error`} messages={shown.symbol} />
          </fieldset>
        ) : null}

        <fieldset>
          <legend className="text-lg font-semibold">Text</legend>
          <p className="text-sm text-gray-700">
            Up to {MAX_SIGN_LINES} lines of {MAX_LINE_CHARS} characters; long lines wrap onto more rows and
            the text is sized to fit the sign.
          </p>
          {lines.map((line, i) => (
            <div key={i} className="mt-2">
              <label htmlFor={`${uid}-line-${i}`} className="text-sm font-medium">
                Line {i + 1}
              </label>
              <input
                id={`${uid}-line-${i}`}
                name={`lines.${i}`}
                className={field}
                value={line}
                maxLength={MAX_LINE_CHARS}
                aria-invalid={shown[`lines.${i}`] ? true : undefined}
                aria-describedby={describedBy(`lines.${i}`)}
                onChange={(e) => setLines((all) => all.map((l, j) => (j === i ? e.target.value : l)))}
              />
              <FieldError id={`${uid}-lines.${i}-error`} messages={shown[`lines.${i}`]} />
            </div>
          ))}
          <FieldError id={`${uid}-lines-error`} messages={shown.lines} />
        </fieldset>

        <fieldset>
          <legend className="text-lg font-semibold">Size and material</legend>
          <div className="mt-2 grid gap-4 sm:grid-cols-2">
            <div>
              <label htmlFor={`${uid}-size`} className="text-sm font-medium">
                Size
              </label>
              <select
                id={`${uid}-size`}
                className={field}
                value={sizeKey}
                aria-describedby={describedBy('size')}
                onChange={(e) => changeSize(e.target.value)}
              >
                {sizes.map((s) => (
                  <option key={s.key} value={s.key}>
                    {s.label}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor={`${uid}-material`} className="text-sm font-medium">
                Material
              </label>
              <select
                id={`${uid}-material`}
                className={field}
                value={sku}
                onChange={(e) => setSku(e.target.value)}
              >
                {materials.map((m) => (
                  <option key={m.sku} value={m.sku}>
                    {m.material}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <FieldError id={`${uid}-size-error`} messages={shown.size} />
          {variant ? (
            <table className="mt-3 w-full text-sm" data-testid="price-breaks">
              <caption className="text-left font-medium">
                Price breaks for this size and material (each)
              </caption>
              <thead>
                <tr>
                  {variant.brackets.map((b) => (
                    <th key={b.name} scope="col" className="border border-gray-300 px-2 py-1">
                      {b.name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                <tr>
                  {variant.brackets.map((b) => (
                    <td key={b.name} className="border border-gray-300 px-2 py-1 text-center tabular-nums">
                      <Price amount={b.price} />
                    </td>
                  ))}
                </tr>
              </tbody>
            </table>
          ) : null}
        </fieldset>

        <fieldset>
          <legend className="text-lg font-semibold">Quantity</legend>
          <label className="mt-2 flex items-center gap-2">
            <input type="checkbox" checked={numbered} onChange={(e) => setNumbered(e.target.checked)} />
            Numbered set (for example Fire Point 1 to Fire Point 20)
          </label>
          {numbered ? (
            <div className="mt-2 grid gap-3 sm:grid-cols-3" data-testid="sequence-fields">
              {(
                [
                  ['start', 'First number', 'number'],
                  ['end', 'Last number', 'number'],
                  ['pad', `Zero padding (digits, 0–${MAX_SEQUENCE_PAD})`, 'number'],
                  ['prefix', 'Before the number', 'text'],
                  ['suffix', 'After the number', 'text'],
                ] as const
              ).map(([key, label, kind]) => (
                <div key={key}>
                  <label htmlFor={`${uid}-seq-${key}`} className="text-sm font-medium">
                    {label}
                  </label>
                  <input
                    id={`${uid}-seq-${key}`}
                    type={kind}
                    inputMode={kind === 'number' ? 'numeric' : undefined}
                    maxLength={kind === 'text' ? MAX_AFFIX_CHARS : undefined}
                    className={field}
                    value={seq[key]}
                    aria-describedby={describedBy(`sequence.${key}`)}
                    onChange={(e) => setSeq((s) => ({ ...s, [key]: e.target.value }))}
                  />
                  <FieldError id={`${uid}-sequence.${key}-error`} messages={shown[`sequence.${key}`]} />
                </div>
              ))}
            </div>
          ) : null}
          <div className="mt-3 max-w-40">
            <label htmlFor={`${uid}-qty`} className="text-sm font-medium">
              {numbered ? 'Copies of each number' : 'Quantity'}
            </label>
            <input
              id={`${uid}-qty`}
              type="number"
              min={1}
              max={MAX_QUANTITY}
              className={field}
              value={quantity}
              aria-describedby={describedBy('qty')}
              onChange={(e) => setQuantity(e.target.value)}
            />
            <FieldError id={`${uid}-qty-error`} messages={shown.qty} />
          </div>
        </fieldset>

        <SubmitButton busy={busy} editing={!!editing} />
      </BuilderLayout>
    </>
  )
}

function toInt(value: string): number {
  return /^\s*\d{1,9}\s*$/.test(value) ? Number(value) : NaN
}

function lastFilled(lines: string[]): number {
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.trim()) return i
  return 0
}
