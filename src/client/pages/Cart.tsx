/**
 * The basket page (spec §2 "Basket page"): lines with the quantity editor, delivery and
 * minimum-order notices, totals and an order summary beside them from 1279 px, promotional code,
 * share and save dialogs, and the empty state with suggested products. Every change is a JSON
 * call whose answer replaces the page's basket and the header summary without a reload.
 */
import { RestorePreviousBasket, SharedBasketOffer } from '../components/cart/SharedBasketOffer.tsx'
import { Head, Link, router, usePage } from '@inertiajs/react'
import { useEffect, useState } from 'react'
import {
  CART_TEXT,
  showsFreeDeliveryNote,
  TREE_SPEND_MINOR,
  treesFor,
  type Cart as CartData,
  type CartPageProps,
} from '../../shared/cart.ts'
import { formatMoney } from '../../shared/money.ts'
import { pageTitle } from '../../shared/titles.ts'
import { CartTable, useLineAmounts } from '../components/cart/CartTable.tsx'
import { CartTotals } from '../components/cart/CartTotals.tsx'
import { EmptyBasketDialog } from '../components/cart/EmptyBasketDialog.tsx'
import { taxWording } from '../../shared/tax.ts'
import { useVat } from '../lib/vat.tsx'
import { primaryButton, secondaryButton } from '../components/cart/Modal.tsx'
import { PromoForm } from '../components/cart/PromoForm.tsx'
import { SaveDialog } from '../components/cart/SaveDialog.tsx'
import { ShareDialog } from '../components/cart/ShareDialog.tsx'
import { ProductGrid } from '../components/catalog/ProductGrid.tsx'
import { ValidationErrors } from '../components/ValidationErrors.tsx'
import { Blocks } from '../components/content/Blocks.tsx'
import { CartApiError, cartCall, messagesOf, publishCart, storeCart } from '../lib/cart-api.ts'
import { useMessages } from '../lib/messages.tsx'
import { useShared } from '../lib/shared-props.ts'

export type { CartPageProps }

function LockIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="h-5 w-5 shrink-0"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <rect x="4" y="11" width="16" height="10" rx="2" />
      <path d="M8 11V7a4 4 0 0 1 8 0v4" />
    </svg>
  )
}

/** Remaining above 0 invites adding that amount; exactly 0 qualifies; nothing when not set. */
function DeliveryNotice({ remaining, money }: { remaining: number | null; money: (n: number) => string }) {
  const exTax = taxWording(useVat().tax).exSuffix
  if (remaining === null || remaining === undefined) return null
  if (remaining > 0) {
    return (
      <p className="rounded bg-amber-50 px-3 py-2 text-amber-950" data-testid="delivery-notice">
        Spend another <strong>{money(remaining)}</strong>
        {exTax} to qualify for free delivery.
      </p>
    )
  }
  return (
    <p className="rounded bg-green-50 px-3 py-2 text-green-900" data-testid="delivery-notice">
      Good news: your order qualifies for free delivery.
    </p>
  )
}

/** Spec §5/§9: one tree per 100 spent, capped at 500; only when the site turns it on. */
function TreePlantingNotice({ spent, money }: { spent: number; money: (n: number) => string }) {
  const trees = treesFor(spent)
  return (
    <p className="rounded bg-green-50 px-3 py-2 text-green-900" data-testid="tree-planting-notice">
      {trees > 0
        ? `Thank you: this order will plant ${trees} ${trees === 1 ? 'tree' : 'trees'}.`
        : `We plant a tree for every ${money(TREE_SPEND_MINOR)} you spend.`}
    </p>
  )
}

/** Shown once, where the first checkout button would be (it replaces all three). */
function MinimumOrderNotice({ cart, money }: { cart: CartData; money: (n: number) => string }) {
  const exTax = taxWording(useVat().tax).exSuffix
  const cartName = (useShared().site?.cartName || 'Basket').toLowerCase()
  return (
    <p
      role="status"
      className="rounded border border-amber-400 bg-amber-50 px-3 py-2 text-amber-950"
      data-testid="minimum-order-notice"
    >
      Our minimum order value is {money(cart.minimum_order_value)}
      {exTax}. Please add another <strong>{money(cart.short_for_minimum_order_value)}</strong>
      {` to your ${cartName} to check out.`}
    </p>
  )
}

function CheckoutButton() {
  return (
    <a href="/checkout" className={`${primaryButton} w-full sm:w-auto`} data-testid="checkout-button">
      Go To Checkout
    </a>
  )
}

