/**
 * The category's product builder (spec §3 "Builder", §5, §9): one choice per selector and option
 * group, a quantity, the subtotal (chosen costs × quantity) and an add button that works only
 * with a quantity set and a first selector costing more than 0.
 */
import { useId, useState } from 'react'
import {
  builderBasketItems,
  builderSubtotal,
  canAddBuilder,
  initialSelection,
  type BuilderSelection,
} from '../../../shared/builder.ts'
import type { BuilderConfig, BuilderGroup } from '../../../shared/catalog.ts'
import { gridRule } from '../../../shared/quantity.ts'
import { addToBasket } from '../../lib/basket.ts'
import { useShared } from '../../lib/shared-props.ts'
import { useMessages } from '../../lib/messages.tsx'
import { Price } from '../Price.tsx'
import { AddToBasketButton } from './AddToBasketButton.tsx'
import { QuantityEditor } from './QuantityEditor.tsx'

function Group({
  group,
  name,
  chosen,
  allowNone,
  onChoose,
}: {
  group: BuilderGroup
  name: string
  chosen: number | null
  allowNone: boolean
  onChoose: (id: number | null) => void
}) {
  const radio = 'h-4 w-4 accent-primary'
  return (
    <fieldset className="rounded-md border border-gray-200 p-3">
      <legend className="px-1 font-semibold">{group.name}</legend>
      <ul className="mt-1 grid gap-1 sm:grid-cols-2">
        {allowNone ? (
          <li>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                className={radio}
                name={name}
                checked={chosen === null}
                onChange={() => onChoose(null)}
              />
              <span>None</span>
            </label>
          </li>
        ) : null}
        {group.items.map((item) => (
          <li key={item.id}>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                className={radio}
                name={name}
                value={item.id}
                checked={chosen === item.id}
                onChange={() => onChoose(item.id)}
              />
              <span>{item.name}</span>
              {item.cost > 0 ? (
                <span className="text-sm text-gray-700">
                  (<Price amount={item.cost} />)
                </span>
              ) : null}
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  )
}

export function ProductBuilder({
  builder,
  categoryId,
  fallbackListingId,
}: {
  builder: BuilderConfig
  categoryId: number
  fallbackListingId: number | null
}) {
  const [selection, setSelection] = useState<BuilderSelection>(() => initialSelection(builder))
  const [quantity, setQuantity] = useState(0)
  const [pending, setPending] = useState(false)
  const { pushError } = useMessages()
  const site = useShared().site
  const id = useId()
  const allowed = canAddBuilder(builder, selection, quantity)

  const choose = (kind: 'selectors' | 'options', index: number, itemId: number | null) =>
    setSelection((s) => {
      const list = [...s[kind]]
      list[index] = itemId
      return { ...s, [kind]: list }
    })

  const add = () => {
    const items = builderBasketItems(builder, selection, quantity, categoryId, fallbackListingId)
    if (!items) return
    setPending(true)
    void addToBasket(items, { pushError, site, onFinish: () => setPending(false) })
  }

  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="mt-8 rounded-lg border border-gray-200 p-4"
      data-testid="product-builder"
    >
      <h2 id={`${id}-heading`} className="text-xl font-semibold">
        Build your product
      </h2>
      <div className="mt-3 grid gap-3">
        {builder.selectors.map((group, i) => (
          <Group
            key={`s-${group.name}-${i}`}
            group={group}
            name={`${id}-selector-${i}`}
            chosen={selection.selectors[i] ?? null}
            allowNone={false}
            onChoose={(itemId) => choose('selectors', i, itemId)}
          />
        ))}
        {builder.options.map((group, i) => (
          <Group
            key={`o-${group.name}-${i}`}
            group={group}
            name={`${id}-option-${i}`}
            chosen={selection.options[i] ?? null}
            allowNone
            onChoose={(itemId) => choose('options', i, itemId)}
          />
        ))}
      </div>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-4">
        <div className="flex items-center gap-3">
          <span className="font-semibold" aria-hidden="true">
            Quantity
          </span>
          <QuantityEditor
            value={quantity}
            rule={gridRule(1)}
            label="Builder quantity"
            onChange={setQuantity}
          />
        </div>
        <p className="text-lg" data-testid="builder-subtotal">
          Subtotal <Price amount={builderSubtotal(builder, selection, quantity)} className="font-bold" />
        </p>
        <AddToBasketButton onClick={add} disabled={!allowed} pending={pending} />
      </div>
    </section>
  )
}
