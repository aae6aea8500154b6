/**
 * The basket lines: Item, Price Each, Qty, Total. Quantity editor rules (spec §4): a line with a
 * parent that is not isolated is read-only; a free gift shows its quantity only; otherwise 0 to
 * 9999: minus and typed values never go below the line's minimum order, but typing 0 and leaving
 * the field removes the line. A change is sent after a short pause.
 */
import { Link } from '@inertiajs/react'
import { useEffect, useRef, useState } from 'react'
import type { CartItem } from '../../../shared/cart.ts'
import { formatMoney } from '../../../shared/money.ts'
import type { QuantityRule } from '../../../shared/quantity.ts'
import { withVat } from '../../../shared/vat.ts'
import { useShared } from '../../lib/shared-props.ts'
import { useVat } from '../../lib/vat.tsx'
import { Price } from '../Price.tsx'
import { QuantityEditor } from '../product/QuantityEditor.tsx'

const UPDATE_DELAY_MS = 600

function basketRule(item: CartItem): QuantityRule {
  return { minimumOrder: Math.max(1, item.minimumOrder || 1), allowZero: false }
}

function LineQuantity({
  item,
  busy,
  onQuantity,
}: {
  item: CartItem
  busy: boolean
  onQuantity: (id: number, quantity: number) => void
}) {
  const [value, setValue] = useState(item.quantity)
  const [serverQuantity, setServerQuantity] = useState(item.quantity)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  /** The field's text as typed, to tell a deliberate 0 (remove) from an emptied field */
  const typed = useRef<string | null>(null)
  // The server's answer wins once it arrives.
  if (serverQuantity !== item.quantity) {
    setServerQuantity(item.quantity)
    setValue(item.quantity)
  }
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), [])

  if (item.IsFreeGift || (item.parent !== null && !item.is_isolated_from_parent)) {
    return (
      <span className="tabular-nums" data-testid="line-quantity">
        {item.quantity}
      </span>
    )
  }
  const zeroTyped = () => typed.current !== null && /^\s*0+\s*$/.test(typed.current)
  return (
    <div
      onChangeCapture={(e) => {
        typed.current = (e.target as HTMLInputElement).value
      }}
      onClickCapture={() => {
        typed.current = null
      }}
      onBlur={() => {
        if (!zeroTyped()) return
        typed.current = null
        if (timer.current) clearTimeout(timer.current)
        onQuantity(item.id, 0)
      }}
    >
      <QuantityEditor
        value={value}
        rule={basketRule(item)}
        label={`Quantity for ${item.product.name}`}
        disabled={busy}
        onChange={(q) => {
          setValue(q)
          if (timer.current) clearTimeout(timer.current)
          if (q === item.quantity || q < 1 || zeroTyped()) return
          timer.current = setTimeout(() => onQuantity(item.id, q), UPDATE_DELAY_MS)
        }}
      />
    </div>
  )
}

/**
 * A line's amounts as shown (with or without VAT, as the visitor sees prices): the goods at
 * 'Price Each' × quantity, the line's share of the basket's discount, and what is left to pay. The
 * discount shown is the difference of the two amounts shown, so the three always add up.
 */
export function useLineAmounts(): (item: CartItem) => {
  goods: string
  discount: string | null
  net: string
} {
  const { incVat } = useVat()
  const currency = useShared().site?.currency ?? 'GBP'
  return (item) => {
    const shown = (n: number) => (incVat ? withVat(n, item.vat_rate) : n)
    const goods = shown(item.line_total_ex_discount_ex_tax)
    const net = shown(item.line_total)
    return {
      goods: formatMoney(goods, currency),
      discount: goods > net ? formatMoney(goods - net, currency) : null,
      net: formatMoney(net, currency),
    }
  }
}

/** The line's total: quantity × price each, and when the basket's discount takes a share, that share and what is left. */
function LineTotal({ item }: { item: CartItem }) {
  const amounts = useLineAmounts()(item)
  if (!amounts.discount) return <>{amounts.net}</>
  return (
    <>
      <span className="block font-normal">{amounts.goods}</span>
      <span className="block text-sm font-normal text-green-800" data-testid="line-discount">
        Discount −{amounts.discount}
      </span>
      <span className="block">
        {amounts.net}
        <span className="sr-only"> after discount</span>
      </span>
    </>
  )
}

/** What a builder line carries: a sign's size, material and number; a workwear line's garment. */
function BuilderDetails({ item }: { item: CartItem }) {
  const ww = item.work_wear
  return (
    <>
      {item.sign_details ? <p className="text-sm text-gray-700">{item.sign_details}</p> : null}
      {item.sequence_label ? <p className="text-sm text-gray-700">Number: {item.sequence_label}</p> : null}
      {ww ? (
        <ul className="mt-1 text-sm text-gray-700" data-testid="workwear-details">
          <li>
            {ww.garment}, {ww.colour}, size {ww.size}
          </li>
          {ww.customisation.map((c) => (
            <li key={c.name}>{c.name}</li>
          ))}
        </ul>
      ) : null}
    </>
  )
}