export default function Cart({
  basket,
  canSave,
  suggestions,
  content,
  sharedOffer = null,
  restorePrevious = null,
}: CartPageProps) {
  const { site } = useShared()
  const page = usePage()
  const { pushError } = useMessages()
  const [busy, setBusy] = useState(false)
  const [validation, setValidation] = useState<Record<string, string[]>>({})
  const [dialog, setDialog] = useState<'share' | 'save' | 'empty' | null>(null)
  /** What the polite live region says after a change: the line, then the header's summary */
  const [announcement, setAnnouncement] = useState('')
  const lineAmounts = useLineAmounts()
  const cartName = site?.cartName || 'Basket'
  const currency = site?.currency ?? 'GBP'
  const money = (n: number) => formatMoney(n, currency)
  const flashError = (page.flash as Record<string, unknown> | undefined)?.cartError
  const error = typeof flashError === 'string' ? flashError : null

  // refresh=1: store the cart and load the page again without the flag.
  useEffect(() => {
    storeCart(basket)
    if (new URLSearchParams(window.location.search).get('refresh') === '1') {
      router.visit('/cart', { replace: true, preserveScroll: true })
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  /** The basket's new count and total, as the header summary now shows them. */
  const summaryText = (next: CartData) => {
    const count = Math.max(0, next.cart_total_items || 0)
    return `${cartName}: ${count} ${count === 1 ? 'item' : 'items'}, total ${money(next.cart_total_price_inc_tax)}.`
  }
  const run = async (
    call: () => Promise<CartData>,
    failure: string,
    describe?: (next: CartData) => string,
  ) => {
    setBusy(true)
    setValidation({})
    try {
      const next = await call()
      publishCart(next, { basket: true })
      setAnnouncement([describe?.(next), summaryText(next)].filter(Boolean).join(' '))
      // Emptied: load the page again for the suggestions shown with the empty basket.
      if (next.items.length === 0 && suggestions.length === 0) router.reload()
      return true
    } catch (err) {
      if (err instanceof CartApiError && err.status === 422) setValidation(err.errors)
      const detail = messagesOf(err).join(' ') || (err instanceof Error ? err.message : '')
      pushError(`${failure} ${detail}`.trim())
      return false
    } finally {
      setBusy(false)
    }
  }

  const nameOf = (id: number) => basket.items.find((i) => i.id === id)?.product.name ?? 'Item'
  const updateQuantity = (id: number, quantity: number) => {
    const name = nameOf(id)
    void run(
      () => cartCall('POST', '/cart/update-items', { items: [{ id, quantity }] }),
      CART_TEXT.updateError,
      (next) => {
        const line = next.items.find((i) => i.id === id)
        if (!line) return `${name} removed.`
        const amounts = lineAmounts(line)
        return `${name}: quantity ${line.quantity}, line total ${amounts.net}${amounts.discount ? ` after a discount of ${amounts.discount}` : ''}.`
      },
    )
  }
  const removeLine = (id: number) => {
    const name = nameOf(id)
    void run(
      () => cartCall('DELETE', `/cart/item/${id}`),
      CART_TEXT.deleteError,
      () => `${name} removed.`,
    )
  }
  // Asked first (EmptyBasketDialog); the dialog closes either way so an error shows in the error box.
  const clear = async () => {
    await run(() => cartCall('POST', '/cart/clear'), CART_TEXT.clearError)
    setDialog(null)
  }
  const removeSequence = async (sequenceId: string) => {
    setBusy(true)
    try {
      await cartCall('DELETE', `/cart/sign-sequence/${encodeURIComponent(sequenceId)}`)
      router.reload()
    } catch {
      pushError(CART_TEXT.signSequenceError)
    } finally {
      setBusy(false)
    }
  }

  const title = pageTitle({ page: 'cart', cartName }, site?.name ?? null)
  const empty = basket.items.length === 0
  const canCheckout = basket.short_for_minimum_order_value <= 0

  return (
    <>
      <Head title={title} />
      <h1 className="text-3xl font-bold tracking-tight">{cartName}</h1>
      {sharedOffer ? <SharedBasketOffer {...sharedOffer} /> : null}
      {restorePrevious ? <RestorePreviousBasket action={restorePrevious} /> : null}

      {empty ? (
        <div className="mt-6" data-testid="cart-empty">
          {error && basket.id === null ? (
            <p className="mb-4 text-red-800" data-testid="cart-error">
              {error}
            </p>
          ) : null}
          <p className="text-lg">{CART_TEXT.empty}</p>
          <Link href="/" className={`${secondaryButton} mt-4`}>
            Continue Shopping
          </Link>
          {suggestions.length > 0 ? (
            <section aria-labelledby="suggested-heading" className="mt-10">
              <h2 id="suggested-heading" className="mb-4 text-2xl font-semibold">
                {CART_TEXT.suggested}
              </h2>
              <ProductGrid tiles={suggestions} label={CART_TEXT.suggested} />
            </section>
          ) : null}
        </div>
      ) : (
        <>
          <div className="mt-4 flex flex-wrap gap-3">
            {!basket.shared ? (
              <button type="button" className={secondaryButton} onClick={() => setDialog('share')}>
                Share {cartName}
              </button>
            ) : null}
            {canSave ? (
              <button type="button" className={secondaryButton} onClick={() => setDialog('save')}>
                Save {cartName}
              </button>
            ) : null}
          </div>

          <ValidationErrors errors={validation} className="mt-4" />

          <div className="mt-4 grid gap-8 min-[1279px]:grid-cols-[minmax(0,1fr)_22rem]">
            <form
              aria-label={cartName}
              onSubmit={(e) => e.preventDefault()}
              data-testid="cart-form"
              aria-busy={busy || undefined}
            >
              <div className="space-y-3">
                <p className="flex items-center gap-2 text-sm text-gray-800">
                  <LockIcon />
                  Secure buying: your payment details are encrypted and never stored by us.
                </p>
                <DeliveryNotice remaining={basket.shortForFreeShipping} money={money} />
                {site?.treePlanting ? <TreePlantingNotice spent={basket.items_total} money={money} /> : null}
                {canCheckout ? <CheckoutButton /> : <MinimumOrderNotice cart={basket} money={money} />}
              </div>
              <p className="sr-only" role="status" aria-atomic="true" data-testid="cart-announcement">
                {announcement}
              </p>

              <CartTable
                items={basket.items}
                cartName={cartName}
                busy={busy}
                onQuantity={updateQuantity}
                onRemove={removeLine}
                onRemoveSequence={(s) => void removeSequence(s)}
              />

              <div className="mt-6 ml-auto max-w-sm min-[1279px]:hidden">
                <CartTotals cart={basket} currency={currency} testId="cart-totals" />
              </div>

              <nav
                aria-label={`${cartName} navigation`}
                className="mt-6 flex flex-wrap justify-between gap-3"
              >
                <Link href="/" className={secondaryButton}>
                  Continue Shopping
                </Link>
                <button
                  type="button"
                  className={secondaryButton}
                  onClick={() => setDialog('empty')}
                  disabled={busy}
                  aria-haspopup="dialog"
                >
                  Empty {cartName}
                </button>
                {canCheckout ? <CheckoutButton /> : null}
              </nav>
              {content.afterNavigation ? (
                <div className="mt-6">
                  <Blocks blocks={content.afterNavigation} />
                </div>
              ) : null}
            </form>

            <aside
              aria-labelledby="summary-heading"
              className="rounded-lg border border-gray-200 bg-gray-50 p-4 self-start"
            >
              <h2 id="summary-heading" className="text-lg font-semibold">
                Order summary
              </h2>
              <div className="mt-3 hidden min-[1279px]:block">
                <CartTotals cart={basket} currency={currency} testId="summary-totals" />
              </div>
              {showsFreeDeliveryNote(basket) ? (
                <p className="mt-3 text-sm font-semibold text-green-900" data-testid="free-delivery-note">
                  Free delivery on this order.
                </p>
              ) : null}
              {canCheckout ? (
                <div className="mt-4">
                  <CheckoutButton />
                </div>
              ) : null}
              {content.afterSummary ? (
                <div className="mt-4">
                  <Blocks blocks={content.afterSummary} />
                </div>
              ) : null}
              <PromoForm cart={basket} />
            </aside>
          </div>

          {basket.id && !basket.shared ? (
            <ShareDialog open={dialog === 'share'} cartId={basket.id} onClose={() => setDialog(null)} />
          ) : null}
          <EmptyBasketDialog
            open={dialog === 'empty'}
            cartName={cartName}
            busy={busy}
            onConfirm={() => void clear()}
            onClose={() => setDialog(null)}
          />
          {canSave ? (
            <SaveDialog open={dialog === 'save'} cartName={cartName} onClose={() => setDialog(null)} />
          ) : null}
        </>
      )}
    </>
  )
}
