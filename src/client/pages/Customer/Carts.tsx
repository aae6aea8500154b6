/**
 * Customer/Carts 'Baskets' (spec §2, §3 Saved cart, §7): saved baskets with name, date, items
 * and totals at today's prices; load (POST /customer/load-cart, then /cart), rename (POST
 * /cart/save with id and basketName) and delete.
 */
import { router } from '@inertiajs/react'
import { useState } from 'react'
import { ACCOUNT_TEXT } from '../../../shared/account-text.ts'
import type { CartsProps, SavedBasket } from '../../../shared/account.ts'
import {
  AccountLayout,
  failureText,
  mainButton,
  smallButton,
  type Notice,
} from '../../components/account/AccountLayout.tsx'
import { useFormat } from '../../components/account/format.ts'
import { errorList, joinErrors, requestJson } from '../../lib/json-client.ts'

export default function Carts({ greeting, baskets }: CartsProps) {
  const [notice, setNotice] = useState<Notice | null>(null)
  return (
    <AccountLayout
      title="Baskets"
      titleFor={{ page: 'baskets' }}
      greeting={greeting}
      here="/customer/carts"
      notice={notice}
    >
      {baskets.length === 0 ? (
        <p>{ACCOUNT_TEXT.noBaskets}</p>
      ) : (
        <ul className="space-y-4">
          {baskets.map((b) => (
            <BasketCard key={b.id} basket={b} onNotice={setNotice} />
          ))}
        </ul>
      )}
    </AccountLayout>
  )
}

function BasketCard({ basket, onNotice }: { basket: SavedBasket; onNotice: (n: Notice) => void }) {
  const f = useFormat()
  const [renaming, setRenaming] = useState(false)
  const [name, setName] = useState(basket.basketName)
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)

  const load = async () => {
    setBusy(true)
    const res = await requestJson('POST', '/customer/load-cart', { cart: basket.id })
    setBusy(false)
    if (res.ok) router.visit('/cart')
    else onNotice({ kind: 'error', text: failureText(res.data, ACCOUNT_TEXT.cartFailed) })
  }
  const rename = async () => {
    setBusy(true)
    const res = await requestJson('POST', '/cart/save', { id: basket.id, basketName: name })
    setBusy(false)
    if (res.ok) {
      setRenaming(false)
      setError('')
      onNotice({ kind: 'success', text: ACCOUNT_TEXT.cartUpdated })
      router.reload({ only: ['baskets'] })
    } else {
      const [first] = errorList(res.data)
      setError(first ?? joinErrors(res.data, ''))
      onNotice({ kind: 'error', text: ACCOUNT_TEXT.cartFailed })
    }
  }
  const remove = async () => {
    if (!window.confirm(`Delete the basket '${basket.basketName}'?`)) return
    setBusy(true)
    const res = await requestJson('POST', '/customer/destroy-cart', { id: basket.id })
    setBusy(false)
    if (res.ok) {
      onNotice({ kind: 'success', text: ACCOUNT_TEXT.cartUpdated })
      router.reload({ only: ['baskets'] })
    } else onNotice({ kind: 'error', text: failureText(res.data, ACCOUNT_TEXT.cartFailed) })
  }
  const headingId = `basket-${basket.id}`
  return (
    <li
      className="rounded-md border border-gray-200 p-4"
      aria-labelledby={headingId}
      data-testid="saved-basket"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          {basket.basketName}
        </h2>
        <p className="text-sm text-gray-700">Saved {f.date(basket.created)}</p>
      </div>
      {basket.items.length === 0 ? (
        <p className="mt-2 text-sm">{ACCOUNT_TEXT.noItems}</p>
      ) : (
        <ul className="mt-2 text-sm">
          {basket.items.map((i, n) => (
            <li key={n} className="flex justify-between gap-3 border-b border-gray-100 py-1">
              <span>
                {i.quantity} × {i.product.name}
              </span>
              <span>{f.money(i.line_total)}</span>
            </li>
          ))}
        </ul>
      )}
      <p className="mt-2 text-sm">
        {basket.itemCount} item{basket.itemCount === 1 ? '' : 's'}, total {f.money(basket.total)} ex VAT (
        {f.money(basket.totalIncTax)} inc VAT) at today's prices
      </p>
      {renaming ? (
        <form
          className="mt-3 flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault()
            void rename()
          }}
        >
          <label className="text-sm">
            Basket name
            <input
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={100}
              required
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${headingId}-error` : undefined}
              className="mt-1 block w-60 max-w-full rounded border border-gray-400 px-2 py-1"
            />
          </label>
          <button type="submit" className={mainButton} disabled={busy}>
            Save name
          </button>
          <button type="button" className={smallButton} onClick={() => setRenaming(false)}>
            Cancel
          </button>
          {error ? (
            <p id={`${headingId}-error`} className="w-full text-sm text-red-700">
              {error}
            </p>
          ) : null}
        </form>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="button" className={mainButton} disabled={busy} onClick={() => void load()}>
          Load basket
        </button>
        <button type="button" className={smallButton} disabled={busy} onClick={() => setRenaming(true)}>
          Rename
        </button>
        <button type="button" className={smallButton} disabled={busy} onClick={() => void remove()}>
          Delete
        </button>
      </div>
    </li>
  )
}