export function CartTable({
  items,
  busy,
  onQuantity,
  onRemove,
  onRemoveSequence,
  cartName = 'Basket',
}: {
  items: CartItem[]
  /** The site's name for the basket ('Basket', 'Cart') */
  cartName?: string
  busy: boolean
  onQuantity: (id: number, quantity: number) => void
  onRemove: (id: number) => void
  onRemoveSequence: (sequenceId: string) => void
}) {
  return (
    // Under 640 px each line is a card: the item across the width, quantity and total below it,
    // so the basket never gets wider than a phone.
    <table className="mt-4 w-full border-collapse text-left max-sm:block" data-testid="cart-table">
      <caption className="sr-only">Items in your {cartName.toLowerCase()}</caption>
      <thead className="max-sm:sr-only">
        <tr className="border-b border-gray-300 text-sm text-gray-700">
          <th scope="col" className="py-2 pr-3 font-semibold">
            Item
          </th>
          <th scope="col" className="hidden py-2 pr-3 font-semibold sm:table-cell">
            Price Each
          </th>
          <th scope="col" className="py-2 pr-3 font-semibold">
            Qty
          </th>
          <th scope="col" className="py-2 text-right font-semibold">
            Total
          </th>
        </tr>
      </thead>
      <tbody className="max-sm:block">
        {items.map((item) => {
          const set = item.sequence_id ? items.filter((i) => i.sequence_id === item.sequence_id) : []
          const firstOfSet = set.length > 0 && set[0]!.id === item.id
          return (
            <tr
              key={item.id}
              className="border-b border-gray-200 align-top max-sm:grid max-sm:grid-cols-[1fr_auto] max-sm:items-center max-sm:gap-x-3 max-sm:pb-3"
              data-testid="cart-line"
              data-sku={item.product.sku}
            >
              <td className="py-3 pr-3 max-sm:col-span-2 max-sm:block max-sm:pr-0">
                <div className="flex gap-3">
                  <img
                    src={
                      item.sign_preview_url ??
                      item.work_wear?.preview_url ??
                      item.product.media ??
                      '/placeholder.svg'
                    }
                    alt=""
                    width={64}
                    height={64}
                    loading="lazy"
                    className="h-16 w-16 shrink-0 rounded border border-gray-200 object-contain"
                  />
                  <div className="min-w-0 break-words">
                    <Link
                      href={item.product.url || '/'}
                      className="font-semibold text-primary underline-offset-2 hover:underline"
                    >
                      {item.product.name}
                    </Link>
                    <p className="text-sm text-gray-700" data-testid="line-code">
                      Code: {item.product.product_code}
                    </p>
                    {item.IsFreeGift ? (
                      <p className="text-sm font-semibold text-green-800">Free gift</p>
                    ) : null}
                    {item.options.items.length > 0 ? (
                      <ul className="mt-1 text-sm text-gray-700">
                        {item.options.items.map((o) => (
                          <li key={o.id}>
                            {o.title}: {o.name}
                          </li>
                        ))}
                      </ul>
                    ) : null}
                    {firstOfSet ? (
                      <p className="mt-1 text-sm font-semibold" data-testid="sign-set">
                        Numbered set of {set.length} signs
                      </p>
                    ) : null}
                    <BuilderDetails item={item} />
                    {item.printable_sign?.signReads ? (
                      <p className="mt-1 text-sm text-gray-700">
                        Sign reads: {item.printable_sign.signReads}
                      </p>
                    ) : null}
                    <p className="mt-1 text-sm text-gray-700 sm:hidden">
                      Price each: <Price amount={item.unit_price} vatRate={item.vat_rate} />
                    </p>
                    <div className="mt-1 flex flex-wrap gap-x-4 text-sm">
                      {item.edit_url ? (
                        <a href={item.edit_url} className="text-primary underline">
                          Edit sign
                        </a>
                      ) : null}
                      {item.sign_proof_url ? (
                        <a
                          href={item.sign_proof_url}
                          className="text-primary underline"
                          target="_blank"
                          rel="noopener"
                        >
                          Proof (PDF)
                        </a>
                      ) : null}
                      {item.work_wear_url ? (
                        <a href={item.work_wear_url} className="text-primary underline">
                          Edit design
                        </a>
                      ) : null}
                      {item.sequence_id && !firstOfSet && set.length > 0 ? null : item.sequence_id ? (
                        <button
                          type="button"
                          className="text-red-800 underline disabled:opacity-60"
                          disabled={busy}
                          onClick={() => onRemoveSequence(item.sequence_id!)}
                        >
                          Remove sign set
                        </button>
                      ) : !item.IsFreeGift && (item.parent === null || item.is_isolated_from_parent) ? (
                        <button
                          type="button"
                          className="text-red-800 underline disabled:opacity-60"
                          disabled={busy}
                          onClick={() => onRemove(item.id)}
                          aria-label={`Remove ${item.product.name}`}
                        >
                          Remove
                        </button>
                      ) : null}
                    </div>
                  </div>
                </div>
              </td>
              <td className="hidden py-3 pr-3 tabular-nums sm:table-cell" data-testid="line-price">
                <Price amount={item.unit_price} vatRate={item.vat_rate} />
              </td>
              <td className="py-3 pr-3 max-sm:block max-sm:py-0">
                <LineQuantity item={item} busy={busy} onQuantity={onQuantity} />
              </td>
              <td
                className="py-3 text-right font-semibold tabular-nums max-sm:block max-sm:py-0"
                data-testid="line-total"
              >
                <LineTotal item={item} />
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}
