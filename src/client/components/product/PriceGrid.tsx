/**
 * A price grid (spec §3 "Price grid", §4, §5): one row per SKU or per group of SKUs (a dropdown
 * keyed by product id), price-break columns ('10-24', '100+'), the was price struck through, a
 * quantity editor, the unit price of the quantity's bracket highlighted, row totals, the grid
 * total and an add-to-basket button that sends only rows with a quantity above 0.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react'
import type {
  BasketAddItem,
  GridOption,
  GridRow,
  PriceGrid as PriceGridData,
} from '../../../shared/product.ts'
import { optionBrackets, optionCode, optionDescription, optionMinimum } from '../../../shared/product.ts'
import {
  bracketIndexFor,
  lineTotal,
  normaliseBrackets,
  parseProductId,
  type Bracket,
} from '../../../shared/pricing.ts'
import { chooseOption, gridRule } from '../../../shared/quantity.ts'
import { addToBasket } from '../../lib/basket.ts'
import { useShared } from '../../lib/shared-props.ts'
import { useMessages } from '../../lib/messages.tsx'
import { Price } from '../Price.tsx'
import { AddToBasketButton } from './AddToBasketButton.tsx'
import { QuantityEditor } from './QuantityEditor.tsx'

export const SELECT_AN_OPTION = 'Select an option'

interface GridState {
  /** Quantity per product id */
  quantities: Record<number, number>
  /** Chosen product id per row key (rows with one SKU always have it) */
  chosen: Record<string, number | null>
}

/** Where the grid starts: single-SKU rows chosen, quantities 0, the ?sku= SKU chosen at its minimum. */
export function initialGridState(grid: PriceGridData, selectedSku: string | null): GridState {
  const quantities: Record<number, number> = {}
  const chosen: Record<string, number | null> = {}
  const wanted = selectedSku?.toLowerCase() ?? null
  for (const row of grid.rows) {
    chosen[row.key] = row.options.length === 1 ? row.options[0]!.productId : null
    for (const option of row.options) {
      quantities[option.productId] = 0
      if (wanted && option.sku.toLowerCase() === wanted) {
        chosen[row.key] = option.productId
        quantities[option.productId] = gridRule(optionMinimum(option)).minimumOrder
      }
    }
  }
  return { quantities, chosen }
}

/** The SKU a row currently stands for (null: a dropdown with nothing chosen). */
function activeOption(row: GridRow, chosen: Record<string, number | null>): GridOption | null {
  const id = chosen[row.key]
  return row.options.find((o) => o.productId === id) ?? null
}

/**
 * Each grid's heading, which also names its section: its description, or 'Prices' ('Prices (2)'
 * for the second grid ...); a heading two grids would share gets the grid's number, so every
 * section on the page has a name of its own (WCAG 1.3.1, axe landmark-unique).
 */
export function gridHeadings(grids: readonly Pick<PriceGridData, 'number' | 'description'>[]): string[] {
  const base = grids.map((g) => g.description ?? (g.number === 1 ? 'Prices' : `Prices (${g.number})`))
  return base.map((h, i) => (base.indexOf(h) !== base.lastIndexOf(h) ? `${h} (${grids[i]!.number})` : h))
}

