/**
 * Adding to the basket from the product page (price grids and the builder).
 *
 * NOTE: the endpoint POST /cart/add arrives with the basket issue. Until then the call gets a
 * 404 and the visitor sees the add-to-basket error in the error box; nothing else changes.
 */
import { router } from '@inertiajs/react'
import type { BasketAddItem } from '../../shared/product.ts'
import { messageOf } from '../layout/RouterMessages.tsx'

export const ADD_TO_BASKET_URL = '/cart/add'
export const ADD_TO_BASKET_ERROR = 'Something went wrong when trying to add item(s) to basket.'

export interface AddToBasketHooks {
  /** The layout's error box (useMessages().pushError) */
  pushError: (message: string) => void
  onFinish?: () => void
}

function failure(serverMessage: string | null | undefined): string {
  const detail = (serverMessage ?? '').trim()
  return detail ? `${ADD_TO_BASKET_ERROR} ${detail}` : ADD_TO_BASKET_ERROR
}

/**
 * POSTs `{ items }` to /cart/add as an Inertia visit that keeps the page's scroll and state.
 * Resolves true when the server accepted it; on failure the error box shows the spec's message
 * followed by the server's.
 */
export function addToBasket(items: BasketAddItem[], hooks: AddToBasketHooks): Promise<boolean> {
  return new Promise((resolve) => {
    if (items.length === 0) {
      resolve(false)
      hooks.onFinish?.()
      return
    }
    let ok = false
    router.post(
      ADD_TO_BASKET_URL,
      { items: items as unknown as Record<string, number>[] },
      {
        preserveScroll: true,
        preserveState: true,
        onSuccess: () => {
          ok = true
        },
        onError: (errors) => {
          hooks.pushError(failure(Object.values(errors).flat().join(' ')))
        },
        onHttpException: (response) => {
          hooks.pushError(failure(messageOf(response.data) ?? `(${response.status})`))
          return false
        },
        onNetworkError: (error) => {
          hooks.pushError(failure(error.message))
          return false
        },
        onFinish: () => {
          hooks.onFinish?.()
          resolve(ok)
        },
      },
    )
  })
}
