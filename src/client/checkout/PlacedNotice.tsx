/**
 * Back from Order Complete: Inertia shows this page again from the history, with the basket it
 * had, which is now an order. Instead of a checkout that could be walked to a zero total and an
 * empty basket, the page says the order was placed and links to it.
 */
import { Link } from '@inertiajs/react'
import { useEffect, useRef } from 'react'
import { primaryButton, secondaryButton } from '../components/cart/Modal.tsx'
import type { PlacedOrder } from './placed-order.ts'

export function PlacedNotice({ placed }: { placed: PlacedOrder }) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])
  return (
    <section
      aria-labelledby="order-placed-heading"
      className="mt-6 rounded-lg border border-green-700 p-6"
      data-testid="order-placed"
    >
      <h2 id="order-placed-heading" ref={heading} tabIndex={-1} className="text-2xl font-semibold">
        Your order has been placed
      </h2>
      <p className="mt-2">
        {placed.orderNumber ? `Order ${placed.orderNumber} ` : 'This order '}
        was placed from this basket, so there is nothing more to pay here.
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <Link href={placed.url} className={primaryButton}>
          View your order
        </Link>
        <Link href="/" className={secondaryButton}>
          Continue shopping
        </Link>
      </div>
    </section>
  )
}
