/**
 * Typed access to the shared props every page receives (see src/shared/page-props.ts).
 * `site` can be missing: the SiteSetup page is rendered for unknown hosts without one.
 */
import { usePage } from '@inertiajs/react'
import type { CartSummary, CustomerSummary, FlashData, SiteProps } from '../../shared/page-props.ts'

export interface Shared {
  site: SiteProps | null
  customer: CustomerSummary | null
  cart: CartSummary
  errors: Record<string, unknown>
  flash: FlashData
}

const EMPTY_CART: CartSummary = { count: 0, total: 0 }

export function useShared(): Shared {
  const page = usePage()
  const props = page.props as Record<string, unknown>
  const auth = props.auth as { customer?: CustomerSummary | null } | undefined
  return {
    site: (props.site as SiteProps | undefined) ?? null,
    customer: auth?.customer ?? null,
    cart: (props.cart as CartSummary | undefined) ?? EMPTY_CART,
    errors: (props.errors as Record<string, unknown> | undefined) ?? {},
    flash: (page.flash as FlashData | undefined) ?? {},
  }
}

/** The site name for titles; null on an unknown host. */
export function useSiteName(): string | null {
  return useShared().site?.name ?? null
}