export function PriceGrid({
  grid,
  categoryId,
  selectedSku,
  heading = gridHeadings([grid])[0]!,
}: {
  grid: PriceGridData
  categoryId: number
  selectedSku: string | null
  /** The grid's heading and name among the page's grids (gridHeadings) */
  heading?: string
}) {
  const [state, setState] = useState(() => initialGridState(grid, selectedSku))
  const [pending, setPending] = useState(false)
  const { pushError } = useMessages()
  const site = useShared().site
  const headingId = useId()
  const highlightedRow = useRef<HTMLTableRowElement>(null)
  const hasDropdowns = grid.rows.some((r) => r.options.length > 1)

  const brackets = useMemo(() => {
    const map = new Map<number, Bracket[]>()
    for (const row of grid.rows)
      for (const o of row.options) map.set(o.productId, normaliseBrackets(optionBrackets(grid.columns, o)))
    return map
  }, [grid])

  const selectedRowKey = useMemo(() => {
    const wanted = selectedSku?.toLowerCase()
    if (!wanted) return null
    return grid.rows.find((r) => r.options.some((o) => o.sku.toLowerCase() === wanted))?.key ?? null
  }, [grid, selectedSku])

  useEffect(() => {
    highlightedRow.current?.scrollIntoView({ block: 'center' })
  }, [])

  const lines = grid.rows.flatMap((row) => {
    const option = activeOption(row, state.chosen)
    const quantity = option ? (state.quantities[option.productId] ?? 0) : 0
    return option ? [{ row, option, quantity }] : []
  })
  const total = lines.reduce(
    (sum, l) => sum + lineTotal(brackets.get(l.option.productId) ?? [], l.quantity),
    0,
  )
  const items: BasketAddItem[] = lines
    .filter((l) => l.quantity > 0)
    .map((l) => ({ listing_id: l.option.productId, quantity: l.quantity, category_id: categoryId }))

  const setQuantity = (productId: number, quantity: number) =>
    setState((s) => ({ ...s, quantities: { ...s.quantities, [productId]: quantity } }))

  const choose = (row: GridRow, value: string) => {
    const id = parseProductId(value)
    setState((s) => {
      if (id === null || !row.options.some((o) => o.productId === id)) {
        const quantities = { ...s.quantities }
        for (const o of row.options) quantities[o.productId] = 0
        return { quantities, chosen: { ...s.chosen, [row.key]: null } }
      }
      return {
        quantities: chooseOption(s.quantities, row.options, id),
        chosen: { ...s.chosen, [row.key]: id },
      }
    })
  }

  const add = () => {
    setPending(true)
    void addToBasket(items, { pushError, site, asEntries: true, onFinish: () => setPending(false) })
  }

  return (
    // A table where the grid’s box is 56rem or wider; below that (phones, narrow layout columns)
    // each row is a card: code and description, option, price breaks, quantity and total, so
    // nothing scrolls out of view while a quantity is typed.
    <section aria-labelledby={headingId} className="pg" data-testid={`price-grid-${grid.number}`}>
      <h2 id={headingId}>{heading}</h2>
      {grid.unitOfMeasurement ? <p>Prices per {grid.unitOfMeasurement}</p> : null}
      {/* The scrolling box is a region a keyboard can scroll, named apart from its section. */}
      <div className="pg-box" role="region" aria-label={`${heading}: price table`} tabIndex={0}>
        <table>
          <thead className="pg-head">
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Description</th>
              {hasDropdowns ? <th scope="col">Option</th> : null}
              {grid.columns.map((c) => (
                <th key={c.name} scope="col" className="pg-n">
                  {c.name}
                </th>
              ))}
              <th scope="col">Quantity</th>
              <th scope="col" className="text-right">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {grid.rows.map((row) => {
              const option = activeOption(row, state.chosen)
              const shown = option ?? row.options[0]!
              const quantity = option ? (state.quantities[option.productId] ?? 0) : 0
              const list = brackets.get(shown.productId) ?? []
              const index = bracketIndexFor(list, quantity)
              const activeColumn =
                index >= 0 ? grid.columns.findIndex((c) => c.name === list[index]!.name) : -1
              const highlighted = row.key === selectedRowKey
              const code = option ? optionCode(row, option) : row.productCode
              return (
                <tr
                  key={row.key}
                  ref={highlighted ? highlightedRow : undefined}
                  data-row={row.key}
                  data-sku={option?.sku}
                  data-highlighted={highlighted || undefined}
                  className={
                    highlighted
                      ? 'pg-row bg-amber-50 outline-2 -outline-offset-2 outline-amber-500'
                      : 'pg-row'
                  }
                >
                  <td className="pg-code">{code}</td>
                  <td className="pg-desc">
                    {option ? optionDescription(row, option) : row.description}
                    {option?.wasPrice ? (
                      <span className="ml-2 text-gray-600">
                        Was{' '}
                        <s>
                          <Price amount={option.wasPrice} />
                        </s>
                      </span>
                    ) : null}
                  </td>
                  {hasDropdowns ? (
                    <td className="pg-option">
                      {row.options.length > 1 ? (
                        <select
                          aria-label={`Option for ${row.description || row.productCode}`}
                          value={option ? `P${option.productId}` : ''}
                          onChange={(e) => choose(row, e.target.value)}
                          className="pg-select"
                        >
                          <option value="">{SELECT_AN_OPTION}</option>
                          {row.options.map((o) => (
                            <option key={o.productId} value={`P${o.productId}`}>
                              {o.label}
                            </option>
                          ))}
                        </select>
                      ) : null}
                    </td>
                  ) : null}
                  {grid.columns.map((c, i) => {
                    const price = shown.prices[i]
                    const active = i === activeColumn
                    return (
                      // The narrow layout's column name comes from data-l in price-grid.css
                      // (an attribute instead of a hidden span in every cell of every row).
                      <td
                        key={c.name}
                        data-l={c.name}
                        data-active={active || undefined}
                        // A price cell is styled by its data-l (price-grid.css), with no class of its own.
                        className={active ? 'bg-primary font-bold text-on-primary' : undefined}
                      >
                        {price === null || price === undefined ? (
                          <span aria-label="No price">–</span>
                        ) : (
                          <Price amount={price} bare />
                        )}
                      </td>
                    )
                  })}
                  <td className="pg-qty">
                    <QuantityEditor
                      value={quantity}
                      rule={gridRule(optionMinimum(shown))}
                      label={`Quantity for ${code}`}
                      disabled={!option}
                      onChange={(q) => option && setQuantity(option.productId, q)}
                    />
                    {!option ? <p className="pg-note">Choose an option first</p> : null}
                    {optionMinimum(shown) > 1 ? (
                      <p className="pg-note">Minimum order {optionMinimum(shown)}</p>
                    ) : null}
                  </td>
                  <td className="pg-total" data-testid="row-total">
                    <Price amount={lineTotal(list, quantity)} bare />
                  </td>
                </tr>
              )
            })}
          </tbody>
          <tfoot>
            <tr className="pg-foot">
              <th scope="row" colSpan={grid.columns.length + (hasDropdowns ? 4 : 3)}>
                Total
              </th>
              <td data-testid="grid-total">
                <Price amount={total} />
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
      <div className="pg-actions">
        <AddToBasketButton onClick={add} disabled={items.length === 0} pending={pending} />
      </div>
    </section>
  )
}
