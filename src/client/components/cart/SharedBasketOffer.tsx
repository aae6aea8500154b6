/**
 * The question a share link asks (opening the link changes nothing): 'Replace my basket' posts
 * to the link, 'Keep my basket' leaves everything as it is. After a replace, the visitor's own
 * basket can be restored.
 */
import { Link, router } from '@inertiajs/react'
import { SHARE_OFFER_TEXT } from '../../../shared/cart.ts'

const button =
  'inline-flex items-center rounded-md px-4 py-2 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2'

export function SharedBasketOffer({ action, count }: { action: string; count: number }) {
  return (
    <section
      aria-labelledby="shared-offer-title"
      className="mt-4 rounded-md border border-blue-300 bg-blue-50 p-4"
      data-testid="shared-offer"
    >
      <h2 id="shared-offer-title" className="font-semibold">
        {SHARE_OFFER_TEXT.title}
      </h2>
      <p className="mt-1 text-sm text-gray-800">
        It holds {count} {count === 1 ? 'item' : 'items'}. Your own basket is kept if you replace it.
      </p>
      <form
        method="post"
        action={action}
        className="mt-3 flex flex-wrap gap-3"
        onSubmit={(e) => {
          e.preventDefault()
          router.post(action)
        }}
      >
        <button type="submit" className={`${button} bg-primary text-white`}>
          {SHARE_OFFER_TEXT.replace}
        </button>
        <Link href="/cart" className={`${button} border border-gray-400 bg-white text-gray-900`}>
          {SHARE_OFFER_TEXT.keep}
        </Link>
      </form>
    </section>
  )
}

export function RestorePreviousBasket({ action }: { action: string }) {
  return (
    <form
      method="post"
      action={action}
      className="mt-4"
      onSubmit={(e) => {
        e.preventDefault()
        router.post(action)
      }}
    >
      <button type="submit" className="text-sm text-primary underline" data-testid="restore-previous">
        {SHARE_OFFER_TEXT.restore}
      </button>
    </form>
  )
}
