/**
 * The custom workwear builder: garment, colour, quantities by size, logo positions, a logo upload
 * (PNG, JPEG or SVG up to 2 MB) and optional text, with a live preview and the price. Saving
 * keeps the design on the server with the basket; the basket's link (?session_id=) reopens it.
 */
import { useId, useState } from 'react'
import { unitPriceFor } from '../../shared/pricing.ts'
import { pageTitle } from '../../shared/titles.ts'
import {
  customisationUnitCost,
  LOGO_MAX_BYTES,
  LOGO_TYPES,
  WORKWEAR_TEXT,
  WORKWEAR_TEXT_MAX,
} from '../../shared/workwear.ts'
import type { WorkwearBuilderProps, WorkwearSaveRequest } from '../../shared/workwear-builder.ts'
import { renderWorkwearPreview } from '../../shared/workwear-preview.ts'
import { svgDataUrl } from '../../shared/sign/render.ts'
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
import { Price } from '../components/Price.tsx'
import { colourWord } from '../../shared/spelling.ts'
import { useShared, useSiteName } from '../lib/shared-props.ts'

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error ?? new Error('read failed'))
    reader.readAsDataURL(file)
  })
}

export default function WorkwearBuilder({ category, config, garments, editing }: WorkwearBuilderProps) {
  const siteName = useSiteName()
  const locale = useShared().site?.locale
  const { busy, send, pushError } = useAddToBasket()
  const uid = useId()
  const initial = editing?.design
  const [garmentId, setGarmentId] = useState<number>(initial?.garment ?? garments[0]?.id ?? 0)
  const [colour, setColour] = useState<string>(initial?.colour ?? config.colours[0]?.name ?? '')
  const [sizes, setSizes] = useState<Record<string, string>>(() =>
    Object.fromEntries(Object.entries(initial?.sizes ?? {}).map(([k, v]) => [k, String(v)])),
  )
  const [positions, setPositions] = useState<string[]>(initial?.positions ?? ['left-chest'])
  const [text, setText] = useState(initial?.text ?? '')
  const [logo, setLogo] = useState<{ type: string; dataUrl: string; name: string } | null>(null)
  const [errors, setErrors] = useState<Record<string, string[]>>({})

  const garment = garments.find((g) => g.id === garmentId) ?? garments[0]
  const colourObj = config.colours.find((c) => c.name === colour) ?? null
  const quantities = (garment?.sizes ?? []).map((s) => ({ ...s, qty: toQty(sizes[s.size] ?? '') }))
  const total = quantities.reduce((sum, s) => sum + (Number.isFinite(s.qty) ? s.qty : 0), 0)
  const custom = customisationUnitCost(config, positions, text)
  const goods = quantities.reduce(
    (sum, s) => sum + (s.qty > 0 ? (unitPriceFor(s.brackets, total) + custom) * s.qty : 0),
    0,
  )
  const logoPreview = logo?.dataUrl ?? null
  const preview = renderWorkwearPreview({
    colour: colourObj,
    garment: garment?.name ?? null,
    positions,
    text,
    logo: logoPreview,
  })

  const chooseFile = async (file: File | undefined) => {
    setErrors((e) => ({ ...e, logo: [] }))
    if (!file) return setLogo(null)
    if (!(LOGO_TYPES as readonly string[]).includes(file.type)) {
      setLogo(null)
      return setErrors((e) => ({ ...e, logo: [WORKWEAR_TEXT.logoType] }))
    }
    if (file.size > LOGO_MAX_BYTES) {
      setLogo(null)
      return setErrors((e) => ({ ...e, logo: [WORKWEAR_TEXT.logoTooLarge] }))
    }
    setLogo({ type: file.type, dataUrl: await readAsDataUrl(file), name: file.name })
  }

  /** The control a field's message belongs to, so that focus can go there after a refused save. */
  const controlOf = (key: string): string | null => {
    if (key === 'sizes') return garment?.sizes[0] ? `${uid}-size-${garment.sizes[0].size}` : null
    if (key === 'positions') return config.positions[0] ? `${uid}-position-${config.positions[0].id}` : null
    if (key === 'garment' || key === 'colour') return null
    return `${uid}-${key}`
  }
  const showErrors = (found: Record<string, string[]>) => {
    setErrors(found)
    const first = FIELD_ORDER.find((key) => found[key]?.length)
    const id = first ? controlOf(first) : null
    if (id) document.getElementById(id)?.focus()
  }

  const submit = async (event: React.FormEvent) => {
    event.preventDefault()
    const found: Record<string, string[]> = {}
    if (quantities.some((s) => Number.isNaN(s.qty))) found.sizes = [WORKWEAR_TEXT.quantity]
    else if (total <= 0) found.sizes = [WORKWEAR_TEXT.sizes]
    if (positions.length === 0) found.positions = [WORKWEAR_TEXT.positions]
    if (!logo && !editing?.logoUrl) found.logo = [WORKWEAR_TEXT.logoRequired]
    if (text.length > WORKWEAR_TEXT_MAX) found.text = [WORKWEAR_TEXT.text]
    showErrors(found)
    if (Object.keys(found).length) {
      pushError(Object.values(found).flat()[0]!)
      return
    }
    const body: WorkwearSaveRequest = {
      ...(editing ? { session_id: editing.sessionId } : {}),
      garment: garment!.id,
      colour,
      sizes: Object.fromEntries(quantities.filter((s) => s.qty > 0).map((s) => [s.size, s.qty])),
      positions,
      text,
      ...(logo
        ? { logo: { type: logo.type, name: logo.name, data: logo.dataUrl.split(',', 2)[1] ?? '' } }
        : {}),
    }
    await send(`/custom-workwear/${category.id}`, body, showErrors)
  }

  const errorOf = (key: string) => <FieldError id={`${uid}-${key}-error`} messages={errors[key]} />
  const describedBy = describedByFor(uid, errors)

  return (
    <>
      <BuilderHeader
        title={pageTitle({ page: 'workwearBuilder' }, siteName)}
        heading="Build Your Workwear"
        category={category}
        editingNote={editing ? 'You are changing a workwear order in your basket: saving replaces it.' : null}
      />
      <BuilderLayout
        onSubmit={submit}
        preview={
          <>
            <img
              src={svgDataUrl(preview)}
              alt={`Preview: ${garment?.name ?? ''} in ${colour}${positions.length ? ', logo on the ' + positions.join(', ') : ''}`}
              className="mx-auto mt-3 h-auto w-full max-w-xs"
              data-testid="workwear-preview"
            />
            {editing?.logoUrl && !logo ? (
              <p className="mt-2 flex items-center gap-2 text-sm">
                <img src={editing.logoUrl} alt="Your current logo" className="h-10 w-10 object-contain" />
                Your logo is kept unless you upload a new one.
              </p>
            ) : null}
            <PriceSummary
              testId="workwear-price"
              rows={[
                ['Garments', total],
                ['Customisation each', <Price key="custom" amount={custom} />],
                ['Total', <Price key="total" amount={goods} />],
              ]}
            />
          </>
        }
      >
        <fieldset>
          <legend className="text-lg font-semibold">Garment</legend>
          <div className="mt-2 flex flex-wrap gap-4">
            {garments.map((g) => (
              <label key={g.id} className="flex items-center gap-2">
                <input
                  type="radio"
                  name="garment"
                  checked={garment?.id === g.id}
                  onChange={() => setGarmentId(g.id)}
                />
                {g.name}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset>
          <legend className="text-lg font-semibold">{colourWord(locale)}</legend>
          <div className="mt-2 flex flex-wrap gap-4">
            {config.colours.map((c) => (
              <label key={c.name} className="flex items-center gap-2">
                <input
                  type="radio"
                  name="colour"
                  checked={colour === c.name}
                  onChange={() => setColour(c.name)}
                />
                <span
                  aria-hidden="true"
                  className="inline-block h-4 w-4 rounded-full border border-gray-500"
                  style={{ background: c.hex }}
                />
                {c.name}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset aria-describedby={describedBy('sizes')}>
          <legend className="text-lg font-semibold">Sizes and quantities</legend>
          <div className="mt-2 grid grid-cols-3 gap-3 sm:grid-cols-5">
            {(garment?.sizes ?? []).map((s) => (
              <div key={s.size}>
                <label htmlFor={`${uid}-size-${s.size}`} className="text-sm font-medium">
                  {s.size}
                </label>
                <input
                  id={`${uid}-size-${s.size}`}
                  type="number"
                  min={0}
                  max={9999}
                  inputMode="numeric"
                  className={field}
                  value={sizes[s.size] ?? ''}
                  onChange={(e) => setSizes((all) => ({ ...all, [s.size]: e.target.value }))}
                />
              </div>
            ))}
          </div>
          {errorOf('sizes')}
        </fieldset>
        <fieldset aria-describedby={describedBy('positions')}>
          <legend className="text-lg font-semibold">Logo positions</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {config.positions.map((p) => (
              <label key={p.id} className="flex items-center gap-2">
                <input
                  type="checkbox"
                  id={`${uid}-position-${p.id}`}
                  checked={positions.includes(p.id)}
                  onChange={(e) =>
                    setPositions((all) => (e.target.checked ? [...all, p.id] : all.filter((x) => x !== p.id)))
                  }
                />
                {p.name} (+
                <Price amount={p.cost} /> each)
              </label>
            ))}
          </div>
          {errorOf('positions')}
        </fieldset>
        <div>
          <label htmlFor={`${uid}-logo`} className="text-lg font-semibold">
            Your logo (PNG, JPEG or SVG, up to 2 MB)
          </label>
          <input
            id={`${uid}-logo`}
            type="file"
            accept={LOGO_TYPES.join(',')}
            className="mt-1 block"
            aria-describedby={describedBy('logo')}
            onChange={(e) => void chooseFile(e.target.files?.[0])}
          />
          {errorOf('logo')}
        </div>
        <div>
          <label htmlFor={`${uid}-text`} className="text-lg font-semibold">
            Text (optional, +<Price amount={config.textCost} /> each)
          </label>
          <input
            id={`${uid}-text`}
            className={field}
            maxLength={WORKWEAR_TEXT_MAX}
            value={text}
            aria-describedby={describedBy('text')}
            onChange={(e) => setText(e.target.value)}
          />
          {errorOf('text')}
        </div>
        <SubmitButton busy={busy} editing={!!editing} />
      </BuilderLayout>
    </>
  )
}

/** Form order of the fields, so that focus goes to the first refused one. */
const FIELD_ORDER = ['garment', 'colour', 'sizes', 'positions', 'logo', 'text'] as const

function toQty(value: string): number {
  if (!value.trim()) return 0
  return /^\s*\d{1,4}\s*$/.test(value) ? Number(value) : NaN
}
